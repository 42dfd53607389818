"""Carrying out a plan: new files created once, MEMORY.md updated by compare-and-swap.

The plan goes into a journal first. Files are created exclusively (a record is
never replaced); MEMORY.md is written atomically and only if it still holds
what was read: when it changed meanwhile (a hand edit), it is read again and
the plan's operations are applied to what is there now. A run killed at any
point leaves whole files, and the next run finishes the journal.
"""
from __future__ import annotations

import contextlib
import os
from typing import Any

from chord_memory import atomic, index, paths
from chord_memory.errors import UserError
from chord_memory.extract import state
from chord_memory.extract.plan import Plan

ATTEMPTS = 8
HEADER = (
    "# Project memory\n\nBackground from earlier agent sessions. The list between the markers is "
    "kept by\nchord-memory; everything else in this file is yours. Delete a line to forget it.\n\n"
)


class RegionUnusable(UserError):
    pass


def merge(entries: list[index.Entry], ops: list[list[Any]]) -> list[index.Entry]:
    """The entries after the operations; new ones on top in plan order, the rest in place."""
    out = list(entries)
    top: list[index.Entry] = []

    def ids() -> set[str]:
        return {e.id for e in out} | {e.id for e in top}

    for op in ops:
        if op[0] == "remove":
            out = [e for e in out if e.id != op[1]]
            continue
        line = op[-1]
        got = index.parse_entry(line, 0)
        assert isinstance(got, index.Entry), line
        if got.id in ids():
            continue
        if op[0] == "replace":
            where = [i for i, e in enumerate(out) if e.id == op[1]]
            if where:
                out[where[0]] = got
                continue
        top.append(got)
    return top + out


def _update_index(root: str, ops: list[list[Any]]) -> bool:
    """Apply ops to MEMORY.md; True when it was written. Raises RegionUnusable."""
    path = os.path.join(root, paths.MEMORY_MD)
    if os.path.islink(path):
        raise RegionUnusable("MEMORY.md is a symbolic link; nothing was written through it")
    for _ in range(ATTEMPTS):
        data = atomic.read_or_none(path)
        if data is None:
            idx = index.parse(HEADER)
        else:
            usable, why = index.read(data)
            if usable is None:
                raise RegionUnusable(f"{why}; nothing was written")
            idx = usable
        new = merge(idx.entries, ops)
        if data is not None and idx.region.present and \
                [e.render() for e in new] == [e.render() for e in idx.entries]:
            return False
        try:
            atomic.write_if_unchanged(path, data, index.render(idx, new))
            return True
        except atomic.Changed:
            continue  # edited meanwhile: read it again and merge
    raise UserError("MEMORY.md kept changing while extraction tried to update it; try again")


def carry_out(root: str, creates: list[list[str]] | list[tuple[str, str]], ops: list[list[Any]]) -> None:
    for rel, text in creates:
        full = os.path.join(root, rel)
        if not os.path.exists(full):
            atomic.create_exclusive(full, text.encode())
    if ops:
        _update_index(root, ops)


def apply(root: str, plan: Plan) -> None:
    """Journal, create, update the index, clear the journal."""
    if plan.empty:
        return
    state.save_journal(root, {"creates": plan.creates, "ops": plan.ops})
    carry_out(root, plan.creates, plan.ops)
    state.clear_journal(root)


def sweep(root: str) -> None:
    """Remove the temporary files a killed run left (the caller holds the run lock)."""
    import glob

    for folder in (root, os.path.join(root, paths.RECORDS_DIR), os.path.join(root, paths.PROMOTIONS_DIR)):
        for tmp in glob.glob(os.path.join(glob.escape(folder), ".chord-*.tmp")):
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def finish_journal(root: str) -> bool:
    """Finish the apply a killed run left; True when there was one."""
    journal = state.load_journal(root)
    if journal is None:
        return False
    carry_out(root, journal.get("creates", []), journal.get("ops", []))
    state.clear_journal(root)
    return True
