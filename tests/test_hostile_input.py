"""Hostile input and local state never crash extraction, never leak, never write where they point.

Issue 12, points 4, 5, 6 and 9, and the decisions on MEMORY.md's size and new files' mode.
"""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from chord_memory.cli import main
from chord_memory.transcripts import claude_code_project_dir
from tests.sessions import ClaudeSession

REC = ".chord/memory/records"
TOKEN = "ghp_R8x2Lq0Vb7Kd3Nf5Ty1Hc9Wm4Zp6Js0Ua2Ge"  # pragma: allowlist secret


def enable(repo: Path) -> None:
    (repo / ".chord").mkdir(exist_ok=True)
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n  freeze_after: 0s\n")


def raw_session(repo: Path, name: str, *contents: str) -> Path:
    """Claude Code lines whose JSON escapes are written as given (\\ud800, \\u0000)."""
    folder = Path(claude_code_project_dir(str(repo), os.environ["HOME"]))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    with open(path, "w", encoding="ascii") as f:
        for n, content in enumerate(contents):
            cwd = json.dumps(str(repo))
            f.write(f'{{"type":"user","cwd":{cwd},"uuid":"u{n}","message":{{"role":"user",'
                    f'"content":"{content}"}}}}\n')
    return path


def test_a_lone_surrogate_and_a_nul_are_replaced_and_every_run_goes_on(
    repo: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """12.4: no exit 3; nothing written that our own reader refuses; later runs still work."""
    enable(repo)
    raw_session(repo, "a.jsonl", "Always run make lint before pushing \\ud800 to the remote.",
                "Never commit the build\\u0000 folder to the repository.")
    assert main(["extract"]) == 0
    capsys.readouterr()
    assert main(["check"]) == 0, capsys.readouterr().out
    for path in [repo / "MEMORY.md", *(repo / REC).glob("*.md")]:
        data = path.read_bytes()
        assert b"\0" not in data
        data.decode("utf-8")
    ClaudeSession(repo, "7f2c9a4e-0000-4000-8000-0000000000b2").user(
        "We use uv for dependency management because pip drifts from the lock file.")
    assert main(["extract"]) == 0
    assert "1 file(s) written" in capsys.readouterr().out


def test_records_are_never_written_through_a_linked_folder(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """12.5: the folder that check, summary and recall refuse is refused by extract too."""
    enable(repo)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (repo / ".chord/memory").mkdir(parents=True)
    (repo / REC).symlink_to(outside)
    ClaudeSession(repo).user("Always run the linters with `make lint` before you hand a change back.")
    assert main(["extract"]) == 1
    err = capsys.readouterr().err
    assert "leads out of the repository through a symbolic link" in err and "Traceback" not in err
    assert list(outside.iterdir()) == []
    assert main(["status"]) == 0 and "MEMORY-FAIL" in capsys.readouterr().out


def test_a_secret_in_a_transcripts_file_name_goes_nowhere(repo: Path) -> None:
    """12.6: the name becomes the session id; neither records nor the ledger keep it."""
    enable(repo)
    ClaudeSession(repo, sid=f"notes-{TOKEN}").user(
        "Always run the linters with `make lint` before you hand a change back.")
    assert main(["extract"]) == 0
    written = [*(repo / REC).glob("*.md"), repo / "MEMORY.md", *(repo / ".git/chord-memory").iterdir()]
    assert written
    for path in written:
        if path.is_file():
            assert TOKEN not in path.read_text(errors="replace"), path.name
    record = next((repo / REC).glob("*.md")).read_text()
    assert "session: claude-code:notes-[REDACTED:" in record


@pytest.mark.parametrize("journal", [
    b"{not json",
    b"[1, 2, 3]",
    json.dumps({"creates": "nope", "ops": []}).encode(),
    json.dumps({"creates": [["../../escaped.md", "x"]], "ops": []}).encode(),
    json.dumps({"creates": [[".chord/memory/records/../../../escaped.md", "x"]], "ops": []}).encode(),
    json.dumps({"creates": [], "ops": [["add", "not an entry line"]]}).encode(),
    json.dumps({"creates": [], "ops": [["add", 5]]}).encode(),
    json.dumps({"creates": [], "ops": [], "root": "/somewhere/else"}).encode(),
])
def test_a_malformed_journal_is_set_aside_and_the_run_goes_on(
    repo: Path, tmp_path: Path, journal: bytes,
) -> None:
    """12.9: local state is input like any other; no file is created outside the work tree."""
    enable(repo)
    state = repo / ".git/chord-memory"
    state.mkdir(parents=True, exist_ok=True)
    (state / "journal.json").write_bytes(journal)
    ClaudeSession(repo).user("Always run the linters with `make lint` before you hand a change back.")
    assert main(["extract"]) == 0
    assert not (state / "journal.json").exists()
    assert [p.name for p in state.glob("journal.json.bad-*")]
    assert not (tmp_path / "escaped.md").exists() and not (repo.parent / "escaped.md").exists()
    assert len(list((repo / REC).glob("*.md"))) == 1
    assert "was not finished" in (state / "extract.log").read_text()


def test_a_memory_md_our_readers_refuse_is_not_written_into(
    repo: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """Decision (12): summary and check do not read a MEMORY.md over 8 MiB, so extract does
    not write into one either: one line, exit 1, the file untouched."""
    enable(repo)
    big = b"# notes\n" + b"x" * 80 + b"\n"
    data = big * (9 * 1024 * 1024 // len(big))
    (repo / "MEMORY.md").write_bytes(data)
    ClaudeSession(repo).user("Always run the linters with `make lint` before you hand a change back.")
    assert main(["extract"]) == 1
    err = capsys.readouterr().err
    assert "MEMORY.md" in err and "8 MiB" in err and "Traceback" not in err
    assert (repo / "MEMORY.md").read_bytes() == data


def test_new_memory_files_get_the_mode_the_umask_gives(repo: Path) -> None:
    """Decision (12): a committed memory file gets the user's usual mode, not 0600."""
    enable(repo)
    ClaudeSession(repo).user("Always run the linters with `make lint` before you hand a change back.")
    old = os.umask(0o022)
    try:
        assert main(["extract"]) == 0
    finally:
        os.umask(old)
    for path in [*(repo / REC).glob("*.md"), repo / "MEMORY.md"]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path.name
