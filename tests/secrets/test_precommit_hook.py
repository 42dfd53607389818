"""The blocking hook through real pre-commit: this checkout's `chord-memory-secrets` hook."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import git
from tests.secrets.examples import samples

pytestmark = pytest.mark.slow
TOKEN = samples()["github-token"]
RECORD = ".chord/memory/records/20261129-ci-token-3f9a1c.md"


@pytest.fixture
def hooked(repo: Path, hook_repo: tuple[str, str], pre_commit_home: str,
           monkeypatch: pytest.MonkeyPatch) -> Path:
    url, rev = hook_repo
    monkeypatch.setenv("PRE_COMMIT_HOME", pre_commit_home)
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {url}\n  rev: {rev}\n  hooks:\n  - id: chord-memory-secrets\n")
    subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=repo, check=True,
                   capture_output=True)
    (repo / "MEMORY.md").write_text("# Memory\n")
    git(repo, "add", "-A")
    assert commit(repo, "start").returncode == 0
    return repo


def commit(repo: Path, message: str) -> subprocess.CompletedProcess[str]:
    return git(repo, "commit", "--no-gpg-sign", "-m", message, check=False)


def stage_record(repo: Path, body: str) -> None:
    path = repo / RECORD
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nid: 20261129-ci-token-3f9a1c\n---\n## Conclusion\n{body}\n")
    git(repo, "add", RECORD)


def test_record_with_a_secret_is_refused(hooked: Path) -> None:
    stage_record(hooked, f"CI pushes with {TOKEN}.")
    refused = commit(hooked, "leak")
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0
    assert f"{RECORD}:5:16: CM601 github-token secret (ghp_…)" in output
    assert TOKEN not in output
    assert git(hooked, "log", "--format=%s").stdout.split() == ["start"]


def test_pragma_lets_it_through(hooked: Path) -> None:
    stage_record(hooked, f"CI pushes with {TOKEN}. <!-- pragma: allowlist secret -->")
    done = commit(hooked, "allowed")
    assert done.returncode == 0, done.stdout + done.stderr


def test_only_the_staged_content_counts(hooked: Path) -> None:
    stage_record(hooked, "CI pushes with the deploy key from the vault.")
    (hooked / "MEMORY.md").write_text(f"# Memory\n{TOKEN}\n")  # not staged
    done = commit(hooked, "clean")
    assert done.returncode == 0, done.stdout + done.stderr
