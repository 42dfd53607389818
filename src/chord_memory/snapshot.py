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


def read_file(root: str, rel: str, limit: int) -> MemFile:
    full = os.path.join(root, rel)
    try:
        st = os.lstat(full)
        if stat.S_ISLNK(st.st_mode):
            return MemFile(rel, None, 0, None, ("CM309", "is a symbolic link; it is not followed "
                                                "(replace it with a regular file)"))
        if not stat.S_ISREG(st.st_mode):
            return MemFile(rel, None, 0, None, ("CM105", "is not a regular file"))
        if st.st_size > limit:
            return MemFile(rel, None, st.st_size, None, None)
        with paths.open_regular(full) as f:  # checked above; a FIFO swapped in since must not hang us
            data = f.read(limit + 1)
    except OSError as e:
        return MemFile(rel, None, 0, None, ("CM105", f"cannot be read ({e.strerror})"))
    return MemFile(rel, data, len(data), gitio.blob_sha(data))


def _walk(root: str, folder: str) -> list[str]:
    """Root-relative paths of the regular files and links under folder (links not entered)."""
    out: list[str] = []
    base = os.path.join(root, folder)
    if not os.path.isdir(base) or not paths.inside(root, base):
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
        files.append(read_file(root, paths.MEMORY_MD, paths.MAX_MEMORY_MD))
    for rel in _walk(root, paths.MEMORY_DIR):
        files.append(read_file(root, rel, paths.MAX_RECORD))
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
            limit = paths.MAX_MEMORY_MD if e.path == paths.MEMORY_MD else paths.MAX_RECORD
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
