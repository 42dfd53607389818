"""The streaming rules every reader shares (chord format used as the carrier)."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from chord_memory.transcripts import Turn, jsonl, read_session
from tests.transcripts.helpers import jsonl as lines


def _user(text: str) -> dict[str, str]:
    return {"type": "message", "role": "user", "text": text}


def test_iter_lines_marks_a_cut_last_line() -> None:
    f = io.BytesIO(b'{"a":1}\n{"b":')
    got = list(jsonl.iter_lines(f, 0, 1))
    assert got == [jsonl.Line(1, b'{"a":1}\n', 8, True), jsonl.Line(2, b'{"b":', 13, False)]


def test_oversized_line_is_skipped_without_being_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", 64)
    monkeypatch.setattr(jsonl, "_CHUNK", 16)
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines(_user("x" * 500), _user("after")))
    session = read_session("chord", str(path))
    assert session.turns == [Turn("user", "after", 2)]
    assert (session.skipped, session.end_offset) == (1, path.stat().st_size)


def test_oversized_cut_last_line_is_not_consumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", 64)
    path = tmp_path / "s.jsonl"
    first = lines(_user("ok"))
    path.write_bytes(first + b'{"type":"message","text":"' + b"y" * 300)
    session = read_session("chord", str(path))
    assert (session.end_offset, session.skipped) == (len(first), 1)


def test_non_utf8_bytes_are_replaced_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"type":"message","role":"user","text":"caf\xe9 \xff ok"}\n')
    session = read_session("chord", str(path))
    assert session.turns == [Turn("user", "caf\ufffd \ufffd ok", 1)]
    assert session.skipped == 0


@pytest.mark.parametrize(
    "junk",
    [b"not json", b"[1, 2]", b'"a string"', b"{", b"[" * 100_000, b"\x00\x01\x02", b"{}{}"],
)
def test_junk_lines_are_counted(tmp_path: Path, junk: bytes) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(junk + b"\n" + lines(_user("still read")))
    session = read_session("chord", str(path))
    assert session.turns == [Turn("user", "still read", 2)]
    assert session.skipped == 1


def test_blank_lines_and_crlf(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n  \r\n" + lines(_user("a")).replace(b"\n", b"\r\n"))
    session = read_session("chord", str(path))
    assert (session.turns, session.skipped) == ([Turn("user", "a", 3)], 0)


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"")
    session = read_session("chord", str(path))
    assert (session.turns, session.end_offset, session.skipped) == ([], 0, 0)


def test_offset_past_the_end_reads_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines(_user("a")))
    session = read_session("chord", str(path), start_offset=1000)
    assert (session.turns, session.start_offset, session.end_offset) == ([], 1000, 1000)


def test_offset_inside_a_line_skips_that_line(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines(_user("a"), _user("b")))
    session = read_session("chord", str(path), start_offset=3)
    assert (session.turns, session.skipped) == ([Turn("user", "b", 2)], 1)


def test_unknown_kind_is_a_value_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown transcript kind 'windsurf'"):
        read_session("windsurf", str(tmp_path / "x.jsonl"))


def test_count_newlines_reads_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonl, "_CHUNK", 3)
    assert jsonl.count_newlines(io.BytesIO(b"a\nb\nc\nd\n"), 6) == 3
