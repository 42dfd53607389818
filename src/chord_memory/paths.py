"""Where things are. Every path the tool writes into memory is root-relative."""
from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; every hook imports this module
if TYPE_CHECKING:
    from typing import BinaryIO

MEMORY_MD = "MEMORY.md"
MEMORY_DIR = ".chord/memory"
RECORDS_DIR = ".chord/memory/records"
PROMOTIONS_DIR = ".chord/memory/promotions"
LEARNINGS_DIR = ".chord/memory/learnings"
PROJECT_CONFIG = ".chord/config.yaml"
NOTES_DIR = ".chord/notes"
STATE_NAME = "chord-memory"


MAX_MEMORY_MD = 8 << 20   # a larger MEMORY.md is reported, not read
MAX_RECORD = 1 << 20      # a larger record is reported by size, not read


def open_regular(path: str, follow: bool = True) -> BinaryIO:
    """open(path, "rb"), for a regular file only: a FIFO where a file belongs must not hang a
    command, nor a link to /dev/zero feed it forever. Anything else is an OSError whose
    strerror says "not a regular file"; with follow=False a link is one too (ELOOP)."""
    import errno
    import stat

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | (0 if follow else getattr(os, "O_NOFOLLOW", 0))
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def read_record(root: str, name: str) -> bytes | None:
    """A record's bytes (at most MAX_RECORD + 1, so the caller sees it is too big); None when it
    is missing, a link, a FIFO or anything else that is not a regular file."""
    try:
        with open_regular(os.path.join(root, record_path(name)), follow=False) as f:
            return f.read(MAX_RECORD + 1)
    except OSError:
        return None


def find_root(start: str | None = None) -> str:
    """The work tree's top: the nearest folder holding `.git`, else the start folder."""
    here = os.path.abspath(start or os.getcwd())
    probe = here
    while True:
        if os.path.lexists(os.path.join(probe, ".git")):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            if all(os.path.exists(os.path.join(here, n)) for n in ("HEAD", "objects", "refs")):
                from chord_memory.errors import UserError

                raise UserError("this is a git folder without a working tree (a bare repository); "
                                "run chord-memory in a clone that has one")
            return here
        probe = parent


def git_dir(root: str) -> str | None:
    """The repository's git folder, following a `.git` file (worktrees, submodules)."""
    dot_git = os.path.join(root, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    try:
        with open(dot_git, encoding="utf-8") as f:
            first = f.readline().strip()
    except OSError:
        return None
    if not first.startswith("gitdir:"):
        return None
    return os.path.normpath(os.path.join(root, first[len("gitdir:"):].strip()))


def common_dir(root: str) -> str | None:
    """The folder shared by all worktrees of the repository (git rev-parse --git-common-dir)."""
    gd = git_dir(root)
    if gd is None:
        return None
    try:
        with open(os.path.join(gd, "commondir"), encoding="utf-8") as f:
            return os.path.normpath(os.path.join(gd, f.read().strip()))
    except OSError:
        return gd


def state_dir(root: str) -> str | None:
    """`<git-common-dir>/chord-memory`: local state that is never committed."""
    cd = common_dir(root)
    return os.path.join(cd, STATE_NAME) if cd else None


def user_config_path(env: dict[str, str] | None = None) -> str:
    env = dict(os.environ) if env is None else env
    base = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".config")
    return os.path.join(base, "chord", "config.yaml")


def record_path(record_id: str) -> str:
    return f"{RECORDS_DIR}/{record_id}.md"


def inside(root: str, path: str) -> bool:
    """Whether path, links resolved, stays in the work tree at root."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root + os.sep)


LINKED_MEMORY_MD = "MEMORY.md: is a symbolic link; it is not followed (replace it with a regular file)"


def unsafe(root: str) -> str | None:
    """Why summary and recall must not read this memory, as `check` would say it; None when fine.

    MEMORY.md must be a regular file (a link is CM309, in the working tree and when staged), and
    the records folder must not lead out of the repository (its records are CM201 then). Here
    rather than in snapshot.py: recall and summary call it first, and must not import typing.
    """
    if os.path.islink(os.path.join(root, MEMORY_MD)):
        return LINKED_MEMORY_MD
    folder = os.path.join(root, RECORDS_DIR)
    if os.path.lexists(folder) and not inside(root, folder):
        return (f"{RECORDS_DIR}: leads out of the repository through a symbolic link; it is "
                "not followed (make it a regular folder)")
    return None

