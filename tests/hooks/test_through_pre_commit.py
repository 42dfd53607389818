"""The chord-memory-extract hook through the real pre-commit framework and real git."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from chord_memory import lock
from chord_memory.background import queue
from tests.helpers import ROOT, git
from tests.hooks.helpers import STATE, enable, fast_worker, log_lines, runs, settle, wait_for
from tests.sessions import ClaudeSession

pytestmark = pytest.mark.slow
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]
SAYS = "Always run the linters with make lint before you hand work back."


def test_manifest_entry() -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    extract = hooks["chord-memory-extract"]
    assert extract["always_run"] is True and extract["pass_filenames"] is False
    assert extract["stages"] == ["post-commit", "post-checkout", "post-merge", "post-rewrite"]
    assert "chord-memory-check" in hooks


@pytest.fixture
def hooked(repo: Path, hook_repo: tuple[str, str], pre_commit_home: str,
           monkeypatch: pytest.MonkeyPatch) -> Path:
    url, rev = hook_repo
    monkeypatch.setenv("PRE_COMMIT_HOME", pre_commit_home)
    fast_worker(monkeypatch)
    (repo / ".pre-commit-config.yaml").write_text(
        "default_install_hook_types: [pre-commit, post-commit, post-checkout]\n"
        f"repos:\n- repo: {url}\n  rev: {rev}\n  hooks:\n"
        "  - id: chord-memory-check\n  - id: chord-memory-extract\n")
    subprocess.run([*PRE_COMMIT, "install"], cwd=repo, check=True, capture_output=True)
    enable(repo)
    (repo / "MEMORY.md").write_text("# Ours\n\n<!-- chord-memory:begin -->\n<!-- chord-memory:end -->\n")
    git(repo, "add", "-A")
    first = commit(repo, "setup", env={"CHORD_MEMORY_SKIP": "1"})
    assert first.returncode == 0, first.stdout + first.stderr
    return repo


def commit(repo: Path, message: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(["git", "-c", "commit.gpgsign=false", "commit", "--allow-empty", "-m", message],
                          cwd=repo, capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def test_commit_returns_while_the_worker_still_waits(
    hooked: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    barrier = tmp_path / "barrier"
    monkeypatch.setenv(queue.ENV_BARRIER, str(barrier))
    ClaudeSession(hooked).user(SAYS)
    done = commit(hooked, "a")
    assert done.returncode == 0, done.stdout + done.stderr
    claim = hooked / STATE / "pending/main.run"
    wait_for(claim.exists, message="the worker's claim")
    assert lock.holder(str(hooked / STATE)) is not None and not barrier.exists()
    mark = queue.read(str(claim))
    assert mark is not None and mark.events == ["post-commit"]
    assert mark.pids and mark.pids[0] > 0  # pre-commit's process: its stash window is waited out
    barrier.touch()
    settle(hooked, 1)
    assert "make lint" in (hooked / "MEMORY.md").read_text()


def test_post_checkout_triggers_and_a_file_checkout_does_not(hooked: Path) -> None:
    ClaudeSession(hooked).user(SAYS)
    assert commit(hooked, "two", env={"CHORD_MEMORY_SKIP": "1"}).returncode == 0
    moved = git(hooked, "checkout", "-q", "HEAD~1", check=False)
    assert moved.returncode == 0, moved.stderr
    settle(hooked, 1)
    assert len(runs(hooked)) == 1 and "post-checkout x1" in runs(hooked)[0], log_lines(hooked)
    assert git(hooked, "checkout", "-q", "--", "MEMORY.md", check=False).returncode == 0
    settle(hooked, 1)
    assert len(runs(hooked)) == 1


def test_unstaged_edits_survive_pre_commits_stash(hooked: Path) -> None:
    memory = hooked / "MEMORY.md"
    memory.write_text(memory.read_text().replace("# Ours\n", "# Ours, edited and not staged\n"))
    ClaudeSession(hooked).user(SAYS)
    done = commit(hooked, "b")
    assert done.returncode == 0, done.stdout + done.stderr
    settle(hooked, 1)
    text = memory.read_text()
    assert text.startswith("# Ours, edited and not staged\n") and "make lint" in text
