"""Writing a file the user edits too (MEMORY.md) without ever losing their bytes.

Editors save in two ways, and either can happen at any moment of a read ->
change -> write: in place (truncate, then write: the same inode; so does
`cat > MEMORY.md`) or by rename (write a new file, rename it over the old one).
So a write goes like this:

1. **Settle.** A file changed within ``SETTLE`` seconds is being written by
   someone (a truncated file not yet written back looks empty): wait and read
   again, for ``WAIT_MAX`` seconds at most.
2. **Check, then swap.** The change of what was read goes into a temporary file.
   Right before it takes the file's place, the path must still be the inode that
   was read, unchanged (a stat of the path and of the open descriptor). Then an
   atomic *exchange* (Linux renameat2 RENAME_EXCHANGE; elsewhere a rename) swaps
   it in, and what it displaced is looked at: if a save replaced the file in the
   microseconds since the check, the two are swapped straight back, so the save
   is in place again, untouched, and the update starts over from it.
3. **Merge back.** Someone who had the old file open may still write into it
   after the swap (an in-place save that began in the instant of the swap): when
   the file was written shortly before it was read, it is given ``GRACE``
   seconds, and what they wrote is not dropped: the change is applied to it, and
   that is written instead.

The caller's ``change`` must be idempotent on its own output (the index merge
is: an entry already there is not added twice), since it can run more than once.
"""
from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from collections.abc import Callable
from typing import NamedTuple

from chord_memory import atomic
from chord_memory.paths import open_regular

SETTLE = 0.2     # a file changed this recently (seconds) is being written by someone
GRACE = 0.25     # how long a writer of the replaced file is given to finish
WAIT_MAX = 10.0  # the longest wait for a file to settle
ATTEMPTS = 16

Change = Callable[["bytes | None"], "bytes | None"]  # what to write, None: nothing to change
_RETRY = b"\0retry"  # what _put returns when nothing was written (compared by identity)


class Kept(Exception):
    """The file kept changing under every attempt."""


# What this process last put at each path: a file modified "just now" by us is not a save in
# progress (back-to-back updates, one run over many sessions, must not wait on themselves).
_OURS: dict[str, tuple[int, int, int, int]] = {}


def _key(st: os.stat_result) -> tuple[int, int, int, int]:
    return st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns


class _Seen(NamedTuple):
    data: bytes | None
    fd: int  # open on the inode read; -1 when there was no file
    st: os.stat_result | None
    ours: bool = False  # it is what this process put there: nobody has written it since


def update(path: str, change: Change, *, limit: int = atomic.MAX_READ,
           noting: Callable[[int], None] | None = None) -> bool:
    """Replace ``path`` with ``change(what it holds)``; True when something was written.

    ``noting(inode)`` is called with the new file's inode number right before it takes
    the file's place (the journal keeps it, to know later whether the write happened).
    Raises OSError (a file over ``limit``: EFBIG, also for what would be written) and
    Kept.
    """
    theirs: bytes | None = None  # written into the file we replaced, after we read it
    wrote = False
    for _ in range(ATTEMPTS):
        seen = _settled(path, limit)
        try:
            source = seen.data if theirs is None else theirs
            new = change(source)
            if new is None:
                new = source  # nothing to change in it; their bytes must still be put back
            if new is None or new == seen.data:
                return wrote
            if len(new) > limit:
                raise OSError(errno.EFBIG, f"would be larger than {limit:,} bytes", path)
            outcome = _put(path, new, seen, noting)
        finally:
            if seen.fd >= 0:
                os.close(seen.fd)
        theirs = None
        if outcome is _RETRY:
            continue
        wrote = True
        if outcome is None or outcome == source:
            return True
        theirs = outcome
    raise Kept(f"{path} kept changing while it was being updated")


def _settled(path: str, limit: int) -> _Seen:
    """The file once nobody has written it for SETTLE seconds. A file that never rests
    is never read half-written: after WAIT_MAX it is Kept (a later run tries again)."""
    deadline = time.monotonic() + WAIT_MAX
    while True:
        seen = _read(path, limit)
        if seen.st is not None and _OURS.get(path) == _key(seen.st):
            return seen._replace(ours=True)
        if seen.st is None or time.time() - seen.st.st_mtime >= SETTLE:
            return seen
        os.close(seen.fd)
        if time.monotonic() >= deadline:
            raise Kept(f"{path} was being written for {WAIT_MAX:.0f} s without a pause")
        time.sleep(max(SETTLE / 2, 0.01))


def _read(path: str, limit: int) -> _Seen:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return _Seen(None, -1, None)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        data = _read_fd(fd, limit, path)
        return _Seen(data, fd, os.fstat(fd))
    except BaseException:
        os.close(fd)
        raise


def _read_fd(fd: int, limit: int, path: str) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = os.pread(fd, 1 << 20, size)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise OSError(errno.EFBIG, f"larger than {limit:,} bytes", path)


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    """Same inode, size and modification time (a rename changes only the ctime)."""
    return _key(a) == _key(b)


def _unchanged(path: str, seen: _Seen) -> bool:
    """Whether ``path`` is still the file we read, as we read it, with nobody writing to it."""
    assert seen.st is not None
    try:
        st = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return _same(st, seen.st) and _same(os.fstat(seen.fd), seen.st)


def _put(path: str, new: bytes, seen: _Seen, noting: Callable[[int], None] | None) -> bytes | None:
    """Put ``new`` in place of what was seen. None: done; _RETRY: nothing written (a save
    landed meanwhile), read again; bytes: written, but someone who had the old file open
    wrote these into it as it was replaced."""
    mode = seen.st.st_mode & 0o777 if seen.st is not None else None
    tmp = atomic.temp_copy(os.path.dirname(path) or ".", new, mode)
    _OURS[path] = _key(os.stat(tmp))  # what the path holds once this write is in place
    try:
        if noting is not None:
            noting(_OURS[path][0])
        if seen.st is None:
            try:
                os.link(tmp, path)  # only while there is still no file
            except FileExistsError:
                return _RETRY
            return None
        if not _unchanged(path, seen):
            return _RETRY
        if _exchange(tmp, path):
            if not _unchanged(tmp, seen):  # a save replaced it since the check: put it back
                if _exchange(tmp, path):
                    return _RETRY
                with open_regular(tmp) as f:  # could not: theirs is merged in, never dropped
                    return _read_fd(f.fileno(), atomic.MAX_READ, tmp)
        else:
            os.replace(tmp, path)  # no exchange on this system: the check above stands
        return _late(seen)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def _late(seen: _Seen) -> bytes | None:
    """Bytes written into the file we replaced by someone who had it open (in place)."""
    assert seen.st is not None
    quiet = seen.ours or time.time() - seen.st.st_mtime >= SETTLE + GRACE
    if quiet and _same(os.fstat(seen.fd), seen.st):
        return None  # unchanged, and nobody's save was in progress as we read it (or it was ours)
    time.sleep(GRACE)  # it was being written when we read it: let its writer finish
    data = _read_fd(seen.fd, atomic.MAX_READ, "")
    return None if data == seen.data else data


def _exchange(a: str, b: str) -> bool:
    """Swap the names a and b atomically; False where the system cannot (nothing moved)."""
    if not hasattr(os, "pipe2"):  # not Linux: no renameat2
        return False
    try:
        import ctypes

        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV):
        return False
    raise OSError(err, os.strerror(err), b)
