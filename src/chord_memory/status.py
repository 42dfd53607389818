"""What the last extraction run left: `MEMORY`, `MEMORY-FAIL: <reason>`, or nothing.

The status file and the log live in `<git-common-dir>/chord-memory/`. The log
never holds a secret: every line goes through the scrubber first.
"""
from __future__ import annotations

import json
import os
import time

from chord_memory import paths

LOG_NAME = "extract.log"
LOG_MAX = 1 << 20
STATUS_NAME = "status.json"
MIN_FREE = 1 << 20  # less room than this where a run writes, and it fails (ENOSPC): docs/security.md


def _state(root: str) -> str | None:
    return paths.state_dir(root)


def read(root: str) -> dict[str, object]:
    """What the last run left; {} when none did. A status file that cannot be read, or does not
    hold what a run writes, is a failure: nobody can tell how the last run went."""
    state = _state(root)
    if state is None:
        return {}
    path = os.path.join(state, STATUS_NAME)
    try:
        with paths.open_regular(path) as f:  # a FIFO must not hang every prompt's status line
            data = json.loads(f.read(1 << 16))
    except FileNotFoundError:
        return {}
    except OSError as e:
        return {"ok": False, "reason": f"{shown(root, path)} cannot be read ({e.strerror}); "
                f"remove it and run chord-memory extract"}
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("ok"), bool):
        return {"ok": False, "reason": f"{shown(root, path)} is not a status chord-memory wrote; "
                "remove it and run chord-memory extract"}
    return data


def write(root: str, ok: bool, reason: str = "") -> None:
    from chord_memory import atomic

    state = _state(root)
    if state is None:
        return
    reason = _clean(reason)
    data = {"ok": ok, "reason": reason, "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    atomic.write(os.path.join(state, STATUS_NAME), json.dumps(data).encode())
    log(root, "ok" if ok else f"MEMORY-FAIL: {reason}")


def fail(root: str, reason: str) -> None:
    """write(root, False, reason) when it can be written at all. When it cannot (a read-only
    or full disk, the state folder a file), the error that failed the run is the one to show,
    and `blocked` makes the status line say why nothing is recorded."""
    import contextlib

    with contextlib.suppress(OSError):
        write(root, False, reason)


def blocked(root: str) -> str | None:
    """Why a run could not record its work or its failure, as the status line says it; None
    when it can. Only a few system calls (lstat, access, statvfs): it runs in every prompt.

    The state folder (or the git folder it is made in) must be a writable folder on a writable
    file system, it and the work tree must have MIN_FREE bytes and a free inode, and the lock
    must be a regular file (lock.py refuses anything else).
    """
    import stat

    state = _state(root)
    if state is None:
        return None
    try:
        is_dir = stat.S_ISDIR(os.stat(state).st_mode)
    except FileNotFoundError:
        where = os.path.dirname(state)  # made by the first run, in the git folder
    except OSError as e:
        return f"{shown(root, state)} cannot be read ({e.strerror}); fix it and run chord-memory extract"
    else:
        if not is_dir:
            return (f"{shown(root, state)} is not a folder; extraction keeps its state there: "
                    "remove it and run chord-memory extract")
        where = state
    for path in (where, root):
        full = _full(root, path)
        if full:
            return full
    if not os.access(where, os.W_OK | os.X_OK):
        return (f"{shown(root, where)} is not writable: extraction cannot record its work or its "
                "failures; make it writable (chmod u+w) and run chord-memory extract")
    lock = os.path.join(state, "lock")
    try:
        mode = os.lstat(lock).st_mode
    except OSError:
        return None
    if not stat.S_ISREG(mode):
        return f"{shown(root, lock)} is not a regular file; remove it and run chord-memory extract"
    return None


def _full(root: str, path: str) -> str | None:
    """Why nothing can be written on path's file system (read-only, no room, no inode), or None."""
    if not hasattr(os, "statvfs"):
        return None
    try:
        fs = os.statvfs(path)
    except OSError:
        return None
    where = "the work tree" if path == root else shown(root, path)
    if fs.f_flag & os.ST_RDONLY:
        return (f"{where} is on a read-only file system: extraction cannot record its work or its "
                "failures; make it writable and run chord-memory extract")
    root_user = getattr(os, "geteuid", lambda: -1)() == 0
    free = (fs.f_bfree if root_user else fs.f_bavail) * fs.f_frsize  # root may use the reserve
    # A file system that reports 0 blocks or 0 inodes does not count them (some FUSE ones).
    no_inode = fs.f_files > 0 and fs.f_favail == 0
    if (fs.f_blocks > 0 and free < MIN_FREE) or no_inode:
        room = "no free inode" if no_inode else f"{free:,} bytes free"
        return (f"the file system of {where} is full ({room}): extraction cannot write there; "
                "free some space and run chord-memory extract")
    return None


def shown(root: str, path: str) -> str:
    """A state path as messages show it: root-relative inside the work tree, else absolute."""
    rel = os.path.relpath(path, root)
    return path if rel == ".." or rel.startswith(".." + os.sep) else rel.replace(os.sep, "/")


def _clean(text: str) -> str:
    """One line, scrubbed: the only form any text of ours takes in the state folder."""
    from chord_memory.secrets import scrub

    one_line = " ".join(text.split())
    return scrub(one_line)[0]


def log(root: str, message: str) -> None:
    state = _state(root)
    if state is None:
        return
    os.makedirs(state, exist_ok=True)
    path = os.path.join(state, LOG_NAME)
    try:
        if os.path.getsize(path) > LOG_MAX:
            os.replace(path, path + ".1")
    except OSError:
        pass
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"{stamp} [{os.getpid()}] {_clean(message)}\n")


def log_path(root: str) -> str | None:
    state = _state(root)
    return os.path.join(state, LOG_NAME) if state else None
