"""chord-memory scan: named files, stdin, the working tree, the index; text and JSON."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from chord_memory.cli import main
from chord_memory.secrets import hashed
from tests.helpers import git
from tests.secrets.examples import samples

TOKEN = samples()["github-token"]
RECORD = ".chord/memory/records/20261129-use-uv-3f9a1c.md"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["scan", *args])
    out, err = capsys.readouterr()
    assert TOKEN not in out + err
    return code, out, err


def write(root: Path, rel: str, text: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_named_file_with_a_secret(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(repo, "notes.md", f"# Notes\n\nuse {TOKEN} for CI\n")
    code, out, err = run(capsys, "notes.md")
    assert code == 1 and err == ""
    assert out == "notes.md:3:5: CM601 github-token secret (ghp_…)\n"


def test_json_output(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(repo, "notes.md", f"x\n  GITHUB_TOKEN={TOKEN}\n")
    code, out, _ = run(capsys, "--format", "json", "notes.md")
    assert code == 1
    (row,) = json.loads(out)["findings"]
    assert row == {
        "path": "notes.md", "line": 2, "column": 16, "end_line": 2,
        "end_column": 16 + len(TOKEN), "code": "CM601", "severity": "error",
        "message": "github-token secret (ghp_…)", "kind": "github-token",
    }


def test_clean_file_exits_zero(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(repo, "notes.md", "- fact: the token budget is 4,000 characters\n")
    assert run(capsys, "notes.md") == (0, "", "")
    assert run(capsys, "--format", "json", "notes.md") == (0, '{\n  "findings": []\n}\n', "")


def test_stdin(repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(f"k: {TOKEN}\n".encode())))
    code, out, _ = run(capsys, "-")
    assert (code, out) == (1, "-:1:4: CM601 github-token secret (ghp_…)\n")


@pytest.mark.parametrize("content, why", [
    (b"\x89PNG\r\n\x1a\n\0\0\0", "not UTF-8"),
    ("café".encode("latin-1"), "not UTF-8"),
])
def test_named_binary_or_non_utf8_is_a_usage_error(
    repo: Path, capsys: pytest.CaptureFixture[str], content: bytes, why: str
) -> None:
    write(repo, "blob.bin", content)
    code, out, err = run(capsys, "blob.bin")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and why in err and "Traceback" not in err


@pytest.mark.parametrize("name, why", [("missing.md", "no such file"), (".", "is a directory")])
def test_bad_paths(repo: Path, capsys: pytest.CaptureFixture[str], name: str, why: str) -> None:
    code, _, err = run(capsys, name)
    assert code == 2 and why in err


def test_worktree_memory_files(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(repo, "MEMORY.md", "# Memory\nDB_PASSWORD=Xk9#mQ2vLp\n")
    write(repo, RECORD, f"---\nid: x\n---\n## Conclusion\nuse {TOKEN}\n")
    write(repo, ".chord/memory/learnings/deep/note.md", "postgres://app:p4ss-W0rd-Zz@db/app\n")
    write(repo, "README.md", f"{TOKEN}\n")  # not a memory file
    write(repo, ".chord/notes/scratch.md", f"{TOKEN}\n")  # not memory either
    code, out, _ = run(capsys)
    assert code == 1
    assert out.splitlines() == [
        ".chord/memory/learnings/deep/note.md:1:16: CM601 url-credentials secret (…)",
        f"{RECORD}:5:5: CM601 github-token secret (ghp_…)",
        "MEMORY.md:2:13: CM601 env-assignment secret (…)",
    ]


def test_no_memory_is_clean(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys) == (0, "", "")


def test_staged_reads_the_index_not_the_worktree(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(repo, RECORD, f"use {TOKEN}\n")
    git(repo, "add", RECORD)
    write(repo, RECORD, "cleaned in the working tree, not staged\n")
    code, out, _ = run(capsys, "--staged")
    assert code == 1 and out.startswith(f"{RECORD}:1:5: CM601 github-token")
    git(repo, "add", RECORD)
    write(repo, "MEMORY.md", f"{TOKEN}\n")  # unstaged: not what the commit holds
    assert run(capsys, "--staged") == (0, "", "")


def test_staged_non_utf8_memory_file_is_a_finding(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(repo, "MEMORY.md", "caf\xe9 DB_PASSWORD=Xk9#mQ2vLp\n".encode("latin-1"))
    git(repo, "add", "MEMORY.md")
    code, out, _ = run(capsys, "--staged")
    assert code == 1
    assert "MEMORY.md:1:1: CM105 not UTF-8 text" in out
    assert "CM601 env-assignment" in out


def test_staged_needs_git(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "--staged")
    assert code == 2 and "git repository" in err


def test_staged_with_paths_is_a_usage_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--staged", "MEMORY.md")
    assert code == 2 and "--staged" in err


def test_pragma_lets_a_line_through(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(repo, "MEMORY.md", f"{TOKEN} <!-- pragma: allowlist secret -->\n")
    assert run(capsys) == (0, "", "")


def _baseline(repo: Path, value: str, is_secret: bool | None) -> None:
    entry: dict[str, object] = {"type": "Secret Keyword", "filename": "MEMORY.md",
                                "hashed_secret": hashed(value), "is_verified": False,
                                "line_number": 1}
    if is_secret is not None:
        entry["is_secret"] = is_secret
    write(repo, ".secrets.baseline", json.dumps({"version": "1.5.0", "results": {"MEMORY.md": [entry]}}))


@pytest.mark.parametrize("is_secret, expected", [(False, 0), (True, 1), (None, 1)])
def test_baseline_audited_false_positive_does_not_block(
    repo: Path, capsys: pytest.CaptureFixture[str], is_secret: bool | None, expected: int
) -> None:
    write(repo, "MEMORY.md", "DB_PASSWORD=Xk9#mQ2vLp\n")
    _baseline(repo, "Xk9#mQ2vLp", is_secret)
    assert run(capsys)[0] == expected


def test_baseline_entry_of_another_file_does_not_apply(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo, "MEMORY.md", "DB_PASSWORD=Xk9#mQ2vLp\n")
    write(repo, RECORD, "DB_PASSWORD=Xk9#mQ2vLp\n")
    _baseline(repo, "Xk9#mQ2vLp", False)
    code, out, _ = run(capsys)
    assert code == 1 and out.startswith(RECORD)


def test_broken_baseline_is_a_usage_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(repo, "MEMORY.md", "x\n")
    write(repo, ".secrets.baseline", "{not json")
    code, _, err = run(capsys)
    assert code == 2 and ".secrets.baseline" in err and "Traceback" not in err


def test_outside_a_repository_paths_are_shown_as_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    note = write(tmp_path, "n.md", f"{TOKEN}\n")
    monkeypatch.chdir(tmp_path.parent)
    code, out, _ = run(capsys, str(note))
    assert code == 1 and out.startswith(f"{note}:1:1: CM601")


def test_check_and_scan_report_a_secret_in_the_same_words(repo: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    write(repo, "MEMORY.md", f"# Memory\n\nCI pushes with {TOKEN}\n")
    scanned = run(capsys)[1]
    assert main(["check"]) == 1
    checked = capsys.readouterr().out
    assert scanned == "MEMORY.md:3:16: CM601 github-token secret (ghp_…)\n"
    assert scanned in checked and TOKEN not in checked
    assert main(["check", "--no-secrets"]) == 0  # the chord-memory-check hook leaves it to scan
    assert "CM601" not in capsys.readouterr().out
