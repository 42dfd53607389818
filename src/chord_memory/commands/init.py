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
    del args  # init takes no arguments
    return init(paths.find_root())


def init(root: str) -> int:
    """The managed region in MEMORY.md and .chord/config.yaml, each created when missing."""
    from chord_memory import index, memory_md

    said = []
    try:
        data = memory_md.read(root)
        idx = memory_md.parse(data) if data is not None else None
    except memory_md.Unreadable as e:  # a link, too large, not a regular file: usage
        raise UserError(f"{e}; nothing was written") from None
    except memory_md.Unusable as e:
        raise UserError(f"{e}; nothing was written", e.code) from None
    if data is not None and idx is not None:
        if not idx.region.present:
            new = index.render(idx, [])
            if len(new) > paths.MAX_MEMORY_MD:  # nothing we write may be a file we refuse to read
                raise UserError(f"MEMORY.md: {len(data):,} bytes; with the managed region it would "
                                f"be {memory_md.too_large(len(new))}; nothing was written")
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


def _write(root: str, rel: str, expected: bytes | None, data: bytes) -> None:
    """atomic.write_if_unchanged, with a file changed meanwhile (an editor, a second init) as
    a one-line failure: it is never overwritten."""
    from chord_memory import atomic

    try:
        atomic.write_if_unchanged(os.path.join(root, rel), expected, data)
    except atomic.Changed:
        raise UserError(f"{rel} changed while init was writing it; it was not overwritten: "
                        "run chord-memory init again", 1) from None
