"""chord-memory promotions list | accept ID | reject ID"""
from __future__ import annotations

import argparse

from chord_memory import paths, promotions
from chord_memory.errors import UserError
from chord_memory.secrets import scrub


def _print(text: str) -> None:
    """Print text from a suggestion file, scrubbed: the file may hold a secret typed in by hand."""
    print(scrub(text)[0])


def _list(root: str) -> None:
    found = promotions.load_all(root)
    if not found:
        print("No promotion suggestions.")
        return
    indexed = set(promotions.indexed(root))
    for sug in found:
        state = "still indexed" if sug.id in indexed else "out of the index"
        _print(f"{sug.id}  -> {sug.where}  ({state}; {sug.created[:10]})\n    why: {sug.reason}\n"
               f"    draft: {paths.PROMOTIONS_DIR}/{sug.id}.md")
    print("\nMove the drafts you agree with into place yourself (chord-memory never edits AGENTS.md "
          "or docs), then:\n  chord-memory promotions accept ID   # the entry leaves the index\n"
          "  chord-memory promotions reject ID   # the suggestion goes; the entry stays memory")


def run(args: argparse.Namespace) -> int:
    return promotions_command(paths.find_root(), args.action, args.id)


def promotions_command(root: str, action: str, record_id: str | None) -> int:
    """list the suggestions, or accept / reject the one with this id."""
    if action == "list":
        _list(root)
        return 0
    if not record_id:
        raise UserError(f"`promotions {action}` needs the suggestion's ID "
                        "(see `chord-memory promotions list`)")
    if action == "accept":
        sug = promotions.accept(root, record_id)
        print(f"accepted {sug.id}: its entry left the index and the suggestion file is deleted.")
        _print(f"If you have not moved it into {sug.where} yet, here is the draft:\n\n{sug.draft}")
    else:
        sug, restored = promotions.reject(root, record_id)
        again = "; its entry is back at the top of the index" if restored else ""
        print(f"rejected {sug.id}: the suggestion file is deleted{again}.")
    return 0
