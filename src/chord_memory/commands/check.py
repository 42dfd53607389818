"""chord-memory check [--all | --staged] [--format text|json|sarif] [--no-secrets] [PATH...]"""
from __future__ import annotations

import argparse
import os
import sys

from chord_memory import paths, settings
from chord_memory.errors import UserError


def _relative(root: str, given: list[str], staged: bool) -> set[str]:
    """The named paths, root-relative; a typo must not pass as "no findings" (exit 2)."""
    out: set[str] = set()
    for p in given:
        full = os.path.abspath(p)
        rel = os.path.relpath(full, root)
        if rel.startswith(".."):
            raise UserError(f"{p}: outside the project at {root}")
        if not staged and not os.path.lexists(full):
            raise UserError(f"{p}: no such file")
        out.add("" if rel == "." else rel.replace(os.sep, "/"))
    return out


def _named(path: str, wanted: set[str]) -> bool:
    """A finding's path is named, or lies in a named folder."""
    return path in wanted or "" in wanted or any(path.startswith(w + "/") for w in wanted)


def run(args: argparse.Namespace) -> int:
    return check_memory(paths.find_root(), staged=args.mode == "staged", fmt=args.format,
                        with_secrets=not args.no_secrets, named=args.paths)


def check_memory(root: str, *, staged: bool, fmt: str, with_secrets: bool, named: list[str]) -> int:
    """Print the findings of the memory at root (the working tree, or what is staged); the exit
    code. ``named``: report these paths only (the whole memory is still read)."""
    from chord_memory import check, gitio, snapshot
    from chord_memory.findings import worst_exit
    from chord_memory.output import FORMATTERS

    wanted = _relative(root, named, staged)
    conf = settings.load(root)
    in_git = paths.git_dir(root) is not None
    if staged:
        if not in_git:
            raise UserError("--staged needs a git repository; run it inside one, or use --all")
        snap = snapshot.from_index(root)
    else:
        snap = snapshot.from_worktree(root)
    first = gitio.first_added_blobs(root, paths.RECORDS_DIR) if in_git and snap.records else None
    found = check.run(snap, conf, first, with_secrets=with_secrets)
    if wanted:
        found = [f for f in found if _named(f.path, wanted)]
    out = FORMATTERS[fmt](found)
    sys.stdout.write(out)
    return worst_exit(found)
