"""The memory files as one consistent view: from the working tree or from the index.

The hooks check what is staged (a record that exists only untracked does not
satisfy an index entry); `check --all` checks the working tree. Symbolic links
are never followed out of the repository, and records never through a link.
"""
from __future__ import annotations

import os
import stat
from typing import NamedTuple

from chord_memory import gitio, paths

MAX_MEMORY_MD = 8 << 20   # a larger MEMORY.md is reported, not read
MAX_RECORD = 1 << 20      # a larger record is reported by size, not read


class MemFile(NamedTuple):
    path: str             # root-relative, forward slashes
    data: bytes | None    # None when not read (a link, too large, unreadable)
    size: int
    sha: str | None       # git blob id of data, when known
    problem: tuple[str, str] | None = None  # (code, message) that stopped the read


class Snapshot(NamedTuple):
    root: str
    memory_md: MemFile | None
    records: dict[str, MemFile]   # record name (file name without .md) -> file
    others: list[MemFile]         # other files under .chord/memory (promotions, learnings)
    staged: bool


def _inside(root: str, path: str) -> bool:
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root + os.sep)


LINKED_MEMORY_MD = "MEMORY.md: is a symbolic link; it is not followed (replace it with a regular file)"


def unsafe(root: str) -> str | None:
    """Why summary and recall must not read this memory, as `check` would say it; None when fine.

    MEMORY.md must be a regular file (a link is CM309, in the working tree and when staged), and
    the records folder must not lead out of the repository (its records are CM201 then).
    """
    if os.path.islink(os.path.join(root, paths.MEMORY_MD)):
        return LINKED_MEMORY_MD
    folder = os.path.join(root, paths.RECORDS_DIR)
    if os.path.lexists(folder) and not _inside(root, folder):
        return (f"{paths.RECORDS_DIR}: leads out of the repository through a symbolic link; it is "
                "not followed (make it a regular folder)")
    return None


def read_file(root: str, rel: str, limit: int, follow_inside: bool) -> MemFile:
    full = os.path.join(root, rel)
    try:
        st = os.lstat(full)
        if stat.S_ISLNK(st.st_mode):
            if not (follow_inside and _inside(root, full)):
                return MemFile(rel, None, 0, None, ("CM309", "is a symbolic link; it is not followed "
                                                    "(replace it with a regular file)"))
            st = os.stat(full)
        if not stat.S_ISREG(st.st_mode):
            return MemFile(rel, None, 0, None, ("CM105", "is not a regular file"))
        if st.st_size > limit:
            return MemFile(rel, None, st.st_size, None, None)
        with open(full, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        return MemFile(rel, None, 0, None, ("CM105", f"cannot be read ({e.strerror})"))
    return MemFile(rel, data, len(data), gitio.blob_sha(data))


def _walk(root: str, folder: str) -> list[str]:
    """Root-relative paths of the regular files and links under folder (links not entered)."""
    out: list[str] = []
    base = os.path.join(root, folder)
    if not os.path.isdir(base) or not _inside(root, base):
        return out
    stack = [folder]
    while stack:
        rel_dir = stack.pop()
        try:
            entries = list(os.scandir(os.path.join(root, rel_dir)))
        except OSError:
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}"
            if entry.is_dir(follow_symlinks=False):
                stack.append(rel)
            else:
                out.append(rel)
    return sorted(out)


def _record_name(rel: str) -> str | None:
    prefix = paths.RECORDS_DIR + "/"
    if rel.startswith(prefix) and rel.endswith(".md") and "/" not in rel[len(prefix):]:
        return rel[len(prefix):-3]
    return None


def _assemble(root: str, files: list[MemFile], staged: bool) -> Snapshot:
    memory_md = None
    records: dict[str, MemFile] = {}
    others: list[MemFile] = []
    for f in files:
        name = _record_name(f.path)
        if f.path == paths.MEMORY_MD:
            memory_md = f
        elif name is not None:
            records[name] = f
        else:
            others.append(f)
    return Snapshot(root, memory_md, records, others, staged)


def from_worktree(root: str) -> Snapshot:
    files: list[MemFile] = []
    if os.path.lexists(os.path.join(root, paths.MEMORY_MD)):
        files.append(read_file(root, paths.MEMORY_MD, MAX_MEMORY_MD, follow_inside=False))
    for rel in _walk(root, paths.MEMORY_DIR):
        files.append(read_file(root, rel, MAX_RECORD, follow_inside=False))
    return _assemble(root, files, staged=False)


def from_index(root: str) -> Snapshot:
    entries = gitio.staged_entries(root, [paths.MEMORY_MD, paths.MEMORY_DIR])
    sizes = gitio.blob_sizes(root, (e.sha for e in entries.values() if e.mode != "120000"))
    files: list[MemFile] = []
    wanted: list[str] = []
    for e in entries.values():
        if e.mode == "120000":
            files.append(MemFile(e.path, None, 0, e.sha, ("CM309", "is staged as a symbolic link; "
                                                         "records and MEMORY.md must be regular files")))
        elif e.mode == "160000":
            files.append(MemFile(e.path, None, 0, e.sha, ("CM309", "is staged as a submodule; "
                                                         "records and MEMORY.md must be regular files")))
        else:
            limit = MAX_MEMORY_MD if e.path == paths.MEMORY_MD else MAX_RECORD
            if sizes.get(e.sha, 0) <= limit:
                wanted.append(e.sha)
    blobs = gitio.read_blobs(root, wanted)
    for e in entries.values():
        if e.mode in ("120000", "160000"):
            continue
        data = blobs.get(e.sha)
        files.append(MemFile(e.path, data, sizes.get(e.sha, 0), e.sha))
    files.sort(key=lambda f: f.path)
    return _assemble(root, files, staged=True)
