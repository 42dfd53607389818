"""chord-memory promotions list | accept ID | reject ID"""
from __future__ import annotations

import argparse

from chord_memory import paths, promotions
from chord_memory.errors import UserError


def _list(root: str) -> None:
    found = promotions.load_all(root)
    if not found:
        print("No promotion suggestions.")
        return
    indexed = set(promotions.indexed(root))
    for sug in found:
        state = "still indexed" if sug.id in indexed else "out of the index"
        print(f"{sug.id}  -> {sug.where}  ({state}; {sug.created[:10]})")
        print(f"    why: {sug.reason}")
        print(f"    draft: {paths.PROMOTIONS_DIR}/{sug.id}.md")
    print("\nMove the drafts you agree with into place yourself (chord-memory never edits AGENTS.md "
          "or docs), then:\n  chord-memory promotions accept ID   # the entry leaves the index\n"
          "  chord-memory promotions reject ID   # the suggestion goes; the entry stays memory")


def run(args: argparse.Namespace) -> int:
    root = paths.find_root()
    if args.action == "list":
        _list(root)
        return 0
    if not args.id:
        raise UserError(f"`promotions {args.action}` needs the suggestion's ID "
                        "(see `chord-memory promotions list`)")
    if args.action == "accept":
        sug = promotions.accept(root, args.id)
        print(f"accepted {sug.id}: its entry left the index and the suggestion file is deleted.")
        print(f"If you have not moved it into {sug.where} yet, here is the draft:\n\n{sug.draft}")
    else:
        sug, restored = promotions.reject(root, args.id)
        again = "; its entry is back at the top of the index" if restored else ""
        print(f"rejected {sug.id}: the suggestion file is deleted{again}.")
    return 0
