from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_memory import summary
from chord_memory.cli import main
from tests.helpers import add_record, entry, set_region


def test_everything_fits(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["summary"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(summary.PREAMBLE)
    assert out.count("\n- ") == 3 and "left out" not in out


def test_budget_cuts_the_tail_with_a_note(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for i in range(200):
        rid = f"20261129-many-{i:06d}"
        add_record(example_repo, rid)
    set_region(example_repo, [entry(f"20261129-many-{i:06d}") for i in range(200)])
    for budget in (600, 1000, 4000):
        assert main(["summary", "--budget", str(budget), "--format", "json"]) == 0
        got = json.loads(capsys.readouterr().out)
        assert len(got["summary"]) <= budget
        assert got["shown"] + got["left_out"] == 203
        assert got["summary"].rstrip("\n").endswith("left out to fit the budget; see MEMORY.md)")
        assert "20261129-many-000000" in got["summary"]  # the top goes in first


def test_records_that_do_not_load_are_left_out(
    example_repo: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    add_record(example_repo, "20261129-too-long-aaaaaa", summary="s" * 200)
    set_region(example_repo, [entry("20261129-too-long-aaaaaa"), entry("20261129-absent-aaaaaa")])
    assert main(["summary"]) == 0
    out = capsys.readouterr().out
    assert "too-long" not in out and "absent" not in out
    assert "(2 entries left out because the record does not load; run `chord-memory check`)" in out
    assert "to fit the budget" not in out  # the budget did not leave them out


def test_size_does_not_grow_with_records() -> None:
    lines = [f"- fact: entry {i} ([x](y))" for i in range(10_000)]
    assert len(summary.build(lines, 4000).text) <= 4000


def test_no_memory_md_prints_the_preamble_only(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["summary"]) == 0
    assert capsys.readouterr().out == summary.PREAMBLE


def test_unusable_region_is_one_line_exit_1(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "MEMORY.md").write_text("<!-- chord-memory:begin -->\n")
    assert main(["summary"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "CM101" in captured.err and captured.err.count("\n") == 1


def test_an_edit_that_keeps_size_and_mtime_is_still_seen(
    example_repo: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    import os

    md = example_repo / "MEMORY.md"
    old = os.stat(md)
    os.utime(md, ns=(old.st_atime_ns, old.st_mtime_ns - 10**10))  # settled: the summary caches it
    assert main(["summary"]) == 0 and "Use uv, not pip" in capsys.readouterr().out
    settled = os.stat(md)
    md.write_text(md.read_text().replace("Use uv, not pip", "Use uv, not pix"))  # same size
    os.utime(md, ns=(settled.st_atime_ns, settled.st_mtime_ns))                 # same mtime
    assert main(["summary"]) == 0 and "Use uv, not pix" in capsys.readouterr().out


def test_a_racily_clean_memory_md_is_not_scanned_again(example_repo: Path) -> None:
    """Within two seconds of a change the summary reads MEMORY.md again (its stat cannot be
    trusted), but lines it has scanned for secrets are not scanned again: no scrubber import."""
    import subprocess
    import sys

    probe = ("import sys; from chord_memory import cli; cli.main(['summary']); "
             "print('chord_memory.secrets' in sys.modules, file=sys.stderr)")
    (example_repo / "MEMORY.md").write_text((example_repo / "MEMORY.md").read_text() + "\n")
    runs = [subprocess.run([sys.executable, "-c", probe], cwd=example_repo, capture_output=True,
                           text=True, timeout=60) for _ in range(2)]
    assert [r.stderr.strip() for r in runs] == ["True", "False"]
    assert runs[0].stdout == runs[1].stdout


def test_the_extraction_note_is_there_only_while_extraction_is_enabled(
    example_repo: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["summary"]) == 0
    assert summary.EXTRACTING not in capsys.readouterr().out
    (example_repo / ".chord").mkdir(exist_ok=True)
    (example_repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n")
    assert main(["summary", "--budget", "600", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["summary"].startswith(summary.PREAMBLE + summary.EXTRACTING) and len(got["summary"]) <= 600
