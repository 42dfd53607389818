"""Atomic writes: a temporary file in the same folder, fsync, rename.

A reader sees the old file or the new one, never a torn one. A write that
expected some content first checks that the file still holds it, so a hand
edit made since it was read is never overwritten.
"""
from __future__ import annotations

import contextlib
import errno
import os
import tempfile

# The most any file of ours is read to: far above any memory file, far below a /dev/zero.
MAX_READ = 32 << 20


class Changed(Exception):
    """The file is not what the writer read: someone edited it meanwhile."""


def read_or_none(path: str, limit: int = MAX_READ) -> bytes | None:
    """The bytes of a regular file of at most `limit` bytes; None when there is no file.

    Anything else is an OSError whose `strerror` says what is wrong: a directory, a FIFO or a
    device (a link to /dev/zero, say) is "not a regular file", and a bigger file is refused
    rather than read into memory. O_NONBLOCK keeps the open of a FIFO from waiting forever.
    """
    from chord_memory.paths import open_regular

    try:
        f = open_regular(path)
    except FileNotFoundError:
        return None
    with f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit:,} bytes", path)
    return data


def default_mode() -> int:
    """The mode a new file gets from the umask, as any program's file would (0644 usually)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def temp_copy(folder: str, data: bytes, mode: int | None) -> str:
    """A synced temporary file holding data, in folder (so a rename is atomic); its mode is
    ``mode``, or what the umask gives a new file."""
    os.makedirs(folder, exist_ok=True)
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".chord-", suffix=".tmp")
    except OSError as e:  # name the folder, not a temporary file that never came to be
        raise OSError(e.errno, e.strerror, folder) from None
    mode = default_mode() if mode is None else mode
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return tmp


def write(path: str, data: bytes) -> None:
    """Replace path with data atomically, keeping the file's permissions."""
    try:
        mode: int | None = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        mode = None
    tmp = temp_copy(os.path.dirname(path) or ".", data, mode)
    try:
        os.replace(tmp, path)
    except OSError as e:  # name the file that could not be written, not our temporary one
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise OSError(e.errno, e.strerror, path) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_if_unchanged(path: str, expected: bytes | None, data: bytes) -> None:
    """Write data unless the file differs from expected (None: the file must not exist)."""
    if os.path.islink(path):
        raise Changed(f"{path} is a symbolic link; it is not written through")
    if read_or_none(path) != expected:
        raise Changed(f"{path} changed since it was read")
    write(path, data)


def create_exclusive(path: str, data: bytes) -> bool:
    """Write a new file that must not exist yet (records are written once). False if it exists."""
    tmp = temp_copy(os.path.dirname(path) or ".", data, None)  # the umask's mode, not 0600
    try:
        os.link(tmp, path)  # fails when path exists: never replaces a record
    except FileExistsError:
        return False
    finally:
        os.unlink(tmp)
    return True
