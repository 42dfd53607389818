"""The caches only ever save time: a stale, corrupt or unwritable cache changes no result."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from chord_memory.cli import main
from tests.helpers import add_record, entry, index_with, set_region


def findings(capsys: pytest.CaptureFixture[str]) -> list[str]:
    main(["check", "--format", "json"])
    return [f["code"] for f in json.loads(capsys.readouterr().out)["findings"]]


def test_config_change_is_seen(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (example_repo / ".chord").mkdir(exist_ok=True)
    (example_repo / ".chord/config.yaml").write_text("memory: {limits: {summary_chars: 160}}\n")
    assert findings(capsys) == []
    (example_repo / ".chord/config.yaml").write_text("memory: {limits: {summary_chars: 40}}\n")
    assert set(findings(capsys)) == {"CM303"}


def test_corrupt_cache_is_ignored(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    add_record(example_repo, "20261129-long-aaaaaa", summary="s" * 200)
    set_region(example_repo, [entry("20261129-long-aaaaaa")])
    first = findings(capsys)
    cache_dir = example_repo / ".git/chord-memory/cache"
    for f in cache_dir.iterdir():
        f.write_bytes(b"\x00garbage")
    assert findings(capsys) == first == ["CM303"]
    main(["summary"])
    assert "20261129-long-aaaaaa" not in capsys.readouterr().out


def test_unwritable_state_is_fine(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = example_repo / ".git/chord-memory"
    state.write_text("not a folder")  # every cache write fails
    assert findings(capsys) == []
    assert main(["summary"]) == 0


def test_an_edit_in_a_subpackage_is_never_answered_from_the_old_cache(
    example_repo: Path, tmp_path: Path,
) -> None:
    """A copy of the package, a check that caches its scan, a new rule in secrets/providers.py:
    the next check finds what the new rule finds, as scan does (issue 14)."""
    import shutil
    import subprocess
    import sys

    import chord_memory

    code = tmp_path / "code"
    shutil.copytree(Path(chord_memory.__file__).parent, code / "chord_memory",
                    ignore=shutil.ignore_patterns("__pycache__"))
    token = "zqx_" + "Kp3vR8sT2wY6bN9cF4hJ7mQ1xL5dG0aE" + "u2Zi"
    index_with(example_repo, "20261129-token-aaaaaa", conclusion=f"The label on the crate reads {token}.")

    def check() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "chord_memory", "check", "--format", "json"],
                              cwd=example_repo, capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(code)})

    first = check()
    assert "CM601" not in first.stdout, first.stdout + first.stderr
    assert any((example_repo / ".git/chord-memory/cache").iterdir())
    providers = code / "chord_memory" / "secrets" / "providers.py"
    text = providers.read_text()
    providers.write_text(text.replace("RULES: tuple[Rule, ...] = (\n",
                                      "RULES: tuple[Rule, ...] = (\n"
                                      '    tok("zqx-token", "zqx_", r"zqx_[A-Za-z0-9]{36}"),\n', 1))
    again = check()
    assert "CM601" in again.stdout and "zqx-token" in again.stdout, again.stdout + again.stderr


def test_an_installed_copy_is_known_by_its_record(tmp_path: Path) -> None:
    """Installed from a wheel (a pre-commit hook's environment), the code is known by the
    RECORD pip writes with every install: one stat on the hook's path, and a reinstall of
    other code under the same version retires every cached result."""
    import shutil
    import subprocess
    import sys

    import chord_memory

    site = tmp_path / "site"
    shutil.copytree(Path(chord_memory.__file__).parent, site / "chord_memory",
                    ignore=shutil.ignore_patterns("__pycache__"))
    record = site / f"chord_memory-{chord_memory.__version__}.dist-info" / "RECORD"
    record.parent.mkdir()
    record.write_text("chord_memory/__init__.py,sha256=one,100\n")

    def key() -> str:
        return subprocess.run([sys.executable, "-c", "from chord_memory import cache; print(cache._code())"],
                              capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONPATH": str(site)}).stdout.strip()

    first = key()
    assert "RECORD:" in first and "providers.py" not in first
    record.write_text("chord_memory/__init__.py,sha256=two,100\nchord_memory/x.py,sha256=x,1\n")
    assert key() != first
