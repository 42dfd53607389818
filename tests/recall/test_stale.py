"""CM404: a record that names a project path that no longer exists; a trigger and near misses."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_memory import check, settings, snapshot
from chord_memory.check.stale import named_paths, stale_findings
from chord_memory.findings import CODES, Finding
from tests.helpers import add_record, entry, set_region

NEW = "20261129-paths-aaaaaa"


def findings(repo: Path, conclusion: str, indexed: bool = True) -> list[Finding]:
    add_record(repo, NEW, conclusion=conclusion)
    if indexed:
        set_region(repo, [entry(NEW)])
    snap = snapshot.from_worktree(str(repo))
    loaded = check.load(snap, settings.load(str(repo)))
    assert NEW in loaded.records
    entries = loaded.idx.entries if loaded.idx else []
    return stale_findings(snap, loaded.records, [e.id for e in entries])


def test_a_stale_path_warns_and_does_not_fail_the_commit(
    example_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was: an assertion on the CODES table alone. Now what the user sees: `check` says
    warning, names the path, and exits 0, so a renamed file never blocks a commit."""
    from chord_memory.cli import main

    add_record(example_repo, NEW, conclusion="The PDF is built in `src/billing/invoice.py`.")
    set_region(example_repo, [entry(NEW)])
    assert main(["check"]) == 0
    assert "CM404 names src/billing/invoice.py" in capsys.readouterr().out
    assert main(["check", "--format", "json"]) == 0
    got = [(f["code"], f["severity"]) for f in json.loads(capsys.readouterr().out)["findings"]]
    assert got == [("CM404", "warning")] and CODES["CM404"].name == "record-stale-path"


def test_a_missing_path_is_reported_where_it_is_named(example_repo: Path) -> None:
    (example_repo / "src/billing").mkdir(parents=True)
    found = findings(example_repo, "The PDF is built in `src/billing/invoice.py` and src/billing/ holds it.")
    assert [(f.code, f.path, f.message.split(",")[0]) for f in found] == [
        ("CM404", f".chord/memory/records/{NEW}.md", "names src/billing/invoice.py")]
    f = found[0]
    line = (example_repo / f.path).read_text().splitlines()[f.line - 1]
    assert line[f.column - 1:f.end_column - 1] == "src/billing/invoice.py"


def test_a_removed_folder_in_a_code_span_is_reported(example_repo: Path) -> None:
    assert [f.code for f in findings(example_repo, "Old code lives in `legacy/db.py`.")] == ["CM404"]


@pytest.mark.parametrize("conclusion", [
    "Read it and/or ask; CI/CD runs on merge; rebase onto origin/main first.",
    "See https://example.com/src/x.py and /home/ana/src/x.py for more.",
    "Tests go in `tests/*.py`, records in `.chord/memory/records/<id>.md`.",
    "About 1/2 of the suite, 24/7.",
    "The helper is `src/app.py`, which exists.",
    "Prose like legacy/db.py outside a code span is not a path when legacy/ does not exist.",
])
def test_near_misses(example_repo: Path, conclusion: str) -> None:
    (example_repo / "src").mkdir()
    (example_repo / "src/app.py").write_text("")
    assert findings(example_repo, conclusion) == []


def test_only_indexed_records_are_checked(example_repo: Path) -> None:
    assert findings(example_repo, "Old code lives in `legacy/db.py`.", indexed=False) == []


def test_named_paths() -> None:
    assert named_paths(".", "`a/b.txt`, ./c/d.md and `x.y/z.py`") == ["a/b.txt"]
