"""chord-memory init: the MEMORY.md region and .chord/config.yaml; never overwrites."""
from __future__ import annotations

import argparse
import os

from chord_memory import paths
from chord_memory.errors import UserError

CONFIG_TEMPLATE = """\
# chord-memory project configuration; see docs/configuration.md.
# Keys set here win over ~/.config/chord/config.yaml key by key.
memory:
  enabled: false        # true: extract memory from finished agent sessions after commits
"""

MEMORY_TEMPLATE = """\
# Project memory

Background from earlier agent sessions. The list between the markers is kept by
chord-memory; everything else in this file is yours. Delete a line to forget it.

"""


def run(args: argparse.Namespace) -> int:
    from chord_memory import index

    root = paths.find_root()
    said = []
    md = os.path.join(root, paths.MEMORY_MD)
    if os.path.lexists(md):
        if os.path.islink(md):
            raise UserError("MEMORY.md is a symbolic link; init does not write through links")
        with paths.open_regular(md) as f:
            size = os.fstat(f.fileno()).st_size
            data = f.read(paths.MAX_MEMORY_MD + 1)
        if max(size, len(data)) > paths.MAX_MEMORY_MD:
            raise UserError(_too_large(f"MEMORY.md is {max(size, len(data)):,} bytes"))
        usable, why = index.read(data)
        if usable is None:
            raise UserError(f"{why}; nothing was written", 2 if why == index.NOT_TEXT else 1)
        idx = usable
        if not idx.region.present:
            new = index.render(idx, [])
            if len(new) > paths.MAX_MEMORY_MD:  # nothing we write may be a file we refuse to read
                raise UserError(_too_large(f"MEMORY.md is {len(data):,} bytes; with the managed "
                                           f"region it would be {len(new):,}"))
            _write(root, paths.MEMORY_MD, data, new)
            said.append("added the managed region to MEMORY.md")
    else:
        idx = index.parse(MEMORY_TEMPLATE)
        _write(root, paths.MEMORY_MD, None, index.render(idx, []))
        said.append("created MEMORY.md")
    conf = os.path.join(root, paths.PROJECT_CONFIG)
    if not os.path.lexists(conf):
        os.makedirs(os.path.dirname(conf), exist_ok=True)
        _write(root, paths.PROJECT_CONFIG, None, CONFIG_TEMPLATE.encode())
        said.append(f"created {paths.PROJECT_CONFIG} (extraction is off)")
    print("; ".join(said) if said else "nothing to do: MEMORY.md and the configuration exist")
    return 0


def _too_large(what: str) -> str:
    """The one line for a MEMORY.md larger than `check` and `summary` read (paths.MAX_MEMORY_MD)."""
    return (f"{what}, over the {paths.MAX_MEMORY_MD:,} bytes ({paths.MAX_MEMORY_MD >> 20} MiB) "
            "chord-memory reads; move some of your text to another file and run init again; "
            "nothing was written")


def _write(root: str, rel: str, expected: bytes | None, data: bytes) -> None:
    """atomic.write_if_unchanged, with a file changed meanwhile (an editor, a second init) as
    a one-line failure: it is never overwritten."""
    from chord_memory import atomic

    try:
        atomic.write_if_unchanged(os.path.join(root, rel), expected, data)
    except atomic.Changed:
        raise UserError(f"{rel} changed while init was writing it; it was not overwritten: "
                        "run chord-memory init again", 1) from None
