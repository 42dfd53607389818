"""One case a finding code that triggers it, and a near miss that does not."""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from chord_memory.cli import main
from tests.helpers import (
    GH_TOKEN,
    REC,
    UV,
    add_examples,
    add_record,
    entry,
    git,
    index_with,
    record,
    set_region,
)


def codes(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    rc = main(["check", "--format", "json", *args])
    out = json.loads(capsys.readouterr().out)
    return rc, [f["code"] for f in out["findings"]]


def _edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new, 1))


def index_many(repo: Path, count: int) -> None:
    for i in range(count):
        index_with(repo, f"20261129-many-{i:06d}", summary="s" * 150)


def supersede_uv(repo: Path) -> None:
    new = "20261129-revised-uv-bbbbbb"
    add_record(repo, new, supersedes=UV, type="preference")
    text = (repo / "MEMORY.md").read_text()
    old_line = next(line for line in text.splitlines() if UV in line)
    (repo / "MEMORY.md").write_text(text.replace(old_line, entry(new, "preference")))


def typed(repo: Path, entry_type: str) -> None:
    add_record(repo, "20261129-typed-aaaaaa", type="fact")
    set_region(repo, [entry("20261129-typed-aaaaaa", entry_type)])


Mutation = Callable[[Path], None]
NEW = "20261129-new-record-aaaaaa"
CASES: dict[str, tuple[Mutation, Mutation]] = {
    "CM101": (lambda r: _edit(r / "MEMORY.md", "<!-- chord-memory:end -->\n", ""),
              lambda r: _edit(r / "MEMORY.md", "<!-- chord-memory:end -->", "  <!-- chord-memory:end -->")),
    "CM102": (lambda r: _edit(r / "MEMORY.md", "# Project memory", "<!-- chord-memory:end -->"),
              lambda r: _edit(r / "MEMORY.md", "# Project memory", "<!-- chord-memory:end --> x")),
    "CM103": (lambda r: _edit(r / "MEMORY.md", "# Project memory", "<!-- chord-memory:begin -->"),
              lambda r: _edit(r / "MEMORY.md", "# Project memory", "`<!-- chord-memory:begin -->`")),
    "CM104": (lambda r: set_region(r, ["just a note"]), lambda r: set_region(r, ["   "])),
    "CM105": (lambda r: (r / "MEMORY.md").write_bytes(b"\xff\xfe not utf-8"),
              lambda r: _edit(r / "MEMORY.md", "# Project memory", "\ufeff# Project m\u00e9mory")),
    "CM201": (lambda r: set_region(r, [entry("20261129-not-there-000000")]),
              lambda r: index_with(r, NEW)),
    "CM202": (lambda r: set_region(r, ["- fact: x ([passwd](../../etc/passwd))"]),
              lambda r: index_with(r, NEW)),
    "CM203": (lambda r: set_region(r, [entry(UV, "preference")]), lambda r: index_with(r, NEW)),
    "CM204": (lambda r: typed(r, "workflow"), lambda r: typed(r, "fact")),
    "CM205": (lambda r: add_record(r, "20261129-lonely-record-aaaaaa"), supersede_uv),
    "CM301": (lambda r: index_with(r, NEW, extra="colour: blue\n"),
              lambda r: index_with(r, NEW, extra="")),
    "CM302": (lambda r: add_record(r, NEW, record("20261129-other-aaaaaa")),
              lambda r: index_with(r, NEW)),
    "CM303": (lambda r: index_with(r, NEW, summary="s" * 161),
              lambda r: index_with(r, NEW, summary="s" * 160)),
    "CM304": (lambda r: index_with(r, NEW, conclusion="c" * 1001),
              lambda r: index_with(r, NEW, conclusion="c" * 1000)),
    "CM305": (lambda r: index_with(r, NEW, extra="# " + "p" * 4000 + "\n"),
              lambda r: index_with(r, NEW, extra="# " + "p" * 3700 + "\n")),
    "CM306": (lambda r: index_with(r, NEW, source="assistant", status="verified"),
              lambda r: index_with(r, NEW, source="assistant", status="inferred")),
    "CM307": (lambda r: _edit(r / REC / f"{UV}.md", "do not call", "never call"),
              lambda r: (r / REC / f"{UV}.md").write_bytes(
                  (r / REC / f"{UV}.md").read_bytes().replace(b"\n", b"\r\n"))),
    "CM308": (lambda r: _edit(r / REC / f"{UV}.md", "## Conclusion", "## Result"),
              lambda r: add_record(r, NEW, record(NEW).replace("## Conclusion", "##  conclusion"))
              or set_region(r, [entry(NEW)])),
    "CM309": (lambda r: (r / REC / f"{NEW}.md").symlink_to(r / REC / f"{UV}.md")
              or set_region(r, [entry(NEW)]),
              lambda r: index_with(r, NEW)),
    "CM401": (lambda r: index_with(r, NEW, conclusion="Logs are in /home/ana/app/logs."),
              lambda r: index_with(r, NEW, conclusion="Logs are in var/logs/ of the app.")),
    "CM402": (lambda r: index_with(r, NEW, conclusion="Fixed in " + "ab12" * 10 + "."),
              lambda r: index_with(r, NEW, conclusion="Fixed in " + "ab12" * 9 + ".")),
    "CM403": (lambda r: index_with(r, NEW, conclusion="Deploy from build7.corp."),
              lambda r: index_with(r, NEW, conclusion="Docs are on docs.python.org.")),
    "CM501": (lambda r: index_many(r, 30), lambda r: index_many(r, 10)),
    "CM601": (lambda r: index_with(r, NEW, conclusion=f"Deploys authenticate with {GH_TOKEN} today."),
              lambda r: index_with(r, NEW, conclusion=f"Deploys use {GH_TOKEN}. pragma: allowlist secret")),
}


