"""Bad input: the right exit code, one clear line, no traceback, nothing written."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import REC, add_examples, cli, entry, git, record, set_region, tree_digest

BOMB = (
    "---\n"
    'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "---\n## Conclusion\nboom\n"
)
RID = "20261129-bad-input-aaaaaa"


def _bomb(r: Path) -> None:
    (r / REC / f"{RID}.md").write_text(BOMB)
    set_region(r, [entry(RID)])


def _huge(r: Path) -> None:
    with open(r / REC / f"{RID}.md", "wb") as f:
        f.write(record(RID).encode())
        f.write(b"x" * (50 << 20))
    set_region(r, [entry(RID)])


def _link_out(r: Path) -> None:
    outside = r.parent / "outside.md"
    outside.write_text(record(RID))
    (r / REC / f"{RID}.md").symlink_to(outside)
    set_region(r, [entry(RID)])


def _unicode_id(r: Path) -> None:
    set_region(r, ["- fact: x ([caf\u00e9-record](.chord/memory/records/caf\u00e9-record.md))"])


def _slash_id(r: Path) -> None:
    set_region(r, ["- fact: x ([a/b-record](.chord/memory/records/a/b-record.md))"])


CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "yaml-bomb": (_bomb, "CM301"),
    "50mb-record": (_huge, "CM305"),
    "binary-memory-md": (lambda r: (r / "MEMORY.md").write_bytes(b"\x00\x01\x02PNG\x00"), "CM105"),
    "non-utf8-memory-md": (lambda r: (r / "MEMORY.md").write_bytes("caf\u00e9".encode("latin-1")), "CM105"),
    "non-utf8-record": (lambda r: (r / REC / f"{RID}.md").write_bytes(
        record(RID).replace("statement", "caf\u00e9").encode("latin-1"))
        or set_region(r, [entry(RID)]), "CM105"),
    "symlink-out-of-repo": (_link_out, "CM309"),
    "link-to-etc-passwd": (lambda r: set_region(r, ["- fact: x ([passwd](../../etc/passwd))"]), "CM202"),
    "unicode-id": (_unicode_id, "CM202"),
    "slash-id": (_slash_id, "CM202"),
    "missing-end-marker": (lambda r: (r / "MEMORY.md").write_text(
        (r / "MEMORY.md").read_text().replace("<!-- chord-memory:end -->\n", "")), "CM101"),
    "two-begin-markers": (lambda r: (r / "MEMORY.md").write_text(
        "<!-- chord-memory:begin -->\n" + (r / "MEMORY.md").read_text()), "CM103"),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("command", [["check"], ["check", "--staged"], ["summary"]])
def test_bad_input(case: str, command: list[str], repo: Path) -> None:
    add_examples(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    mutate, code = CASES[case]
    mutate(repo)
    git(repo, "add", "-A")
    before = tree_digest(repo)
    result = cli(*command, cwd=repo)
    assert tree_digest(repo) == before
    assert "Traceback" not in result.stderr + result.stdout
    if command[0] == "summary":
        # The summary never fails a session for a bad record; a broken index is one line.
        assert result.returncode in (0, 1)
        if result.returncode == 1:
            assert result.stderr.count("\n") == 1 and result.stdout == ""
        assert RID not in result.stdout
        return
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr == ""
    lines = [line for line in result.stdout.splitlines() if f" {code} " in line]
    assert lines, result.stdout
    assert len(lines[0]) < 400


def test_bomb_is_quick_and_named(repo: Path) -> None:
    add_examples(repo)
    _bomb(repo)
    result = cli("check", "--format", "json", cwd=repo)
    found = json.loads(result.stdout)["findings"]
    assert any(f["code"] == "CM301" and "nodes" in f["message"] for f in found)


def test_unknown_command_is_usage_error(repo: Path) -> None:
    result = cli("frobnicate", cwd=repo)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_staged_outside_git_is_usage_error(tmp_path: Path) -> None:
    result = cli("check", "--staged", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "git repository" in result.stderr
