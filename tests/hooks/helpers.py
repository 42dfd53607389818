"""Shared by the hook tests: enabled repositories, the worker's log, waiting without sleeping blind."""
from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from chord_memory import lock
from chord_memory.background import queue
from tests.helpers import cli, git

STATE = ".git/chord-memory"
FAST = "0.1"  # CHORD_MEMORY_DEBOUNCE for the tests: the debounce is real, just short


def enable(repo: Path) -> None:
    (repo / ".chord").mkdir(exist_ok=True)
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n  freeze_after: 0\n")


def install(repo: Path) -> None:
    done = cli("install", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr


def fast_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(queue.ENV_DEBOUNCE, FAST)


def first_commit(repo: Path) -> None:
    """A commit that triggers nothing (the hooks are skipped for it)."""
    (repo / "README").write_text("hello\n")
    git(repo, "add", "-A")
    done = skip_git(repo, "commit", "-qm", "first")
    assert done.returncode == 0, done.stdout + done.stderr


def skip_git(repo: Path, *args: str) -> object:
    import subprocess

    env = {**os.environ, "CHORD_MEMORY_SKIP": "1"}
    return subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=repo, env=env,
                          capture_output=True, text=True)


def log_lines(repo: Path) -> list[str]:
    try:
        return (repo / STATE / "extract.log").read_text().splitlines()
    except FileNotFoundError:
        return []


def runs(repo: Path) -> list[str]:
    """The worker's `run:` lines: one a coalesced run."""
    return [x for x in log_lines(repo) if "] run: " in x]


def done_runs(repo: Path) -> list[str]:
    return [x for x in log_lines(repo) if "] run done: " in x]


def wait_for(what: Callable[[], object], timeout: float = 30.0, message: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not what():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {message or what}")
        time.sleep(0.02)


def idle(repo: Path) -> bool:
    """No pending trigger, no claim, and no worker holding the lock."""
    state = str(repo / STATE)
    return not queue.keys(state) and lock.holder(state) is None


def settle(repo: Path, runs_expected: int, timeout: float = 30.0) -> None:
    """Wait for that many finished runs, then for the repository to be idle for a while."""
    wait_for(lambda: len(done_runs(repo)) >= runs_expected, timeout, f"{runs_expected} run(s)")
    quiet_since = time.monotonic()
    while time.monotonic() - quiet_since < 3 * float(FAST) + 0.5:
        if not idle(repo):
            quiet_since = time.monotonic()
        time.sleep(0.02)
