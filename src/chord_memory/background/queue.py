"""The pending triggers: one file per work tree, claimed by a run, never lost.

A trigger is one line appended to `<git-common-dir>/chord-memory/pending/<worktree>`:

    <time_ns> <event> <pid to wait for, 0 if none> <work tree root>

The worker renames the file to `<worktree>.run` before it runs (a claim) and
removes the claim once the run is over, so a trigger that arrives during a run
starts a new file and is never lost, and a claim left by a worker that died is
taken over by the next one (newer triggers of the same work tree replace its
lines: same root, same run). Many triggers in one file are one run (coalescing).

A session that ended (Claude Code's SessionEnd hook) is marked in
`<git-common-dir>/chord-memory/ended/<digest of its transcript's path>`: the file holds the
path, its mtime is when the session ended. A run reads such a transcript at once instead of
waiting for `memory.freeze_after`, as long as it has not changed since (a resumed session
waits again). Markers older than a day, or beyond the newest ENDED_MAX, are removed.

The hook's parent process imports this module (start.py starts the worker): the top level uses `os`, `sys`
and `time` only; everything else is imported inside the functions that need it.
"""
from __future__ import annotations

import os
import time

PENDING = "pending"
CLAIM = ".run"
DEBOUNCE = 1.0          # seconds without a new trigger before a run starts
SETTLE_MAX = 30.0       # a storm of triggers delays a run by this much at most
WAIT_MAX = 60.0         # longest wait for a hook's parent or a git command's index.lock
BARRIER_MAX = 120.0
ENDED = "ended"
ENDED_MAX = 256
ENDED_AGE = 86400.0     # seconds a marker is kept (freeze_after has long passed by then)
ENV_DEBOUNCE = "CHORD_MEMORY_DEBOUNCE"
ENV_BARRIER = "CHORD_MEMORY_TEST_BARRIER"


class Mark:
    """What a pending file says: where to run, which events, which processes to wait for."""

    __slots__ = ("events", "pids", "root")

    def __init__(self, root: str, events: list[str], pids: list[int]) -> None:
        self.root, self.events, self.pids = root, events, pids


def worktree_key(git_dir: str, common_dir: str) -> str:
    """One pending file per work tree: `main`, or `wt-<name>` for a linked work tree."""
    if os.path.normpath(git_dir) == os.path.normpath(common_dir):
        return "main"
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in os.path.basename(git_dir))
    return f"wt-{name}"


def _folder(state: str) -> str:
    return os.path.join(state, PENDING)


def append(state: str, key: str, event: str, wait_pid: int, root: str) -> None:
    """Record one trigger (O_APPEND: concurrent triggers never interleave a line)."""
    folder = _folder(state)
    os.makedirs(folder, exist_ok=True)
    line = f"{time.time_ns()} {event} {wait_pid} {root}\n".encode()
    fd = os.open(os.path.join(folder, key), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def mark_ended(state: str, transcript: str) -> None:
    """Mark the transcript of a session that has ended (written whole, then renamed in)."""
    from chord_memory.gitio import blob_sha

    folder = os.path.join(state, ENDED)
    os.makedirs(folder, exist_ok=True)
    real = os.path.realpath(transcript)
    path = os.path.join(folder, blob_sha(os.fsencode(real)))
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(os.fsencode(real))
    os.replace(tmp, path)
    _prune_ended(folder)


def ended(state: str) -> dict[str, float]:
    """{real path of an ended session's transcript: when it ended (seconds)}."""
    folder = os.path.join(state, ENDED)
    out: dict[str, float] = {}
    try:
        names = os.listdir(folder)
    except OSError:
        return out
    for name in names:
        if name.endswith(".tmp"):
            continue
        try:
            with open(os.path.join(folder, name), "rb") as f:
                out[os.fsdecode(f.read(4096))] = os.fstat(f.fileno()).st_mtime
        except OSError:
            continue
    return out


def _prune_ended(folder: str) -> None:
    import contextlib

    marks = []
    for name in os.listdir(folder):
        try:
            marks.append((os.stat(os.path.join(folder, name)).st_mtime, name))
        except OSError:
            continue
    marks.sort(reverse=True)
    now = time.time()
    for i, (at, name) in enumerate(marks):
        if i >= ENDED_MAX or now - at > ENDED_AGE:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, name))


