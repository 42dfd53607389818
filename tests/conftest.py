"""Shared fixtures: isolated git repositories in tmp_path; nothing touches $HOME."""
from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import ROOT, add_examples, git, make_repo

_ISOLATED = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "Test Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.com",
    "GIT_TERMINAL_PROMPT": "0",
}


@pytest.fixture(autouse=True)
def _isolate(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    for key, value in _ISOLATED.items():
        monkeypatch.setenv(key, value)
    for key in list(os.environ):
        if key.startswith("GIT_") and key not in _ISOLATED and key != "GIT_EXEC_PATH":
            monkeypatch.delenv(key)
    monkeypatch.delenv("CI", raising=False)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty git repository, which is also the working directory."""
    r = make_repo(tmp_path / "repo")
    monkeypatch.chdir(r)
    return r


@pytest.fixture
def example_repo(repo: Path) -> Path:
    """A repository holding the example memory, committed."""
    add_examples(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    return repo


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """This checkout, uncommitted changes included, as a repository pre-commit can install.

    Like `pre-commit try-repo`: a clone with the working tree's files committed on top.
    """
    clone = tmp_path_factory.mktemp("hook-repo") / "chord-memory"
    env = {**os.environ, **_ISOLATED}
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)],
                   check=True, env=env, capture_output=True)
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
        capture_output=True, env=env,
    ).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = ROOT / rel
        dst = clone / rel
        if src.is_file():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
        elif dst.exists():
            dst.unlink()
    subprocess.run(["git", "add", "-A"], cwd=clone, check=True, env=env)
    subprocess.run(["git", "-c", "commit.gpgsign=false", "commit", "-qm", "try", "--allow-empty"],
                   cwd=clone, check=True, env=env, capture_output=True)
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=clone, check=True, env=env,
                         capture_output=True, text=True).stdout.strip()
    yield str(clone), rev


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One PRE_COMMIT_HOME for the session: the hook environment is built once."""
    return str(tmp_path_factory.mktemp("pre-commit-home"))


@pytest.fixture
def barrier(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A file the background worker waits for before it runs (queue.ENV_BARRIER): a test can
    see that a hook returned before the extraction it started."""
    from chord_memory.background import queue

    path = tmp_path / "barrier"
    monkeypatch.setenv(queue.ENV_BARRIER, str(path))
    return path
