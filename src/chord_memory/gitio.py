"""Plain `git` calls: the staged tree, blob reads, first-commit history.

Foreground commands inherit git's environment on purpose: inside a pre-commit
hook GIT_INDEX_FILE names the index being committed (`git commit -a` uses a
temporary one). Background workers pass `clean_env()` instead.
"""
from __future__ import annotations

import os

from chord_memory.errors import UserError

TYPE_CHECKING = False  # the hooks' decision imports this module: keep `collections` off its path
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

# What a background process may keep of git's variables (pre-commit's no_git_env()).
_KEEP = {
    "GIT_EXEC_PATH", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSL_CAINFO", "GIT_SSL_NO_VERIFY",
    "GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_HTTP_PROXY_AUTHORIZATION",
}


def clean_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a git call that must not see the hook's GIT_* state."""
    source = os.environ if env is None else env
    out = {
        k: v for k, v in source.items()
        if not k.startswith("GIT_") or k in _KEEP
        or k.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"))
    }
    out["GIT_OPTIONAL_LOCKS"] = "0"
    return out


def git(
    root: str, *args: str, input: bytes | None = None,
    env: Mapping[str, str] | None = None, check: bool = True,
) -> bytes:
    import subprocess

    try:
        proc = subprocess.run(
            ("git", *args), cwd=root, input=input, env=env,
            capture_output=True,
        )
    except FileNotFoundError:
        raise UserError("git is not installed or not on PATH; install git to fix this.") from None
    if check and proc.returncode != 0:
        detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UserError(f"`git {args[0]}` failed: {detail[-1] if detail else proc.returncode}")
    return proc.stdout


class IndexEntry:
    __slots__ = ("mode", "path", "sha")

    def __init__(self, mode: str, sha: str, path: str) -> None:
        self.mode, self.sha, self.path = mode, sha, path


def staged_entries(root: str, pathspecs: Iterable[str]) -> dict[str, IndexEntry]:
    """path -> (mode, blob sha) for what the index holds under the pathspecs."""
    out = git(root, "ls-files", "-s", "-z", "--", *pathspecs)
    entries: dict[str, IndexEntry] = {}
    for item in out.split(b"\0"):
        if not item:
            continue
        meta, _, path = item.partition(b"\t")
        mode, sha, stage = meta.decode().split(" ")
        if stage not in ("0", "2"):  # during a conflicted merge take "ours"
            continue
        name = os.fsdecode(path)
        if stage == "2" or name not in entries:
            entries[name] = IndexEntry(mode, sha, name)
    return entries


def read_blobs(root: str, shas: Iterable[str]) -> dict[str, bytes]:
    """Contents of many blobs in one `git cat-file --batch` call."""
    wanted = list(dict.fromkeys(shas))
    if not wanted:
        return {}
    raw = git(root, "cat-file", "--batch", input=("\n".join(wanted) + "\n").encode())
    blobs: dict[str, bytes] = {}
    pos = 0
    for sha in wanted:
        header_end = raw.index(b"\n", pos)
        header = raw[pos:header_end].split()
        pos = header_end + 1
        if len(header) < 3 or header[1] == b"missing":
            continue
        size = int(header[2])
        blobs[sha] = raw[pos:pos + size]
        pos += size + 1
    return blobs


def blob_sizes(root: str, shas: Iterable[str]) -> dict[str, int]:
    wanted = list(dict.fromkeys(shas))
    if not wanted:
        return {}
    raw = git(root, "cat-file", "--batch-check", input=("\n".join(wanted) + "\n").encode())
    sizes: dict[str, int] = {}
    for line in raw.decode().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] != "missing":
            sizes[parts[0]] = int(parts[2])
    return sizes


def first_added_blobs(root: str, folder: str) -> dict[str, str]:
    """path -> blob sha of the version with which each file under folder was first committed."""
    out = git(
        root, "log", "--reverse", "--diff-filter=A", "--no-renames", "--raw", "--no-abbrev",
        "-z", "--format=", "--", folder, check=False,
    )
    first: dict[str, str] = {}
    fields = out.split(b"\0")
    i = 0
    while i < len(fields) - 1:
        meta = fields[i].strip()
        if not meta.startswith(b":"):
            i += 1
            continue
        parts = meta.split()
        path = os.fsdecode(fields[i + 1])
        first.setdefault(path, parts[3].decode())
        i += 2
    return first


def blob_sha(data: bytes) -> str:
    """git's id of a blob with this content (the key of every content-keyed cache)."""
    # CPython's built-in SHA-1 imports in 0.4 ms where hashlib (OpenSSL) takes 4 ms, which
    # matters to a hook hashing a few small files; OpenSSL is 6x faster on large ones.
    try:
        if len(data) > 1 << 18:
            raise ImportError
        from _sha1 import sha1  # type: ignore[import-not-found]
    except ImportError:
        from hashlib import sha1
    digest: str = sha1(b"blob %d\0" % len(data) + data).hexdigest()
    return digest


# -- the state of a git operation (the background decision and worker ask) ------------------

_BUSY = (("rebase-merge", "rebase"), ("rebase-apply", "rebase"), ("MERGE_HEAD", "merge"),
         ("sequencer", "cherry-pick"), ("CHERRY_PICK_HEAD", "cherry-pick"),
         ("REVERT_HEAD", "revert"), ("BISECT_LOG", "bisect"))


def in_progress(git_dir: str) -> str | None:
    """Which multi-step operation is under way in this work tree, if any (the worker waits)."""
    for name, what in _BUSY:
        if os.path.lexists(os.path.join(git_dir, name)):
            return what
    return None


def todo_count(path: str) -> int:
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return 0
    return sum(1 for x in head.splitlines() if x.strip() and not x.startswith(b"#"))


def more_events_follow(git_dir: str, event: str) -> str | None:
    """The operation whose later event will trigger instead of this one, or None.

    post-rewrite (rebase, amend) and post-merge are the last events of their
    operation even though git still shows its state then. During a rebase,
    post-checkout and post-commit are followed by post-rewrite; during a
    cherry-pick or revert of several commits, every post-commit but the last
    (the sequencer's todo then holds one command: the current one).
    """
    if event in ("post-rewrite", "post-merge"):
        return None
    exists = os.path.lexists
    if exists(os.path.join(git_dir, "rebase-merge")) or exists(os.path.join(git_dir, "rebase-apply")):
        return "rebase" if will_run(git_dir, "post-rewrite") else None
    if exists(os.path.join(git_dir, "MERGE_HEAD")):
        return "merge" if will_run(git_dir, "post-merge") else None
    if event == "post-checkout" and exists(os.path.join(git_dir, "BISECT_LOG")):
        return "bisect"
    if todo_count(os.path.join(git_dir, "sequencer", "todo")) > 1:
        return "cherry-pick"
    return None


def will_run(git_dir: str, hook: str) -> bool:
    """False when git has no `hook` to run (a pre-commit config that does not install
    post-rewrite, say): then nothing later would trigger, and this event must.

    Only asked during a rebase or merge, so the git call is off the common path. When git
    cannot say, the later event is assumed to come, as before this check.
    """
    import subprocess

    try:
        done = subprocess.run(["git", "--git-dir", git_dir, "rev-parse", "--git-path", f"hooks/{hook}"],
                              capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return True
    if done.returncode != 0:
        return True
    path = done.stdout.strip()
    return os.access(path if os.path.isabs(path) else os.path.join(os.getcwd(), path), os.X_OK)
