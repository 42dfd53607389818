"""memory_md.py: the one reader of MEMORY.md, and its typed index operations, on real files."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from chord_memory import index, memory_md, paths
from chord_memory.cli import main
from tests.helpers import add_examples, entry


def test_merge_keeps_order_and_is_idempotent() -> None:
    def e(i: str) -> index.Entry:
        return index.Entry("fact", f"entry {i}", f"20261129-entry-{i}", 0)

    ops = [memory_md.Add(e("new")), memory_md.Replace(e("b").id, e("b2")), memory_md.Remove(e("c").id)]
    once = memory_md.merge([e("a"), e("b"), e("c"), e("d")], ops)
    assert [x.id[-3:] for x in once] == ["new", "y-a", "-b2", "y-d"]
    assert memory_md.merge(once, ops) == once


def test_the_journal_form_of_the_operations_round_trips() -> None:
    """A plan's operations are kept in its journal as JSON lists; what comes back is the plan."""
    a, b = (index.Entry("fact", f"entry {i}", f"20261129-entry-{i}", 0) for i in "ab")
    ops = [memory_md.Add(a), memory_md.Replace(a.id, b), memory_md.Remove(a.id)]
    packed = memory_md.pack(ops)
    assert packed == [["add", a.render()], ["replace", a.id, b.render()], ["remove", a.id]]
    assert memory_md.unpack(packed) == (ops, "")
    assert memory_md.unpack([["replace", a.id]])[1] == "an index operation is malformed"


@pytest.mark.parametrize("make, says", [
    (lambda md: md.symlink_to("notes.md"), "is a symbolic link; it is not followed"),
    (lambda md: md.mkdir(), "not a regular file; fix or remove it"),
    (lambda md: os.mkfifo(md), "not a regular file; fix or remove it"),
    (lambda md: md.write_bytes(b"x" * (paths.MAX_MEMORY_MD + 1)), "over the 8,388,608 bytes"),
])
def test_one_policy_for_a_memory_md_that_cannot_be_read(
    repo: Path, capsys: pytest.CaptureFixture[str], make: object, says: str
) -> None:
    """Every command that reads MEMORY.md says the same one line, and none hangs on a FIFO."""
    add_examples(repo)
    (repo / "notes.md").write_text((repo / "MEMORY.md").read_text())
    (repo / "MEMORY.md").unlink()
    make(repo / "MEMORY.md")  # type: ignore[operator]
    with pytest.raises(memory_md.Unreadable, match=says):
        memory_md.read(str(repo))
    for command in (["summary"], ["recall", "uv", "--backend", "file"], ["forget", "20261120-x-aaaaaa"],
                    ["init"]):
        assert main(command) in (1, 2), command
        err = capsys.readouterr().err
        assert says in err and err.count("\n") == 1 and "Traceback" not in err, (command, err)
    assert memory_md.problem(str(repo)) is not None


def test_a_missing_memory_md_is_no_memory_and_the_first_update_creates_it(repo: Path) -> None:
    assert memory_md.read(str(repo)) is None and memory_md.ids(str(repo)) == []
    got = index.parse_entry(entry("20261129-first-aaaaaa"), 0)
    assert isinstance(got, index.Entry)
    assert memory_md.update(str(repo), [memory_md.Add(got)]) is True
    assert memory_md.ids(str(repo)) == ["20261129-first-aaaaaa"]
    assert (repo / "MEMORY.md").read_text().startswith(memory_md.HEADER)
    assert memory_md.update(str(repo), [memory_md.Add(got)]) is False  # there already: unchanged


def test_a_broken_region_is_unusable_and_nothing_is_written(repo: Path) -> None:
    (repo / "MEMORY.md").write_text("<!-- chord-memory:begin -->\n")
    before = (repo / "MEMORY.md").read_bytes()
    with pytest.raises(memory_md.Unusable, match="CM101"):
        memory_md.ids(str(repo))
    with pytest.raises(memory_md.Unusable, match="nothing was written"):
        memory_md.update(str(repo), [memory_md.Remove("20261129-first-aaaaaa")])
    assert (repo / "MEMORY.md").read_bytes() == before
