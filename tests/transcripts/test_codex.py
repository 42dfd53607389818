from __future__ import annotations

from pathlib import Path
from typing import Any

from chord_memory.transcripts import Turn, read_session
from tests.transcripts.helpers import CODEX, FIXTURE_CWD, complete_lines, jsonl

CID = "0199a1b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b"


def test_fixture_turns() -> None:
    session = read_session("codex", str(CODEX))
    assert (session.kind, session.id, session.cwd) == ("codex", CID, FIXTURE_CWD)
    assert session.turns == [
        Turn("user", "Add a --json flag to the status command.", 6),
        Turn("assistant", "Added `--json` to `status`; it prints one JSON object.", 18),
        Turn("user", "Please keep the output keys in snake_case.", 21),
        Turn("assistant", "Renamed the keys to snake_case.", 23),  # interrupted turn
        Turn(
            "history",
            "The user wants `status --json` with snake_case keys; the flag is in src/app/cli.py.",
            25,
        ),
        Turn("user", "Run the tests.", 28),
        Turn("assistant", "All 42 tests pass.", 30),  # task_complete wins over the message
    ]


def test_fixture_skips_unknown_malformed_and_truncated_lines() -> None:
    session = read_session("codex", str(CODEX))
    assert session.skipped == 2  # the broken JSON line, the cut last line (world_state is known)
    assert session.end_offset == len(complete_lines(CODEX))


def test_injected_context_tools_and_reasoning_never_appear() -> None:
    text = "\n".join(t.text for t in read_session("codex", str(CODEX)).turns)
    for dropped in (
        "<environment_context>",
        "AGENTS.md instructions",
        "permissions instructions",
        "Inspecting the CLI",  # reasoning
        "rg -n",  # function_call
        "def status(args)",  # function_call_output
        "Begin Patch",  # custom_tool_call
        "I'll look at the CLI first.",  # an intermediate assistant message
        "Running `make test` now.",  # replaced by task_complete's message
    ):
        assert dropped not in text


def _line(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "2025-10-03T09:00:00.000Z", "type": kind, "payload": payload}


def _message(role: str, *texts: str) -> dict[str, Any]:
    block = "input_text" if role == "user" else "output_text"
    content = [{"type": block, "text": t} for t in texts]
    return _line("response_item", {"type": "message", "role": role, "content": content})


def _complete(text: str | None) -> dict[str, Any]:
    return _line("event_msg", {"type": "task_complete", "last_agent_message": text})


def _read(tmp_path: Path, data: bytes) -> list[Turn]:
    path = tmp_path / "rollout-2025-10-03T09-00-00-x.jsonl"
    path.write_bytes(data)
    return read_session("codex", str(path)).turns


def test_one_reply_per_turn(tmp_path: Path) -> None:
    turns = _read(
        tmp_path,
        jsonl(
            _message("user", "q"),
            _line("event_msg", {"type": "agent_message", "message": "final"}),
            _message("assistant", "final"),
            _complete("final"),
        ),
    )
    assert turns == [Turn("user", "q", 1), Turn("assistant", "final", 3)]  # where the text is


def test_null_last_agent_message_keeps_the_last_assistant_message(tmp_path: Path) -> None:
    data = jsonl(_message("user", "q"), _message("assistant", "a"), _complete(None))
    turns = _read(tmp_path, data)
    assert turns == [Turn("user", "q", 1), Turn("assistant", "a", 2)]


def test_context_blocks_are_dropped_from_a_mixed_message(tmp_path: Path) -> None:
    env = "<environment_context>\n  <cwd>/p</cwd>\n</environment_context>"
    data = jsonl(_message("user", env, "the real question"), _message("user", env))
    turns = _read(tmp_path, data)
    assert turns == [Turn("user", "the real question", 1)]


def test_empty_compaction_message_is_not_history(tmp_path: Path) -> None:
    turns = _read(tmp_path, jsonl(_line("compacted", {"message": ""})))
    assert turns == []


def test_id_falls_back_to_the_file_stem(tmp_path: Path) -> None:
    path = tmp_path / "rollout-x.jsonl"
    path.write_bytes(jsonl(_message("user", "q")))
    session = read_session("codex", str(path))
    assert (session.id, session.cwd) == ("rollout-x", None)


def test_line_without_payload_is_malformed(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(jsonl({"type": "response_item"}, {"type": "event_msg", "payload": []}))
    assert read_session("codex", str(path)).skipped == 2
