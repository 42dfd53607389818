"""Atomic writes: a temporary file in the same folder, fsync, rename.

A reader sees the old file or the new one, never a torn one. A write that
expected some content first checks that the file still holds it, so a hand
edit made since it was read is never overwritten.
"""
from __future__ import annotations

import contextlib
import os
import tempfile


class Changed(Exception):
    """The file is not what the writer read: someone edited it meanwhile."""


def read_or_none(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def _temp_copy(folder: str, data: bytes, mode: int | None) -> str:
    """A synced temporary file holding data, in folder (so a rename is atomic)."""
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".chord-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return tmp


def write(path: str, data: bytes) -> None:
    """Replace path with data atomically, keeping the file's permissions."""
    try:
        mode = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    tmp = _temp_copy(os.path.dirname(path) or ".", data, mode)
    try:
        os.replace(tmp, path)
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
    tmp = _temp_copy(os.path.dirname(path) or ".", data, None)
    try:
        os.link(tmp, path)  # fails when path exists: never replaces a record
    except FileExistsError:
        return False
    finally:
        os.unlink(tmp)
    return True
