"""The file system in the way: folders, FIFOs, devices and links where files belong.

Every command says what is wrong in one line (or reports a finding) and exits 1 or 2: never a
traceback, never an internal error, never a hang, never memory read without bound, nothing written.
"""
from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import GH_TOKEN, REC, add_examples, add_record, entry, git, set_region, tree_digest

RID = "20261120-use-uv-for-installs-3f9a1c"  # an example record the commands below name
STATE = ".git/chord-memory"


def run(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "chord_memory", *args], cwd=repo,
                          capture_output=True, text=True, timeout=60)


def _replace(path: Path, make: Callable[[Path], None]) -> None:
    path.unlink()
    make(path)


def _records_out(repo: Path) -> None:
    outside = repo.parent / "outside-records"
    (repo / REC).rename(outside)
    (repo / REC).symlink_to(outside)


def _state(repo: Path, name: str, make: Callable[[Path], None]) -> None:
    run(repo, "recall", "uv")  # the index and the caches exist first
    run(repo, "check")
    path = repo / STATE / name
    if path.exists():
        path.unlink()
    make(path)


CASES: dict[str, Callable[[Path], None]] = {
    "memory-md-folder": lambda r: _replace(r / "MEMORY.md", lambda p: p.mkdir()),
    "memory-md-fifo": lambda r: _replace(r / "MEMORY.md", os.mkfifo),
    "memory-md-dev-zero": lambda r: _replace(r / "MEMORY.md", lambda p: p.symlink_to("/dev/zero")),
    "records-folder-out-of-repo": _records_out,
    "record-fifo": lambda r: _replace(r / REC / f"{RID}.md", os.mkfifo),
    "config-folder": lambda r: (r / ".chord/config.yaml").mkdir(parents=True),
    "config-fifo": lambda r: (r / ".chord").mkdir(exist_ok=True) or os.mkfifo(r / ".chord/config.yaml"),
    "recall-index-folder": lambda r: _state(r, "recall.sqlite", lambda p: p.mkdir()),
    "caches-dev-zero": lambda r: [_state(r, f"cache/{n}.marshal", lambda p: p.symlink_to("/dev/zero"))
                                  for n in ("records", "settings", "summary-index", "recall-file")],
}
COMMANDS = [["check"], ["summary"], ["recall", "uv"], ["recall", "uv", "--backend", "file"],
            ["forget", RID], ["init"], ["status"]]


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_one_line_and_nothing_written(case: str, command: list[str], repo: Path) -> None:
    add_examples(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    CASES[case](repo)
    before = tree_digest(repo)
    result = run(repo, *command)
    out = result.stdout + result.stderr
    assert "Traceback" not in out and "unexpected failure" not in out, out
    assert not (repo / STATE / "crash.log").exists()
    assert result.returncode in (0, 1, 2), out
    if result.returncode and command[0] != "check":
        assert result.stderr.count("\n") == 1, result.stderr
    if result.returncode or command[0] not in ("init", "forget"):  # their job is to write
        assert tree_digest(repo) == before


def test_memory_md_is_a_regular_file_for_every_reader(repo: Path) -> None:
    """A link to a file inside the repository too: `check --staged` refuses what git would
    commit as a link, so `check`, summary and recall refuse it as well."""
    add_examples(repo)
    (repo / "MEMORY.md").rename(repo / "notes.md")
    (repo / "MEMORY.md").symlink_to("notes.md")
    git(repo, "add", "-A")
    for command in (["check"], ["check", "--staged"]):
        result = run(repo, *command)
        assert result.returncode == 1 and "MEMORY.md:1:1: CM309" in result.stdout, result.stdout
    for command in (["summary"], ["recall", "uv"]):
        result = run(repo, *command)
        assert result.returncode == 1 and "symbolic link; it is not followed" in result.stderr


def test_a_records_folder_out_of_the_repository_is_not_read(repo: Path) -> None:
    add_examples(repo)
    _records_out(repo)
    for command in (["summary"], ["recall", "uv"], ["recall", "uv", "--backend", "file"]):
        result = run(repo, *command)
        assert result.returncode == 1 and "leads out of the repository" in result.stderr
        assert result.stdout == ""


def test_secrets_in_memory_never_reach_a_session(repo: Path) -> None:
    """`check` blocks a secret at commit time; one written by hand and not yet committed must
    not reach an agent's prompt through the summary or recall either."""
    add_examples(repo)
    add_record(repo, "20261129-deploy-token-aaaaaa", conclusion=f"Deploy with the token {GH_TOKEN}.",
               summary="Deploy with the wombat token.")
    set_region(repo, [entry("20261129-deploy-token-aaaaaa",
                            summary=f"Deploy with the wombat token {GH_TOKEN}.")])
    for command in (["summary"], ["summary", "--format", "json"], ["recall", "wombat deploy"],
                    ["recall", "wombat deploy", "--backend", "file", "--format", "json"]):
        result = run(repo, *command)
        assert result.returncode == 0, result.stderr
        assert GH_TOKEN not in result.stdout and "[REDACTED:github-token]" in result.stdout, command


def test_a_crash_log_that_cannot_be_written_is_still_one_line(repo: Path) -> None:
    add_examples(repo)
    (repo / STATE).mkdir(parents=True)
    (repo / STATE / "crash.log").mkdir()  # the log cannot be opened for appending
    (repo / ".chord").mkdir(exist_ok=True)
    result = subprocess.run(
        [sys.executable, "-c", "import sys; from chord_memory import cli, commands\n"
         "import chord_memory.commands.init as m\n"
         "m.run = lambda args: 1 / 0\n"
         "sys.exit(cli.main(['init']))"], cwd=repo, capture_output=True, text=True, timeout=60)
    assert result.returncode == 3
    assert result.stderr.count("\n") == 1 and "could not be written" in result.stderr


def test_a_bare_repository_is_refused_not_written_into(tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    before = sorted(p.name for p in bare.iterdir())
    for command in (["init"], ["summary"], ["check"]):
        result = run(bare, *command)
        assert result.returncode == 2 and "without a working tree" in result.stderr
    assert sorted(p.name for p in bare.iterdir()) == before


def test_an_os_error_at_the_top_is_one_line(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from chord_memory import cli, errors

    add_examples(repo)
    (repo / "MEMORY.md").unlink()
    (repo / "MEMORY.md").mkdir()
    assert cli.main(["forget", RID]) == 2
    assert capsys.readouterr().err == (
        "chord-memory: MEMORY.md: not a regular file; fix or remove it and run the command again\n")
    assert errors.os_error(OSError(30, "Read-only file system", str(repo / ".git/x"))) == \
        ".git/x: Read-only file system (the repository is on a read-only file system)"
    assert errors.os_error(OSError(28, "No space left on device")) == \
        "No space left on device (free some disk space and run it again)"
