"""promotions list | accept | reject, and forget: index lines only, never AGENTS.md or docs."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from chord_memory.cli import main
from tests.helpers import add_record, entry, set_region

UV = "20261120-use-uv-for-installs-3f9a1c"
ASSISTANT = "20261129-assistant-found-aaaaaa"
PROMOS = ".chord/memory/promotions"


def suggestion(repo: Path, rid: str, target: str = "AGENTS.md", path: str = "null") -> Path:
    """A suggestion in the format extraction writes (extract/plan.py)."""
    folder = repo / PROMOS
    folder.mkdir(parents=True, exist_ok=True)
    f = folder / f"{rid}.md"
    f.write_text(
        f"---\nid: {rid}\ntarget: {target}\npath: {path}\ncreated: 2026-11-29T23:50:00Z\n"
        f'reason: "It must always apply."\n---\nSuggested for {target}. Review the draft.\n\n'
        f"## Draft\nAlways install with uv.\n")
    return f


def test_list(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["promotions", "list"]) == 0
    assert "No promotion suggestions." in capsys.readouterr().out
    suggestion(example_repo, UV, "docs", "docs/setup.md")
    assert main(["promotions", "list"]) == 0
    out = capsys.readouterr().out
    assert f"{UV}  -> docs (docs/setup.md)  (still indexed" in out and "It must always apply." in out


def test_accept_takes_the_entry_out_and_leaves_agents_md(
        example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (example_repo / "AGENTS.md").write_text("# Rules\n")
    f = suggestion(example_repo, UV)
    assert main(["promotions", "accept", UV]) == 0
    out = capsys.readouterr().out
    assert "Always install with uv." in out
    assert UV not in (example_repo / "MEMORY.md").read_text()
    assert (example_repo / f".chord/memory/records/{UV}.md").is_file() and not f.exists()
    assert (example_repo / "AGENTS.md").read_text() == "# Rules\n"
    assert main(["promotions", "accept", UV]) == 2


def test_reject_keeps_the_entry_and_restores_a_removed_one(
        example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suggestion(example_repo, UV)
    before = (example_repo / "MEMORY.md").read_text()
    assert main(["promotions", "reject", UV]) == 0
    assert (example_repo / "MEMORY.md").read_text() == before
    add_record(example_repo, ASSISTANT, source="assistant", summary="The build uses make.")
    suggestion(example_repo, ASSISTANT)  # extraction took an assistant entry out for its suggestion
    assert main(["promotions", "reject", ASSISTANT]) == 0
    assert "back at the top" in capsys.readouterr().out
    assert (example_repo / "MEMORY.md").read_text().split("<!-- chord-memory:begin -->\n")[1] \
        .startswith(entry(ASSISTANT, summary="The build uses make."))


def test_accept_needs_an_id_and_a_valid_file(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["promotions", "accept"]) == 2
    (example_repo / PROMOS).mkdir(parents=True)
    (example_repo / PROMOS / f"{UV}.md").write_text("no front matter")
    assert main(["promotions", "accept", UV]) == 1
    assert "not a promotion suggestion" in capsys.readouterr().err


def test_forget_removes_one_line_and_nothing_else(
        example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (example_repo / "MEMORY.md").read_text()
    assert main(["forget", UV]) == 0
    after = (example_repo / "MEMORY.md").read_text()
    assert [line for line in before.splitlines() if UV not in line] == after.splitlines()
    assert (example_repo / f".chord/memory/records/{UV}.md").is_file()
    assert main(["forget", UV]) == 1
    assert main(["forget", "Not An Id"]) == 2
    set_region(example_repo, ["junk line"])
    assert main(["forget", "20261121-migrations-need-review-b71e04"]) == 1
    assert "CM104" in capsys.readouterr().err


TOKEN = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"


def test_list_and_accept_scrub_what_they_print(
        example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = suggestion(example_repo, UV)
    f.write_text(f.read_text().replace("It must always apply.", f"Token {TOKEN} goes here.")
                 .replace("Always install with uv.", f"Install with uv; the token is {TOKEN}."))
    assert main(["promotions", "list"]) == 0
    out = capsys.readouterr().out
    assert TOKEN not in out and "why: Token [REDACTED:github-token] goes here." in out
    assert main(["promotions", "accept", UV]) == 0
    out = capsys.readouterr().out
    assert TOKEN not in out and "the token is [REDACTED:github-token]." in out


@pytest.mark.parametrize(("target", "path"), [
    ("docs", "../../../tmp/x.md"), ("docs", "/tmp/x.md"), ("docs", "docs/../../x.md"),
    ("AGENTS.md", "~/AGENTS.md"), ("elsewhere", "null"),
])
def test_a_target_outside_the_project_is_refused(
        example_repo: Path, target: str, path: str, capsys: pytest.CaptureFixture[str]) -> None:
    suggestion(example_repo, UV, target, path)
    assert main(["promotions", "list"]) == 1
    assert main(["promotions", "accept", UV]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "inside the project" in err and path not in err
    assert UV in (example_repo / "MEMORY.md").read_text()
    assert main(["promotions", "reject", UV]) == 0  # the way to drop it
    assert not (example_repo / PROMOS / f"{UV}.md").exists()


def _directory(f: Path) -> None:
    f.mkdir()


def _deep_yaml(f: Path) -> None:
    f.write_text("---\n" + "[" * 8000 + "]" * 8000 + "\n---\n## Draft\nx\n")


def _dev_zero(f: Path) -> None:
    f.symlink_to("/dev/zero")


def _fifo(f: Path) -> None:
    os.mkfifo(f)


def _link_out(f: Path) -> None:
    """A valid suggestion outside the project, linked in."""
    f.symlink_to(suggestion(f.parents[4], f.stem))


@pytest.mark.parametrize("make", [_directory, _deep_yaml, _dev_zero, _fifo, _link_out],
                         ids=lambda m: m.__name__.strip("_"))
@pytest.mark.parametrize("action", ["list", "accept", "reject"])
def test_a_bad_suggestion_file_is_one_line(
        example_repo: Path, make: Callable[[Path], None], action: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    (example_repo / PROMOS).mkdir(parents=True)
    make(example_repo / PROMOS / f"{UV}.md")
    before = (example_repo / "MEMORY.md").read_text()
    assert main(["promotions", action] + ([] if action == "list" else [UV])) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{PROMOS}/{UV}.md: " in err
    assert "unexpected" not in err and "Traceback" not in err
    assert (example_repo / "MEMORY.md").read_text() == before
    assert os.path.lexists(example_repo / PROMOS / f"{UV}.md")
