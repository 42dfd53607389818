"""MEMORY.md is the user's file: an editor saving while we write never loses a byte of theirs.

A real second writer (a thread saving by truncate-and-write and by rename) races real
index updates; each test is bounded in rounds and time.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from chord_memory import index
from chord_memory import memory_md as md_file
from chord_memory.cli import main
from chord_memory.errors import UserError
from chord_memory.extract import state
from tests.sessions import ClaudeSession

BEGIN, END = "<!-- chord-memory:begin -->", "<!-- chord-memory:end -->"
REC = ".chord/memory/records"


def add(line: str) -> md_file.Add:
    got = index.parse_entry(line, 0)
    assert isinstance(got, index.Entry)
    return md_file.Add(got)


def entry(n: int) -> str:
    return index.Entry("fact", f"Fact number {n} of the project.", f"fact-{n:04d}", 0).render()


def memory_md(notes: list[str], entries: list[str]) -> bytes:
    return ("# Notes\n\n" + "".join(f"{n}\n" for n in notes) + f"\n{BEGIN}\n"
            + "".join(f"{e}\n" for e in entries) + f"{END}\n").encode()


def parts(data: bytes) -> tuple[list[str], list[str]]:
    text = data.decode()
    head, _, rest = text.partition(BEGIN)
    body = rest.partition(END)[0]
    notes = [line for line in head.splitlines() if line.startswith("note ")]
    return notes, [line for line in body.splitlines() if line.strip()]


def aged(path: Path, seconds: float = 5) -> None:
    """A file the user saved a while ago (no save in progress)."""
    old = time.time() - seconds
    os.utime(path, (old, old))


def test_an_editor_that_truncates_then_writes_keeps_its_text(repo: Path) -> None:
    """Issue 12.1: the update must not take the truncated file for the user's file."""
    md = repo / "MEMORY.md"
    for n in range(6):
        notes = [f"note {i}: keep this line of mine" for i in range(n + 3)]
        md.write_bytes(memory_md(notes[:-1], [entry(i) for i in range(n)]))
        aged(md)
        truncated = threading.Event()

        def editor(truncated: threading.Event = truncated, notes: list[str] = notes, n: int = n) -> None:
            with open(md, "wb") as f:  # in place: truncate now, write a moment later
                truncated.set()
                time.sleep(0.05)
                f.write(memory_md(notes, [entry(i) for i in range(n)]))

        t = threading.Thread(target=editor)
        t.start()
        truncated.wait()
        md_file.update(str(repo), [add(entry(100 + n))])
        t.join()
        got_notes, got_entries = parts(md.read_bytes())
        assert got_notes == notes, f"round {n}: the editor's text was lost"
        assert entry(100 + n) in got_entries


@pytest.mark.parametrize("seed", [7, 8])
def test_edits_racing_updates_are_never_undone(repo: Path, seed: int) -> None:
    """Issue 12.2: added lines stay, deleted lines stay deleted, a reorder stays, whatever the timing.

    An editor saving every few milliseconds (in place, torn across two writes, and by
    rename), with now and then a pause, against index updates back to back.
    """
    md = repo / "MEMORY.md"
    user_entries = [entry(i) for i in range(40)]
    md.write_bytes(memory_md(["note 0"], user_entries))
    aged(md)
    rng = random.Random(seed)
    added: list[str] = []
    deleted: set[str] = set()
    order: list[str] = []
    stop = time.monotonic() + 3
    failures: list[BaseException] = []

    def editor() -> None:
        n = 1
        try:
            while time.monotonic() < stop:
                notes, entries = parts(md.read_bytes())
                action = rng.choice(("add", "delete", "reorder"))
                if action == "add":
                    notes.append(f"note {n}")
                    added.append(f"note {n}")
                    n += 1
                elif action == "delete":
                    mine = [e for e in entries if e in user_entries and e not in deleted]
                    if mine:
                        gone = rng.choice(mine)
                        entries.remove(gone)
                        deleted.add(gone)
                else:
                    mine = [e for e in entries if e in user_entries]
                    rest = [e for e in entries if e not in user_entries]
                    mine.reverse()
                    entries = rest + mine
                    order[:] = mine
                data = memory_md(notes, entries)
                if rng.random() < 0.5:
                    with open(md, "wb") as f:  # in place
                        f.write(data[:10])
                        f.flush()
                        time.sleep(0.001)
                        f.write(data[10:])
                else:
                    tmp = md.with_name(".editor-save")
                    tmp.write_bytes(data)
                    os.replace(tmp, md)  # by rename
                time.sleep(rng.choice((0.002, 0.005, 0.02, 0.3)))
        except BaseException as e:  # pragma: no cover - reported below
            failures.append(e)

    t = threading.Thread(target=editor)
    t.start()
    k = kept = 0
    while time.monotonic() < stop:
        try:
            md_file.update(str(repo), [add(entry(1000 + k))])
        except UserError:  # MEMORY.md kept changing: nothing written, tried again later
            kept += 1
        k += 1
    t.join()
    assert not failures
    notes, entries = parts(md.read_bytes())
    assert [a for a in added if a not in notes] == [], "lines the user added were lost"
    assert [d for d in deleted if d in entries] == [], "lines the user deleted came back"
    mine = [e for e in entries if e in user_entries]
    assert mine == [e for e in order if e in mine] or not order, "the user's reorder was undone"


