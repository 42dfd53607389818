"""Real `git commit`, `git checkout` and `git rebase` through the hooks `chord-memory install` writes."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from chord_memory import lock
from chord_memory.background import queue
from tests.helpers import cli, git
from tests.hooks.helpers import (
    STATE,
    done_runs,
    enable,
    fast_worker,
    first_commit,
    install,
    log_lines,
    runs,
    settle,
    skip_git,
    wait_for,
)
from tests.sessions import ClaudeSession

REC = ".chord/memory/records"
SAYS = "Always run the linters with make lint before you hand work back."
ON_LINUX = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reads /proc")


@pytest.fixture
def hooked(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    fast_worker(monkeypatch)
    install(repo)
    enable(repo)
    first_commit(repo)
    return repo


def commit(repo: Path, name: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """`git commit` with its output captured, as agent harnesses and IDEs run it."""
    (repo / name).write_text(f"{name}\n")
    git(repo, "add", name)
    return subprocess.run(["git", "-c", "commit.gpgsign=false", "commit", "-m", name, *extra],
                          cwd=repo, capture_output=True, text=True, timeout=60)


def records(repo: Path) -> list[str]:
    folder = repo / REC
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def blocked_worker(repo: Path) -> int:
    """The pid of the worker waiting at the barrier (it has claimed its triggers)."""
    state = repo / STATE
    wait_for(lambda: (state / "pending/main.run").exists(), message="the worker's claim")
    pid = lock.holder(str(state))
    assert pid is not None
    return pid


def test_commit_returns_while_the_worker_still_waits(hooked: Path, barrier: Path) -> None:
    ClaudeSession(hooked).user(SAYS)
    done = commit(hooked, "a")
    assert done.returncode == 0, done.stdout + done.stderr
    pid = blocked_worker(hooked)  # the commit returned first: the worker has not run yet
    assert not barrier.exists() and records(hooked) == []
    assert os.getsid(pid) == pid  # a session of its own: no terminal, no job control
    barrier.touch()
    settle(hooked, 1)
    assert len(records(hooked)) == 1
    assert cli("status", cwd=hooked).stdout == "MEMORY\n"


@ON_LINUX
def test_the_worker_has_a_clean_environment_and_leaves_git_alone(hooked: Path, barrier: Path) -> None:
    ClaudeSession(hooked).user(SAYS)
    (hooked / "README").write_text("changed\n")
    done = commit(hooked, "b", "-a")  # -a: git gives its hooks a GIT_INDEX_FILE
    assert done.returncode == 0, done.stderr
    pid = blocked_worker(hooked)
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    env = dict(x.decode().split("=", 1) for x in raw if b"=" in x)
    for name in ("GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE", "GIT_PREFIX", "GIT_AUTHOR_DATE",
                 "GIT_EDITOR"):
        assert name not in env, name
    assert env["GIT_OPTIONAL_LOCKS"] == "0"
    assert os.readlink(f"/proc/{pid}/cwd") == str(hooked)
    assert os.readlink(f"/proc/{pid}/fd/0") == os.devnull
    assert os.readlink(f"/proc/{pid}/fd/1") == str(hooked / STATE / "extract.log")
    for name in "cdef":  # the user goes on committing while the worker holds the lock
        assert commit(hooked, name).returncode == 0
    barrier.touch()
    for name in "ghij":  # ...and while it runs
        again = commit(hooked, name)
        assert again.returncode == 0 and "index.lock" not in again.stderr, again.stderr
    settle(hooked, 2)


def test_a_crashing_worker_fails_no_git_command_and_says_why(hooked: Path) -> None:
    (hooked / STATE).mkdir(exist_ok=True)
    (hooked / STATE / "ledger.json").mkdir()  # the ledger cannot be written: a crash
    ClaudeSession(hooked).user(SAYS)
    assert commit(hooked, "a").returncode == 0
    wait_for(lambda: "Is a directory" in cli("status", cwd=hooked).stdout, message="the failure in status")
    status = cli("status", cwd=hooked).stdout  # an OSError is a failed run, not a crash
    assert status.startswith("MEMORY-FAIL: .git/chord-memory/ledger.json: Is a directory"), status
    assert "crash" not in status and ".chord-" not in status
    assert "\n" not in status.rstrip("\n")
    moved = git(hooked, "checkout", "-q", "HEAD~1", check=False)  # post-checkout: its status is git's
    assert moved.returncode == 0, moved.stderr
    wait_for(lambda: queue.keys(str(hooked / STATE)) == ["main"] and lock.holder(str(hooked / STATE))
             is None, message="the failed claim kept")
    (hooked / STATE / "ledger.json").rmdir()
    assert git(hooked, "checkout", "-q", "main", check=False).returncode == 0
    wait_for(lambda: cli("status", cwd=hooked).stdout == "MEMORY\n", message="recovery")
    wait_for(lambda: len(records(hooked)) == 1, message="the record")


def test_a_failing_worker_reports_in_status(hooked: Path) -> None:
    broken = "<!-- chord-memory:begin -->\n- fact: broken\n"
    (hooked / "MEMORY.md").write_text(broken)
    ClaudeSession(hooked).user(SAYS)
    assert commit(hooked, "a").returncode == 0
    wait_for(lambda: any("MEMORY-FAIL: MEMORY.md:1: CM101" in x for x in log_lines(hooked)),
             message="the worker's failure in the log")
    assert cli("status", cwd=hooked).stdout.startswith("MEMORY-FAIL: MEMORY.md:1: CM101")
    assert (hooked / "MEMORY.md").read_text() == broken


def test_twenty_triggers_at_once(hooked: Path) -> None:
    for i in range(5):
        ClaudeSession(hooked, f"7f2c9a4e-0000-4000-8000-00000000010{i}").user(
            f"Remember that service number {i} is deployed with `make deploy-{i}` only.")
    hook = [sys.executable, "-m", "chord_memory.hook", "post-commit"]
    procs = [subprocess.Popen(hook, cwd=hooked, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(20)]
    for p in procs:
        out, err = p.communicate(timeout=30)
        assert p.returncode == 0 and out == err == b""
    def triggers_run() -> int:
        return sum(int(r.split("run: ")[1].split()[0]) for r in runs(hooked))

    wait_for(lambda: triggers_run() == 20, message="all twenty triggers in runs")  # none lost
    settle(hooked, 1)
    depth = 0
    for line in log_lines(hooked):  # at most one run at any moment
        depth += "] run: " in line
        depth -= "] run done: " in line
        assert depth in (0, 1), log_lines(hooked)
    assert len(records(hooked)) == 5  # every pending session...
    for i in range(5):  # ...extracted once
        sid = f"7f2c9a4e-0000-4000-8000-00000000010{i}"
        assert sum(f"claude-code:{sid}:" in x for x in log_lines(hooked)) == 1
    assert triggers_run() == 20 and len(runs(hooked)) < 20  # coalesced


def test_rebase_of_three_commits_is_one_run(hooked: Path) -> None:
    skip_git(hooked, "checkout", "-qb", "topic")
    for name in ("t1", "t2", "t3"):
        (hooked / name).write_text(name)
        git(hooked, "add", name)
        skip_git(hooked, "commit", "-qm", name)
    skip_git(hooked, "checkout", "-q", "main")
    (hooked / "m").write_text("m")
    git(hooked, "add", "m")
    skip_git(hooked, "commit", "-qm", "m")
    skip_git(hooked, "checkout", "-q", "topic")
    ClaudeSession(hooked).user(SAYS)
    done = subprocess.run(["git", "rebase", "main"], cwd=hooked, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    settle(hooked, 1)
    assert len(runs(hooked)) == 1 and "post-rewrite x1" in runs(hooked)[0], log_lines(hooked)
    assert len(records(hooked)) == 1


def test_a_rebase_without_a_post_rewrite_hook_still_runs(hooked: Path) -> None:
    """pre-commit installs only the hook types it is asked for: with no post-rewrite hook,
    the rebase's post-commits trigger instead of waiting for an event that never comes."""
    (hooked / ".git/hooks/post-rewrite").unlink()
    skip_git(hooked, "checkout", "-qb", "topic")
    skip_git(hooked, "commit", "-q", "--allow-empty", "-m", "t1")
    skip_git(hooked, "checkout", "-q", "main")
    skip_git(hooked, "commit", "-q", "--allow-empty", "-m", "m")
    skip_git(hooked, "checkout", "-q", "topic")
    ClaudeSession(hooked).user(SAYS)
    done = subprocess.run(["git", "rebase", "main"], cwd=hooked, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    wait_for(lambda: records(hooked), message="the rebase's extraction")
    assert len(records(hooked)) == 1


def test_a_killed_worker_is_recovered(hooked: Path, barrier: Path) -> None:
    ClaudeSession(hooked).user(SAYS)
    assert commit(hooked, "a").returncode == 0
    pid = blocked_worker(hooked)
    os.kill(pid, signal.SIGKILL)
    wait_for(lambda: lock.holder(str(hooked / STATE)) is None, message="the kernel to drop the lock")
    assert queue.keys(str(hooked / STATE)) == ["main"]  # its claim is still there
    barrier.touch()
    assert commit(hooked, "b").returncode == 0
    settle(hooked, 1)
    assert len(records(hooked)) == 1
    assert len(runs(hooked)) == len(done_runs(hooked)) == 1  # the killed one never logged a run


def test_skips_leave_no_trace(hooked: Path) -> None:
    ClaudeSession(hooked).user(SAYS)
    state = hooked / STATE
    assert commit(hooked, "a").returncode == 0
    settle(hooked, 1)
    before = log_lines(hooked)
    assert git(hooked, "checkout", "-q", "--", "a").returncode == 0       # file checkout
    assert git(hooked, "checkout", "-qb", "same-commit").returncode == 0  # HEAD did not move
    env = {**os.environ, "CHORD_MEMORY_SKIP": "1"}
    subprocess.run(["git", "commit", "-qm", "x", "--allow-empty"], cwd=hooked, env=env, check=True)
    env = {**os.environ, "CI": "true"}
    subprocess.run(["git", "commit", "-qm", "y", "--allow-empty"], cwd=hooked, env=env, check=True)
    assert queue.keys(str(state)) == [] and log_lines(hooked) == before


def test_a_merge_triggers_once_after_git_is_done(hooked: Path) -> None:
    skip_git(hooked, "checkout", "-qb", "side")
    skip_git(hooked, "commit", "-q", "--allow-empty", "-m", "side")
    skip_git(hooked, "checkout", "-q", "main")
    skip_git(hooked, "commit", "-q", "--allow-empty", "-m", "main")
    ClaudeSession(hooked).user(SAYS)
    merged = git(hooked, "merge", "-q", "--no-ff", "--no-edit", "side", check=False)
    assert merged.returncode == 0, merged.stderr
    settle(hooked, 1)
    assert len(runs(hooked)) == 1 and "post-merge x1" in runs(hooked)[0]
    assert len(records(hooked)) == 1


def test_a_linked_worktree_runs_in_its_own_tree(hooked: Path, tmp_path: Path) -> None:
    tree = tmp_path / "feature"
    skip_git(hooked, "worktree", "add", "-q", "-b", "feature", str(tree))
    enable(tree)
    ClaudeSession(tree).user(SAYS)
    assert commit(tree, "in-tree").returncode == 0
    settle(hooked, 1)  # one state folder (and lock) for the repository
    assert len(records(tree)) == 1 and records(hooked) == []
    assert "make lint" in (tree / "MEMORY.md").read_text()


def test_disabled_with_a_cold_cache_starts_nothing(repo: Path) -> None:
    (repo / ".chord").mkdir()
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: false\n")
    done = subprocess.run([sys.executable, "-m", "chord_memory.hook", "post-commit"], cwd=repo,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and done.stdout == done.stderr == ""
    cache = repo / STATE / "cache/settings.marshal"
    wait_for(cache.exists, message="the child to decide (and cache the settings)")
    done = subprocess.run([sys.executable, "-m", "chord_memory.hook", "post-commit"], cwd=repo,
                          capture_output=True, text=True, timeout=30)  # warm: decided before forking
    assert sorted(p.name for p in (repo / STATE).iterdir()) == ["cache"]
