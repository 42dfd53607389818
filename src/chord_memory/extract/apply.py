"""Carrying out a plan: new files created once, MEMORY.md updated without losing an edit.

The plan goes into a journal first. Files are created exclusively (a record is
never replaced), never through a folder that leads out of the work tree.
MEMORY.md is the user's file: it is written by userfile.update, which waits
for a save in progress, swaps the new file in atomically, and merges back any
save that lands meanwhile, applying the plan's operations to what is there
now. A run killed at any point leaves whole files; the next run finishes the
journal, but only what is not yet done: the journal notes the inode of the
MEMORY.md it wrote, so a line the user deleted since is never put back.
"""
from __future__ import annotations

import contextlib
import os
import re
from typing import Any

from chord_memory import atomic, memory_md, paths
from chord_memory.errors import UserError
from chord_memory.extract import state
from chord_memory.extract.plan import Plan


def _outside(root: str, rel: str) -> str | None:
    """Why a new file must not be created at rel: its folder leads out of the work tree."""
    folder = os.path.dirname(os.path.join(root, rel))
    if not paths.inside(root, folder):
        return (f"{os.path.dirname(rel)}: leads out of the repository through a symbolic link; "
                "nothing was written through it (make it a regular folder)")
    return None


def carry_out(root: str, creates: list[list[str]] | list[tuple[str, str]], ops: list[memory_md.Op],
              noting: Any = None) -> None:
    for rel, _ in creates:
        why = _outside(root, rel)
        if why is not None:
            raise UserError(why)
    for rel, text in creates:
        full = os.path.join(root, rel)
        if not os.path.lexists(full):
            atomic.create_exclusive(full, text.encode())
    if ops:
        memory_md.update(root, ops, noting)


def apply(root: str, plan: Plan) -> None:
    """Journal, create, update the index, clear the journal."""
    if plan.empty:
        return
    journal: dict[str, Any] = {"root": os.path.realpath(root), "creates": plan.creates,
                               "ops": memory_md.pack(plan.ops)}
    state.save_journal(root, journal)

    def noting(inode: int) -> None:  # the MEMORY.md this plan writes, before it takes its place
        state.save_journal(root, {**journal, "written": inode})

    carry_out(root, plan.creates, plan.ops, noting)
    state.clear_journal(root)


def sweep(root: str) -> list[str]:
    """Clear the temporary files a killed run left (the caller holds the run lock).

    Beside records they are ours: removed. Beside MEMORY.md one can be the MEMORY.md a
    swap displaced (a run killed in the instant after it, before the merge-back), which
    may hold a save of the user's: those are moved to `<state>/recovered/`, never deleted.
    Returns what was moved there, for the log.
    """
    import glob

    for folder in (os.path.join(root, paths.RECORDS_DIR), os.path.join(root, paths.PROMOTIONS_DIR)):
        for tmp in glob.glob(os.path.join(glob.escape(folder), ".chord-*.tmp")):
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    state_dir = paths.state_dir(root)
    kept: list[str] = []
    for tmp in glob.glob(os.path.join(glob.escape(root), ".chord-*.tmp")):
        if state_dir is None or not os.path.isfile(tmp) or os.path.islink(tmp):
            continue
        with contextlib.suppress(OSError):
            os.makedirs(os.path.join(state_dir, "recovered"), exist_ok=True)
            name = f"MEMORY.md.{os.path.basename(tmp)[len('.chord-'):-len('.tmp')]}"
            os.replace(tmp, os.path.join(state_dir, "recovered", name))
            kept.append(name)
    return kept


_CREATE = re.compile(rf"(?:{re.escape(paths.RECORDS_DIR)}|{re.escape(paths.PROMOTIONS_DIR)})"
                     r"/[a-z0-9][a-z0-9-]{2,79}\.md")


def _valid(journal: dict[str, Any]) -> str | None:
    """Why a journal cannot be finished as it is (local state is input like any other)."""
    creates = journal.get("creates", [])
    if not isinstance(creates, list):
        return "its creates are not a list"
    for item in creates:
        ok = isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)
        if not ok or not _CREATE.fullmatch(item[0]):
            return "it names a file outside .chord/memory/records/ and promotions/"
    why = memory_md.unpack(journal.get("ops", []))[1]
    if why:
        return why
    written = journal.get("written")
    if written is not None and (not isinstance(written, int) or isinstance(written, bool)):
        return "its written inode is not a number"
    return None


def _already_written(root: str, written: object, ops: list[memory_md.Op]) -> bool:
    """Whether the MEMORY.md write of this journal happened (then only the user's edits since
    are in the file, and a line they deleted must stay deleted)."""
    if written is None:
        return False
    try:
        st = os.stat(os.path.join(root, paths.MEMORY_MD), follow_symlinks=False)
    except OSError:
        return False
    if st.st_ino == written:
        return True  # our file, edited in place since, maybe
    # Replaced since by a save (an editor that renames): ours was in place if it holds any
    # entry this plan added, since those ids did not exist before.
    new = {op.entry.id for op in ops if not isinstance(op, memory_md.Remove)}
    try:
        return bool(new & set(memory_md.ids(root)))
    except UserError:
        return False


def finish_journal(root: str) -> bool:
    """Finish the apply a killed run left; True when there was one to finish.

    The journal names its work tree (the state folder is shared by worktrees): it is
    finished against that tree, and set aside when it is malformed or its tree is gone.
    """
    from chord_memory import status

    journal = state.load_journal(root)
    why: str | None
    if journal is None:
        if not os.path.lexists(state.journal_path(root)):
            return False
        journal, why = {}, "it is not a JSON object"
    else:
        why = _valid(journal)
    where = journal.get("root", root)
    if why is None and (not isinstance(where, str) or paths.state_dir(where) != paths.state_dir(root)):
        why = "its work tree is not one of this repository's any more"
    if why is not None:
        aside = state.set_journal_aside(root)
        status.log(root, f"the journal of a killed run was not finished: {why}; it was moved to {aside}")
        return False
    ops = memory_md.unpack(journal.get("ops", []))[0]
    if _already_written(where, journal.get("written"), ops):
        ops = []
    carry_out(where, journal.get("creates", []), ops)
    state.clear_journal(root)
    return True