def _prepare(repo: Path) -> None:
    add_examples(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")


def test_every_code_has_a_case() -> None:
    from chord_memory.findings import CODES

    assert set(CODES) - {"CM404"} == set(CASES)  # CM404's cases: tests/recall/test_stale.py


@pytest.mark.parametrize("code", sorted(CASES))
def test_code_triggers(code: str, repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _prepare(repo)
    CASES[code][0](repo)
    rc, found = codes(capsys)
    assert code in found
    from chord_memory.findings import CODES

    if CODES[code].severity == "error":
        assert rc == 1
    else:
        assert (rc, set(found)) == (0, {code})


@pytest.mark.parametrize("code", sorted(CASES))
def test_near_miss_is_clean(code: str, repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _prepare(repo)
    CASES[code][1](repo)
    assert codes(capsys) == (0, [])


def test_clean_repository_has_no_findings(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert codes(capsys) == (0, [])
    assert codes(capsys, "--staged") == (0, [])


def test_no_memory_at_all_is_clean(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert codes(capsys) == (0, [])
    assert codes(capsys, "--staged") == (0, [])


def test_region_less_memory_md_is_valid(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "MEMORY.md").write_text("# Notes\nmine\n")
    assert codes(capsys) == (0, [])


def test_text_output_is_path_line_col_code(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    set_region(example_repo, [entry("20261129-not-there-000000")])
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("MEMORY.md:7:1: CM201 ")
    assert out.count("\n") == 1


def test_paths_restrict_the_report(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    add_record(example_repo, "20261129-lonely-record-aaaaaa")
    set_region(example_repo, [entry("20261129-not-there-000000")])
    rc, found = codes(capsys, "MEMORY.md")
    assert (rc, set(found)) == (1, {"CM201"})
    os.chdir(example_repo / ".chord")
    rc, found = codes(capsys, "memory/records/20261129-lonely-record-aaaaaa.md")
    assert (rc, found) == (0, ["CM205"])
    rc, found = codes(capsys, "memory")  # a folder names what is in it
    assert (rc, found) == (0, ["CM205"])
    assert main(["check", "memory/records/20261129-typo.md"]) == 2  # never "clean" for a typo
    assert "no such file" in capsys.readouterr().err


def test_sarif_is_valid_2_1_0(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    set_region(example_repo, [entry("20261129-not-there-000000")])
    assert main(["check", "--format", "sarif"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["version"] == "2.1.0"
    (result,) = doc["runs"][0]["results"]
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == "CM201"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 7


def test_a_field_finding_points_at_its_line(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = "20261129-lines-aaaaaa"
    index_with(example_repo, rid, source="assistant", status="verified", summary="s" * 200,
               extra="colour: blue\n")
    main(["check", "--format", "json"])
    found = {f["code"]: f["line"] for f in json.loads(capsys.readouterr().out)["findings"]
             if f["path"].endswith(f"{rid}.md")}
    # ---, id, type, source, status (5), actor, created, session, supersedes, summary (10), colour
    assert found == {"CM306": 5, "CM303": 10, "CM301": 11}


def test_a_key_given_twice_is_an_error(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """YAML would keep the second `source:` silently, while a person reading the file sees the first."""
    rid = "20261129-twice-aaaaaa"
    index_with(example_repo, rid, extra="source: assistant\n")
    main(["check", "--format", "json"])
    (f,) = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["path"].endswith(f"{rid}.md")]
    assert (f["code"], f["line"]) == ("CM301", 11) and "duplicate key 'source'" in f["message"]


def test_a_secret_quoted_by_a_finding_is_scrubbed(
        example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Messages quote the value they are about; a token pasted in the wrong place is still a token."""
    index_with(example_repo, "20261129-quoted-aaaaaa", type=GH_TOKEN,
               conclusion=f"Logs are in /home/ana/{GH_TOKEN}/logs.")
    for fmt in ("text", "json", "sarif"):
        main(["check", "--format", fmt])
        out = capsys.readouterr().out
        assert GH_TOKEN not in out and "[REDACTED:github-token]" in out, fmt