def keys(state: str) -> list[str]:
    """Work trees with a pending trigger or an unfinished claim, oldest name first."""
    try:
        names = os.listdir(_folder(state))
    except OSError:
        return []
    found = {n.removesuffix(CLAIM) for n in names if not n.startswith(".")}
    return sorted(found)


def stamp(state: str, key: str) -> int:
    """Changes whenever a trigger is added for key: the pending file's mtime (0 if none)."""
    for name in (key, key + CLAIM):
        try:
            return os.stat(os.path.join(_folder(state), name)).st_mtime_ns
        except OSError:
            continue
    return 0


def read(path: str) -> Mark | None:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    root, events, pids = "", [], []
    for raw in data.decode("utf-8", "surrogateescape").splitlines():
        parts = raw.split(" ", 3)
        if len(parts) != 4 or not parts[2].isdigit():
            continue  # a torn or foreign line: ignore it
        events.append(parts[1])
        if int(parts[2]) > 0:
            pids.append(int(parts[2]))
        root = parts[3]
    return Mark(root, events, pids) if root else None


def peek(state: str, key: str) -> Mark | None:
    """The pending triggers of key, or the stale claim of a worker that died."""
    folder = _folder(state)
    return read(os.path.join(folder, key)) or read(os.path.join(folder, key + CLAIM))


def claim(state: str, key: str) -> Mark | None:
    """Take the pending triggers of key for this run (a rename: triggers after it start anew)."""
    import contextlib

    base = os.path.join(_folder(state), key)
    with contextlib.suppress(FileNotFoundError):  # nothing new: maybe a stale claim to finish
        os.replace(base, base + CLAIM)
    return read(base + CLAIM)


def release(state: str, key: str) -> None:
    """The claimed run is over (successfully or with its failure recorded in the status)."""
    import contextlib

    with contextlib.suppress(FileNotFoundError):
        os.unlink(os.path.join(_folder(state), key + CLAIM))


def waiting(state: str, deferred: dict[str, int]) -> list[str]:
    """Keys with work a worker should do now: everything not deferred since its last trigger."""
    return [k for k in keys(state) if deferred.get(k) != stamp(state, k)]


# -- the worker's waits -----------------------------------------------------------------------

def debounce() -> float:
    try:
        return max(0.0, float(os.environ.get(ENV_DEBOUNCE, DEBOUNCE)))
    except ValueError:
        return DEBOUNCE


def _alive(pid: int) -> bool:
    """Whether pid still runs (a zombie nobody reaped has exited: it counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True


def settle(state: str, key: str, quiet: float) -> Mark | None:
    """Wait until key had no trigger for `quiet` seconds, and the processes it names are gone.

    The processes are the hooks' parents under pre-commit: pre-commit stashes
    unstaged changes around post-commit hooks and restores them when its hooks
    are done, so the working tree is the user's again once it has exited.
    """
    start = time.monotonic()
    path = os.path.join(_folder(state), key)
    while time.monotonic() - start < SETTLE_MAX:
        try:
            age = time.time() - os.stat(path).st_mtime
        except OSError:
            break
        if age >= quiet:
            break
        time.sleep(min(quiet - age, 0.1) + 0.005)
    mark = peek(state, key)
    if mark is None:
        return None
    deadline = time.monotonic() + WAIT_MAX
    for pid in mark.pids:
        while _alive(pid) and time.monotonic() < deadline and pid != os.getpid():
            time.sleep(0.05)
    return mark


def barrier() -> None:
    """Test seam: with CHORD_MEMORY_TEST_BARRIER=<path>, a claimed run waits for that file.

    The tests use it to hold a worker at a known point (after the claim, before
    the pipeline) while they look at git and at the worker. Unset in real use.
    """
    path = os.environ.get(ENV_BARRIER)
    deadline = time.monotonic() + BARRIER_MAX
    while path and not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.02)
