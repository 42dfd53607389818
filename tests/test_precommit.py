"""Through the real pre-commit framework: this checkout's manifest, installed as a git hook."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import REC, ROOT, add_examples, add_record, entry, git, set_region

pytestmark = pytest.mark.slow
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]


def test_manifest_validates() -> None:
    result = subprocess.run([*PRE_COMMIT, "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture
def hooked(repo: Path, hook_repo: tuple[str, str], pre_commit_home: str,
           monkeypatch: pytest.MonkeyPatch) -> Path:
    url, rev = hook_repo
    monkeypatch.setenv("PRE_COMMIT_HOME", pre_commit_home)
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {url}\n  rev: {rev}\n  hooks:\n  - id: chord-memory-check\n"
    )
    subprocess.run([*PRE_COMMIT, "install"], cwd=repo, check=True, capture_output=True)
    add_examples(repo)
    git(repo, "add", "-A")
    first = git(repo, "commit", "-m", "memory", check=False)
    assert first.returncode == 0, first.stdout + first.stderr
    return repo


def commit(repo: Path, message: str) -> subprocess.CompletedProcess[str]:
    return git(repo, "commit", "-m", message, check=False)


def test_dangling_entry_is_refused_then_fixed(hooked: Path) -> None:
    set_region(hooked, [entry("20261129-not-there-000000")])
    git(hooked, "add", "MEMORY.md")
    refused = commit(hooked, "dangling")
    assert refused.returncode != 0
    assert "CM201" in refused.stdout + refused.stderr
    add_record(hooked, "20261129-not-there-000000")
    git(hooked, "add", REC)
    fixed = commit(hooked, "fixed")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr


def test_untracked_record_does_not_satisfy_an_entry(hooked: Path) -> None:
    rid = "20261129-untracked-aaaaaa"
    src = next((hooked / REC).iterdir()).read_text()
    old_id = src.split("id: ", 1)[1].split("\n", 1)[0]
    (hooked / REC / f"{rid}.md").write_text(src.replace(old_id, rid))
    set_region(hooked, [entry(rid)])
    git(hooked, "add", "MEMORY.md")
    refused = commit(hooked, "entry only")
    assert refused.returncode != 0 and "CM201" in refused.stdout + refused.stderr
    assert f"git add {REC}/{rid}.md" in refused.stdout + refused.stderr
    git(hooked, "add", f"{REC}/{rid}.md")
    ok = commit(hooked, "with record")
    assert ok.returncode == 0, ok.stdout


def test_deleting_an_indexed_record_is_refused(hooked: Path) -> None:
    victim = sorted((hooked / REC).iterdir())[0]
    git(hooked, "rm", "-q", str(victim.relative_to(hooked)))
    refused = commit(hooked, "delete only")
    assert refused.returncode != 0
    out = refused.stdout + refused.stderr
    assert "CM201" in out
    assert os.path.basename(victim).removesuffix(".md") in out


def test_commit_all_checks_the_temporary_index(hooked: Path) -> None:
    set_region(hooked, [entry("20261129-not-there-000000")])
    refused = git(hooked, "commit", "-a", "-m", "all", check=False)
    assert refused.returncode != 0 and "CM201" in refused.stdout + refused.stderr


def test_the_readme_config_reports_a_secret_once(repo: Path, hook_repo: tuple[str, str],
                                                 pre_commit_home: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The config the README gives, as a user pastes it: a secret in a record stops the commit,
    reported by the secrets hook alone (one hook, one concern), while `check` still reports it."""
    import re

    url, rev = hook_repo
    monkeypatch.setenv("PRE_COMMIT_HOME", pre_commit_home)
    readme = (ROOT / "README.md").read_text()
    config = re.search(r"```yaml\n(default_install_hook_types:.*?)```", readme, re.S)
    assert config is not None
    text = re.sub(r"(?m)^- repo: \S+", f"- repo: {url}", config.group(1))
    (repo / ".pre-commit-config.yaml").write_text(re.sub(r"(?m)^  rev: \S+", f"  rev: {rev}", text))
    subprocess.run([*PRE_COMMIT, "install"], cwd=repo, check=True, capture_output=True)
    add_examples(repo)
    git(repo, "add", "-A")
    assert commit(repo, "memory").returncode == 0
    rid = "20261129-token-aaaaaa"
    token = "ghp_" + "R8sT2wY6bN9cF4hJ7mQ1xL5dG0aEk3vPz2uQ"
    add_record(repo, rid, conclusion=f"CI pushes with {token} on release.")
    set_region(repo, [entry(rid)])
    git(repo, "add", "-A")
    refused = commit(repo, "a secret")
    out = refused.stdout + refused.stderr
    assert refused.returncode != 0 and token not in out
    assert out.count("CM601 github-token secret (ghp_…)") == 1 and out.count(f"{REC}/{rid}.md:") == 1, out
    checked = subprocess.run([sys.executable, "-m", "chord_memory", "check", "--staged"], cwd=repo,
                             capture_output=True, text=True)
    assert checked.returncode == 1 and "CM601 github-token secret (ghp_…)" in checked.stdout
