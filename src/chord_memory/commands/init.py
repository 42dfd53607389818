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
    from chord_memory import atomic, index

    root = paths.find_root()
    said = []
    md = os.path.join(root, paths.MEMORY_MD)
    if os.path.lexists(md):
        if os.path.islink(md):
            raise UserError("MEMORY.md is a symbolic link; init does not write through links")
        with paths.open_regular(md) as f:
            data = f.read(paths.MAX_MEMORY_MD + 1)
        usable, why = index.read(data)
        if usable is None:
            raise UserError(f"{why}; nothing was written", 2 if why == index.NOT_TEXT else 1)
        idx = usable
        if not idx.region.present:
            atomic.write_if_unchanged(md, data, index.render(idx, []))
            said.append("added the managed region to MEMORY.md")
    else:
        idx = index.parse(MEMORY_TEMPLATE)
        atomic.write_if_unchanged(md, None, index.render(idx, []))
        said.append("created MEMORY.md")
    conf = os.path.join(root, paths.PROJECT_CONFIG)
    if not os.path.lexists(conf):
        os.makedirs(os.path.dirname(conf), exist_ok=True)
        atomic.write_if_unchanged(conf, None, CONFIG_TEMPLATE.encode())
        said.append(f"created {paths.PROJECT_CONFIG} (extraction is off)")
    print("; ".join(said) if said else "nothing to do: MEMORY.md and the configuration exist")
    return 0
