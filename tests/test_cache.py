"""The caches only ever save time: a stale, corrupt or unwritable cache changes no result."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_memory.cli import main
from tests.test_check_codes import add_record, entry, set_region


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
