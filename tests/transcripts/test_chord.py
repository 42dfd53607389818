from __future__ import annotations

from pathlib import Path

from chord_memory.transcripts import Turn, read_session
from tests.transcripts.helpers import CHORD, FIXTURE_CWD, complete_lines, jsonl


def test_fixture_turns() -> None:
    session = read_session("chord", str(CHORD))
    assert (session.kind, session.id, session.cwd) == ("chord", "2025-10-03-demo", FIXTURE_CWD)
    assert session.turns == [
        Turn(
            "user",
            "Our release notes live in docs/CHANGELOG.md; add every user-visible change there.",
            2,
        ),
        Turn(
            "assistant",
            "I'll add an entry to docs/CHANGELOG.md for each user-visible change.",
            4,
        ),
        Turn("history", "Earlier: the user set up the changelog convention.", 5),
        Turn("user", "Thanks.", 9),
        Turn("assistant", "You're welcome.", 10),
    ]


def test_fixture_skips_unknown_types_roles_non_json_and_truncated_lines() -> None:
    session = read_session("chord", str(CHORD))
    assert session.skipped == 4  # "tool", role "system", "{not json", the cut last line
    assert session.end_offset == len(complete_lines(CHORD))
    assert "tool output" not in "\n".join(t.text for t in session.turns)


def test_without_header_the_stem_is_the_id(tmp_path: Path) -> None:
    path = tmp_path / "abc.jsonl"
    path.write_bytes(jsonl({"type": "message", "role": "user", "text": "hi"}))
    session = read_session("chord", str(path))
    assert (session.id, session.cwd, session.turns) == ("abc", None, [Turn("user", "hi", 1)])


def test_later_session_lines_do_not_change_the_header(tmp_path: Path) -> None:
    path = tmp_path / "abc.jsonl"
    path.write_bytes(
        jsonl(
            {"v": 1, "type": "session", "id": "first", "cwd": "/p"},
            {"v": 1, "type": "session", "id": "second", "cwd": "/q"},
        )
    )
    session = read_session("chord", str(path))
    assert (session.id, session.cwd, session.skipped) == ("first", "/p", 0)


def test_message_without_text_is_malformed(tmp_path: Path) -> None:
    path = tmp_path / "abc.jsonl"
    path.write_bytes(jsonl({"type": "message", "role": "user"}, {"type": "summary", "text": 3}))
    assert read_session("chord", str(path)).skipped == 2
