"""Small marshal caches under `<git-common-dir>/chord-memory/cache/`.

Hooks start a new process on every commit; validating the configuration with
pydantic and parsing records with PyYAML each cost more than the whole hook
budget. Both results are pure functions of file contents, so they are cached
keyed by those contents (never by mtime) and by the code that computed them
(the version, and the size and mtime of every module of the package and its
subpackages, so an upgrade or an edited checkout never reads a stale result). A cache that cannot be read or
written is ignored: it only ever saves time.
"""
from __future__ import annotations

import marshal
import os
import stat

from chord_memory import __version__, paths

MAX_BYTES = 256 << 20  # 10,000 records cache in about 5 MB

TYPE_CHECKING = False  # the git hooks import this module: keep `typing` out of their way
if TYPE_CHECKING:
    from typing import Any


_CODE: list[str] = []  # _code() once per process: a command reads several caches


def _code() -> str:
    """The version, and what identifies the code: an installed copy's RECORD (pip rewrites it
    whenever it installs other files), or else, in a checkout, the size and mtime of every
    module and data file, subpackages included. An edit anywhere in the code that computed a
    result retires it."""
    if not _CODE:
        here = os.path.dirname(os.path.abspath(__file__))
        _CODE.append("|".join([__version__, *(_installed(here) or _checkout(here))]))
    return _CODE[0]


def _installed(here: str) -> list[str]:
    """The RECORD of the wheel this package was installed from, when it was (a pre-commit
    hook's environment): one stat instead of a walk over every module."""
    site = os.path.dirname(here)
    record = os.path.join(site, f"chord_memory-{__version__}.dist-info", "RECORD")
    try:
        st = os.stat(record)
    except OSError:
        return []
    if not os.path.exists(os.path.join(site, "chord_memory", "__init__.py")):
        return []
    return [f"RECORD:{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"]


def _checkout(here: str, rel: str = "") -> list[str]:
    parts = []
    with os.scandir(os.path.join(here, rel) if rel else here) as it:
        entries = sorted(it, key=lambda e: e.name)
    for entry in entries:
        if entry.name.endswith((".py", ".json", ".txt")) and entry.is_file():
            st = entry.stat()
            parts.append(f"{rel}{entry.name}:{st.st_size}:{st.st_mtime_ns}")
        elif entry.name != "__pycache__" and entry.is_dir(follow_symlinks=False):
            parts.extend(_checkout(here, f"{rel}{entry.name}/"))
    return parts


NOT_A_FILE = b"\0 not a regular file"  # a key no real file has: config.load then says what is wrong


def _small(path: str) -> bytes | None:
    """The first 256 KiB + 1 of a regular file; None when there is none; NOT_A_FILE otherwise
    (a folder or a FIFO where a config file belongs must be reported, never read or waited on)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError:
        return NOT_A_FILE
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return NOT_A_FILE
        return os.read(fd, 262145)
    except OSError:
        return NOT_A_FILE
    finally:
        os.close(fd)


def config_key(root: str) -> tuple[str, bytes | None, bytes | None]:
    """What the validated settings depend on: the user file's path and both files' bytes."""
    user_path = paths.user_config_path()
    return user_path, _small(user_path), _small(os.path.join(root, paths.PROJECT_CONFIG))


def _path(root: str, name: str) -> str | None:
    state = paths.state_dir(root)
    return os.path.join(state, "cache", f"{name}.marshal") if state else None


def load(root: str, name: str) -> Any:
    path = _path(root, name)
    if path is None:
        return None
    try:
        # Never through a link, never a FIFO or a device, never more than MAX_BYTES: a cache
        # linked to /dev/zero would otherwise hang every command that reads it.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return None
        with os.fdopen(fd, "rb") as f:
            data = f.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            return None
        # loads on the bytes, not load on the file: marshal.load reads a file object a few bytes
        # at a time, which made a 5 MB cache take 85 ms to load instead of 16.
        version, value = marshal.loads(data)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return value if version == _code() else None


def store(root: str, name: str, value: Any) -> None:
    path = _path(root, name)
    if path is None:
        return
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            marshal.dump((_code(), value), f)
        os.replace(tmp, path)
    except (OSError, ValueError):
        pass