def _extract_killed_at(repo: Path, module: str, name: str) -> None:
    """`chord-memory extract` in a real process, killed (exit 137) when it calls module.name."""
    code = (
        "import os\n"
        f"import chord_memory.{module} as target\n"
        f"target.{name} = lambda *a, **k: os._exit(137)  # the kill lands here\n"
        "from chord_memory.cli import main\n"
        "main(['extract'])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True)
    assert done.returncode == 137, done.stderr


def _crash_after_the_index_is_written(repo: Path) -> None:
    """A run killed after writing MEMORY.md, before clearing its journal."""
    _extract_killed_at(repo, "extract.state", "clear_journal")


def test_a_crash_replay_never_puts_back_a_line_the_user_deleted(repo: Path) -> None:
    """Issue 12.3."""
    (repo / ".chord").mkdir()
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n  freeze_after: 0s\n")
    (ClaudeSession(repo)
     .user("Always run the linters with `make lint` before you hand a change back.")
     .user("Never commit generated files under src/gen to the repository."))
    _crash_after_the_index_is_written(repo)
    assert state.load_journal(str(repo)) is not None  # the killed run left its journal
    md = repo / "MEMORY.md"
    lines = md.read_text().splitlines()
    gone = next(line for line in lines if "make lint" in line)
    md.write_text("\n".join(line for line in lines if line != gone) + "\n")  # the user deletes it
    assert main(["extract"]) == 0
    assert gone not in md.read_text()
    assert state.load_journal(str(repo)) is None
    assert len(list((repo / REC).glob("*.md"))) == 2  # no record lost, none doubled


def test_a_crash_before_the_index_write_is_finished_by_the_next_run(repo: Path) -> None:
    """The other side of 12.3: what the killed run did not write yet is written."""
    (repo / ".chord").mkdir()
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n  freeze_after: 0s\n")
    ClaudeSession(repo).user("Always run the linters with `make lint` before you hand a change back.")
    _extract_killed_at(repo, "memory_md", "update")  # killed before MEMORY.md is written
    md = repo / "MEMORY.md"
    md.write_text("# mine\n\nnote: my own line\n")  # the user edits it meanwhile
    assert main(["extract"]) == 0
    text = md.read_text()
    assert "note: my own line" in text and "make lint" in text
    assert len(list((repo / REC).glob("*.md"))) == 1


def test_a_displaced_memory_md_left_by_a_killed_run_is_kept_not_deleted(repo: Path) -> None:
    """A run killed in the instant after the swap leaves the old MEMORY.md under a temporary
    name; it may hold a save of the user's, so the next run moves it aside, never deletes it."""
    (repo / ".chord").mkdir()
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n  freeze_after: 0s\n")
    (repo / ".chord-abc123.tmp").write_text("# Notes\n\nnote: saved as the run was killed\n")
    assert main(["extract"]) == 0
    assert not (repo / ".chord-abc123.tmp").exists()
    kept = repo / ".git/chord-memory/recovered/MEMORY.md.abc123"
    assert kept.read_text() == "# Notes\n\nnote: saved as the run was killed\n"
    assert "recovered/MEMORY.md.abc123" in (repo / ".git/chord-memory/extract.log").read_text()
