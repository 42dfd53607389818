"""The MEMORY.md merge driver, on real `git merge`s of branches that added and removed entries."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from chord_memory import index, mergedriver
from tests.helpers import entry, git

DRIVER = f"{sys.executable} -m chord_memory merge-driver %O %A %B"


def ids(n: str) -> str:
    return f"20261129-entry-{n.lower()}-aaaaaa"


def memory(top: str, names: str, bottom: str = "Notes of mine.\n", nl: str = "\n") -> str:
    body = "".join(entry(ids(n)) + nl for n in names)
    return (f"{top}{nl}{nl}<!-- chord-memory:begin -->{nl}{body}<!-- chord-memory:end -->{nl}{nl}"
            + bottom.replace("\n", nl))


def commit(repo: Path, text: str, message: str) -> None:
    (repo / "MEMORY.md").write_bytes(text.encode())
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)


def branches(repo: Path, base: str, ours: str, theirs: str) -> None:
    commit(repo, base, "base")
    git(repo, "checkout", "-qb", "feature")
    commit(repo, theirs, "theirs")
    git(repo, "checkout", "-q", "main")
    commit(repo, ours, "ours")


def region(repo: Path) -> list[str]:
    return [e.id for e in index.parse((repo / "MEMORY.md").read_text()).entries]


def test_without_the_driver_git_conflicts(repo: Path) -> None:
    branches(repo, memory("# Memory", "ABCD"), memory("# Memory", "FABC"), memory("# Memory", "EACD"))
    assert git(repo, "merge", "-q", "feature", check=False).returncode != 0


def test_entries_added_and_removed_on_both_sides_merge_cleanly(repo: Path) -> None:
    mergedriver.install_merge_driver(str(repo), DRIVER)
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-qm", "attributes")
    branches(repo, memory("# Memory", "ABCD"),
             memory("# Memory", "FABC", bottom="Notes of mine, edited on main.\n"),
             memory("# Our memory", "EACD"))
    merged = git(repo, "merge", "-q", "--no-edit", "feature", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert region(repo) == [ids("F"), ids("E"), ids("A"), ids("C")]
    text = (repo / "MEMORY.md").read_text()
    assert text.startswith("# Our memory\n") and text.endswith("Notes of mine, edited on main.\n")
    assert git(repo, "status", "--porcelain").stdout == ""


def test_a_conflict_outside_the_region_gets_git_markers(repo: Path) -> None:
    mergedriver.install_merge_driver(str(repo), DRIVER)
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-qm", "attributes")
    branches(repo, memory("# Memory", "AB"), memory("# Main's title", "AB"),
             memory("# Feature's title", "BC"))
    merged = git(repo, "merge", "-q", "--no-edit", "feature", check=False)
    assert merged.returncode != 0 and "CONFLICT" in merged.stdout
    text = (repo / "MEMORY.md").read_text()
    assert "<<<<<<< ours" in text and "# Main's title" in text and ">>>>>>> theirs" in text
    assert text.count("<!-- chord-memory:begin -->") == 1
    assert [line for line in text.splitlines() if line.startswith("- ")] == [entry(ids("B")), entry(ids("C"))]


def test_crlf_bom_and_an_unusable_region() -> None:
    base = ("\ufeff" + memory("# M", "AB", nl="\r\n")).encode()
    ours = ("\ufeff" + memory("# M", "XAB", nl="\r\n")).encode()
    theirs = ("\ufeff" + memory("# M", "A", nl="\r\n")).encode()
    out, clean = mergedriver.merge(base, ours, theirs)
    assert clean and out == ("\ufeff" + memory("# M", "XA", nl="\r\n")).encode()
    broken = memory("# M", "AB").replace("<!-- chord-memory:end -->\n", "").encode()
    out, clean = mergedriver.merge(base.replace(b"\r", b"")[3:], broken, memory("# M", "ABC").encode())
    assert not clean and b"<<<<<<<" in out


def test_an_edited_line_keeps_the_side_that_changed_it() -> None:
    def e(summary: str) -> index.Entry:
        got = index.parse_entry(entry(ids("A"), summary=summary), 1)
        assert isinstance(got, index.Entry)
        return got

    assert mergedriver.merge_entries([e("Old.")], [e("Old.")], [e("New.")])[0].summary == "New."
    assert mergedriver.merge_entries([e("Old.")], [e("Ours.")], [e("Theirs.")])[0].summary == "Ours."


def test_install_is_idempotent_and_uninstall_restores(repo: Path) -> None:
    (repo / ".gitattributes").write_text("*.png binary")
    assert mergedriver.install_merge_driver(str(repo), DRIVER)
    assert not mergedriver.install_merge_driver(str(repo), DRIVER)
    assert (repo / ".gitattributes").read_text() == "*.png binary\nMEMORY.md merge=chord-memory\n"
    assert git(repo, "config", "merge.chord-memory.driver").stdout.strip() == DRIVER
    assert not (repo / ".gitignore").exists()
    assert mergedriver.uninstall_merge_driver(str(repo))
    assert (repo / ".gitattributes").read_text() == "*.png binary\n"
    assert git(repo, "config", "merge.chord-memory.driver", check=False).returncode != 0
    assert not mergedriver.uninstall_merge_driver(str(repo))


def test_uninstall_removes_the_gitattributes_install_created(repo: Path) -> None:
    assert mergedriver.install_merge_driver(str(repo), DRIVER)
    assert (repo / ".gitattributes").read_text() == "MEMORY.md merge=chord-memory\n"
    assert mergedriver.uninstall_merge_driver(str(repo))
    assert not (repo / ".gitattributes").exists()


def test_the_default_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    assert mergedriver.driver_command().endswith("-m chord_memory merge-driver %O %A %B")


def test_the_command_writes_into_current(tmp_path: Path) -> None:
    from chord_memory.cli import main

    files = {}
    for name, names in (("base", "AB"), ("ours", "XAB"), ("theirs", "AYB")):
        files[name] = tmp_path / name
        files[name].write_text(memory("# M", names))
    assert main(["merge-driver", str(files["base"]), str(files["ours"]), str(files["theirs"])]) == 0
    assert files["ours"].read_text() == memory("# M", "XAYB")
    files["theirs"].write_text(memory("# Changed", "AB"))
    files["ours"].write_text(memory("# Also changed", "AB"))
    assert main(["merge-driver", str(files["base"]), str(files["ours"]), str(files["theirs"])]) == 1
    assert main(["merge-driver", str(tmp_path / "missing"), str(files["ours"]), str(files["theirs"])]) == 2
