"""One extraction at a time per repository: a non-blocking lock in the state folder.

The lock is an flock on `<git-common-dir>/chord-memory/lock`; the kernel drops
it when its holder dies, so a crashed or killed run never leaves it held: the
next trigger simply takes it (the work the dead run had claimed is recovered by
background/queue.py's claim files, not by the lock). The holder writes its pid into the
file, for `holder()` and for people reading the state folder.

This module is imported by the git hook's hot path: standard modules only.
"""
from __future__ import annotations

import fcntl
import os

LOCK_NAME = "lock"


def _open(state_dir: str) -> int:
    """The lock file, opened for writing. Only a regular file will do: a FIFO, a device or a
    link put in its place is an OSError that names it and says what it is (O_NONBLOCK: the
    open of a FIFO does not wait; O_NOFOLLOW: a link is not written through)."""
    os.makedirs(state_dir, exist_ok=True)
    path = os.path.join(state_dir, LOCK_NAME)
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError:
        _refuse(path, None)
        raise
    try:
        _refuse(path, fd)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _refuse(path: str, fd: int | None) -> None:
    """Raise the one-line OSError for a lock file that is not a regular file (fstat of fd, or
    lstat of path when the open failed); return when it is one, or does not exist."""
    import stat  # os imports it already: free

    try:
        mode = os.fstat(fd).st_mode if fd is not None else os.lstat(path).st_mode
    except OSError:
        return
    if stat.S_ISREG(mode):
        return
    import errno

    kind = ("a symbolic link" if stat.S_ISLNK(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a folder" if stat.S_ISDIR(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device")
    raise OSError(errno.EINVAL, f"is {kind}, not a regular file (the lock must be one)", path)


def _take(fd: int, patience: float) -> bool:
    """Try the lock, retrying for `patience` seconds: a probe holds it for microseconds."""
    import time

    deadline = time.monotonic() + patience
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)


class held:  # lower case: used like the function it replaced, `with lock.held(state) as mine:`
    """`with held(state) as mine:` mine is True while this process holds the lock, False
    when another one does. A class, not contextlib: the git hook's child imports this."""

    def __init__(self, state_dir: str, patience: float = 0.0) -> None:
        self.state_dir, self.patience, self.fd = state_dir, patience, -1

    def __enter__(self) -> bool:
        self.fd = _open(self.state_dir)
        if not _take(self.fd, self.patience):
            return False
        os.ftruncate(self.fd, 0)
        os.write(self.fd, str(os.getpid()).encode())
        return True

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)  # closing the only descriptor releases the flock


def is_free(state_dir: str, patience: float = 0.0) -> bool:
    """Whether nobody holds the lock (taken and dropped at once; retried for `patience` s)."""
    fd = _open(state_dir)
    try:
        return _take(fd, patience)
    finally:
        os.close(fd)


def holder(state_dir: str) -> int | None:
    """The pid of the process holding the lock, or None when it is free."""
    if is_free(state_dir):
        return None
    try:
        with open(os.path.join(state_dir, LOCK_NAME), "rb") as f:
            return int(f.read(32) or b"0") or None
    except (OSError, ValueError):
        return None
