"""chord-memory forget ID: remove a record's line from the index; nothing else changes.

The record file stays as provenance (an orphan), exactly as when the line is
deleted by hand, and is never indexed again automatically.
"""
from __future__ import annotations

import argparse

from chord_memory import paths
from chord_memory.errors import UserError


def run(args: argparse.Namespace) -> int:
    return forget(paths.find_root(), args.id)


def forget(root: str, record_id: str) -> int:
    from chord_memory import memory_md
    from chord_memory.index import valid_id

    if not valid_id(record_id):
        raise UserError(f"{record_id!r} is not a record id (lower-case letters, digits and '-', 3 to 80)")
    try:
        indexed = memory_md.ids(root)
    except memory_md.Unusable as e:
        raise UserError(f"{e}; nothing was changed", 1) from None
    if record_id not in indexed:
        raise UserError(f"{record_id} is not in MEMORY.md's index; nothing to forget", 1)
    memory_md.update(root, [memory_md.Remove(record_id)])
    print(f"forgot {record_id}: its line left MEMORY.md; {paths.record_path(record_id)} stays as provenance")
    return 0
