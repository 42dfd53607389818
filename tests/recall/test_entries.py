"""The index order in the recall database, updated by difference, always equals a full parse."""
from __future__ import annotations

import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from chord_memory import memory_md as md_file
from chord_memory.recall import entries, schema
from tests.helpers import entry

HEAD = "# Project memory\n\nYour own text.\n\n<!-- chord-memory:begin -->\n"
TAIL = "<!-- chord-memory:end -->\n\nMore of your text.\n"


def memory_md(lines: list[str], head: str = HEAD) -> bytes:
    return (head + "".join(line + "\n" for line in lines) + TAIL).encode()


def full(data: bytes) -> tuple[list[str], str]:
    """The ids and problem of a whole parse: what the incremental update must equal."""
    got, _, problem = md_file.body(data)
    return got or [], problem


def db() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    schema.create_schema(conn, 1)
    return conn


def apply(conn: sqlite3.Connection, data: bytes | None) -> tuple[list[str], str]:
    with schema.writing(conn):
        problem = entries.update(conn, data, {})
    return [n for (n,) in conn.execute("SELECT name FROM entries ORDER BY pos")], problem


# One edit of the region: (kind, position, number) -> a new list of lines.
Edit = tuple[str, int, int]
KINDS = ("prepend", "remove", "replace", "blank", "swap", "duplicate", "head", "insert", "bad")


def edit(lines: list[str], head: str, e: Edit, serial: int) -> tuple[list[str], str]:
    kind, at, n = e
    at = at % (len(lines) + 1)
    new = [entry(f"20261129-new-{serial}-{i}-aaaaaa") for i in range(n % 3 + 1)]
    if kind == "prepend":
        return new + lines, head
    if kind == "insert":
        return lines[:at] + new + lines[at:], head
    if kind == "remove" and lines:
        return lines[:at] + lines[at + 1:], head
    if kind == "replace" and at < len(lines):
        return lines[:at] + new[:1] + lines[at + 1:], head
    if kind == "blank":
        return [*lines[:at], "", *lines[at:]], head
    if kind == "swap" and at + 1 < len(lines):
        return [*lines[:at], lines[at + 1], lines[at], *lines[at + 2:]], head
    if kind == "duplicate" and at < len(lines):
        return [*lines[:at], lines[at], *lines[at:]], head
    if kind == "head":
        return lines, head.replace("Your own text.", f"Your own text, edit {serial}.")
    if kind == "bad":
        return [*lines[:at], "- note: not an entry", *lines[at:]], head
    return lines, head


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 12), st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 50),
                                                st.integers(0, 5)), max_size=12))
def test_incremental_order_equals_a_full_parse(start: int, edits: list[Edit]) -> None:
    conn = db()
    lines = [entry(f"20261129-start-{i}-aaaaaa") for i in range(start)]
    head = HEAD
    for serial, e in enumerate([("head", 0, 0), *edits]):
        lines, head = edit(lines, head, e, serial)
        if "- note: not an entry" in lines and e[0] != "bad":
            lines = [line for line in lines if line != "- note: not an entry"]
        data = memory_md(lines, head)
        got, problem = apply(conn, data)
        want, want_problem = full(data)
        assert (got, problem) == (want if not want_problem else [], want_problem)


def test_common_changes_move_only_their_rows() -> None:
    conn = db()
    lines = [entry(f"20261129-start-{i}-aaaaaa") for i in range(200)]
    apply(conn, memory_md(lines))
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    lines = [entry("20261129-top-aaaaaa"), *lines[:50], *lines[51:]]
    got, _ = apply(conn, memory_md(lines))
    assert got == full(memory_md(lines))[0]
    assert not any("SELECT name, pos FROM entries\n" in s or s == "SELECT name, pos FROM entries"
                   for s in statements)


def test_no_file_and_a_bad_file() -> None:
    conn = db()
    apply(conn, memory_md([entry("20261129-a-aaaaaa")]))
    assert apply(conn, None) == ([], "")
    got, problem = apply(conn, b"\xff\xfe")
    assert got == [] and "not UTF-8" in problem


def test_a_line_next_to_a_repeated_line_goes_where_the_first_copy_says() -> None:
    """Found by the property above: a new line inserted after the second copy of a repeated
    line was placed after the first copy."""
    conn = db()
    s = [entry(f"20261129-start-{i}-aaaaaa") for i in range(6)]
    new = entry("20261129-new-0-aaaaaa")
    for lines in ([*s[:4], s[3], *s[4:]], [*s[:5], s[3], *s[5:]], [*s[:5], s[3], new, *s[5:]]):
        data = memory_md(lines)
        assert apply(conn, data) == full(data)
    assert apply(conn, memory_md([*s[:5], s[3], new, *s[5:]]))[0].index("20261129-new-0-aaaaaa") == 5


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40), st.binary(max_size=40), st.binary(max_size=40), st.integers(1, 8))
def test_suffix_and_prefix_are_exact(head: bytes, a: bytes, b: bytes, block: int) -> None:
    import pytest

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(entries, "BLOCK", block)  # small blocks: every edge of the block loop is hit
        x, y = head + a, head + b
        want = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]), min(len(x), len(y)))
        assert entries._prefix(x, y, min(len(x), len(y))) == want
        x, y = a + head, b + head
        for limit in range(min(len(x), len(y)) + 1):
            want = next((i for i in range(limit) if x[-1 - i] != y[-1 - i]), limit)
            assert entries._suffix(x, y, limit) == want
