"""chord-memory forget ID: remove a record's line from the index; nothing else changes.

The record file stays as provenance (an orphan), exactly as when the line is
deleted by hand, and is never indexed again automatically.
"""
from __future__ import annotations

import argparse

from chord_memory import paths
from chord_memory.errors import UserError


def run(args: argparse.Namespace) -> int:
    from chord_memory import atomic
    from chord_memory.extract.apply import update_index
    from chord_memory.index import valid_id
    from chord_memory.recall.entries import ids

    root = paths.find_root()
    if not valid_id(args.id):
        raise UserError(f"{args.id!r} is not a record id (lower-case letters, digits and '-', 3 to 80)")
    indexed, problem = ids(atomic.read_or_none(f"{root}/{paths.MEMORY_MD}"))
    if problem:
        raise UserError(f"{problem}; nothing was changed", 1)
    if args.id not in indexed:
        raise UserError(f"{args.id} is not in MEMORY.md's index; nothing to forget", 1)
    update_index(root, [["remove", args.id]])
    print(f"forgot {args.id}: its line left MEMORY.md; {paths.record_path(args.id)} stays as provenance")
    return 0
