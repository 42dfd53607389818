"""Starting the extraction worker, detached from git and from the hook that asked.

The hook's parent imports this module: the top level uses `os` and `sys` only.
"""
from __future__ import annotations

import os
import sys

from chord_memory.background import queue

TYPE_CHECKING = False  # typing costs 10 ms to import; mypy treats this name as True
if TYPE_CHECKING:
    from collections.abc import Callable

PROBE_PATIENCE = 0.3    # another probe holds the lock for microseconds; a worker for long
LOG_NAME = "extract.log"  # status.LOG_NAME, without importing status (json) in the hook's child
WORKER = ("-m", "chord_memory.background.worker")  # the background worker (background/worker.py)


def worker_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """git's hook variables dropped (pre-commit's no_git_env()), GIT_OPTIONAL_LOCKS=0."""
    from chord_memory.gitio import clean_env

    return clean_env(os.environ if env is None else env)


def start(root: str, state: str, key: str, event: str, wait_pid: int, check_enabled: bool,
          ended: str = "") -> None:
    """Fork; the child records the trigger and, if no worker holds the lock, becomes one.

    The parent returns at once. The child leaves git's session and its pipes
    (new session; stdin, stdout and stderr on /dev/null, then stdout and stderr
    on the log once there is something to log) before it does anything else, so
    neither pre-commit nor a caller capturing `git commit` output waits for it.
    `ended` names the transcript of a session that has ended (Claude Code's SessionEnd):
    the child marks it, so the run reads it without waiting for `memory.freeze_after`.
    """
    _fork(root, state, lambda: _trigger(root, state, key, event, wait_pid, check_enabled, ended))


def start_worker(root: str, state: str) -> None:
    """Start a detached worker for triggers already recorded (after a run held the lock)."""
    _fork(root, state, lambda: _exec_worker(state))


def _fork(root: str, state: str, then: Callable[[], None]) -> None:
    if os.fork() != 0:
        return
    code = 0
    try:
        _detach(root)
        then()
    except BaseException as e:  # never back into the caller's code in a forked child
        code = 1
        try:
            _log_to(state)
            os.write(2, f"chord-memory: the trigger failed: {type(e).__name__}: {e}\n".encode())
        except BaseException:
            pass
    os._exit(code)


def _detach(root: str) -> None:
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(3, _max_fd())
    os.chdir(root)


def _log_to(state: str) -> None:
    os.makedirs(state, exist_ok=True)
    log = os.open(os.path.join(state, LOG_NAME), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)


def _max_fd() -> int:
    try:
        return min(int(os.sysconf("SC_OPEN_MAX")), 1 << 16)
    except (OSError, ValueError):
        return 4096


def _trigger(root: str, state: str, key: str, event: str, wait_pid: int, check_enabled: bool,
             ended: str = "") -> None:
    if check_enabled:
        from chord_memory import settings
        from chord_memory.errors import UserError

        try:
            if not settings.load(root).enabled:
                return
        except UserError:
            return  # `chord-memory status` reports a configuration error itself
    if ended:
        queue.mark_ended(state, ended)
    queue.append(state, key, event, wait_pid, root)
    _exec_worker(state)


def _exec_worker(state: str) -> None:
    from chord_memory import lock

    if not lock.is_free(state, PROBE_PATIENCE):
        return  # the worker holding the lock checks the pending files before and after it releases
    _log_to(state)
    os.execve(sys.executable, [sys.executable, *WORKER], worker_env())
