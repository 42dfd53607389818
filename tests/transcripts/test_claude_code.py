from __future__ import annotations

from pathlib import Path
from typing import Any

from chord_memory.transcripts import Turn, read_session
from tests.transcripts.helpers import CLAUDE_CODE, FIXTURE_CWD, complete_lines, jsonl

SID = "7f2c9a4e-1b3d-4c5e-8f60-2a1b3c4d5e6f"
UNDERSTOOD = "Understood: I'll work on feature branches and never commit to main."
WELCOME = "You're welcome. The Makefile change is ready to commit on a branch."


def test_fixture_turns() -> None:
    session = read_session("claude-code", str(CLAUDE_CODE))
    assert (session.kind, session.id, session.cwd) == ("claude-code", SID, FIXTURE_CWD)
    assert session.turns == [
        Turn("history", "Switch installs from pip to uv", 1),
        Turn("user", "We use uv, not pip, for installs here. Please update the Makefile.", 4),
        Turn("user", "Keep the old pip target as install-pip, please.", 9),  # typed mid-turn
        Turn(
            "assistant",
            "Done: the Makefile now runs `uv pip install -e .[test]`.\n\n"
            "Run `make install` to check it.",
            13,
        ),
        Turn(
            "history",
            "This session is being continued from a previous conversation that ran out of "
            "context. The conversation is summarized below:\nAnalysis: the user asked to install "
            "with uv instead of pip; the Makefile was updated.",
            19,
        ),
        Turn("user", "Also, never commit directly to main; open a branch.", 20),
        Turn("assistant", UNDERSTOOD, 23),
        Turn("user", "Thanks, that's all for today.", 28),
        Turn("assistant", WELCOME, 29),
    ]


def test_fixture_skips_unknown_non_json_and_truncated_lines() -> None:
    session = read_session("claude-code", str(CLAUDE_CODE))
    assert session.skipped == 3  # mystery-event, "not JSON", the cut last line
    assert session.end_offset == len(complete_lines(CLAUDE_CODE))


def test_tool_output_thinking_sidechain_and_meta_never_appear() -> None:
    text = "\n".join(t.text for t in read_session("claude-code", str(CLAUDE_CODE)).turns)
    for dropped in (
        "pip install -e .[test]\n",  # tool_result content
        "has been updated",  # tool_result content
        "Makefile first",  # thinking
        "I'll update the Makefile to use uv.",  # an earlier text of the turn, not the reply
        "sidechain",  # isSidechain lines
        "Caveat:",  # isMeta
        "Compacted (ctrl+o",  # local command output
        "/compact",  # a bare slash command
        "No response requested.",  # synthetic
        "Request interrupted",
        "unrelated repo",  # a summary of another session
        "hook output",  # an attachment that is not a typed prompt
    ):
        assert dropped not in text


def _user(content: Any, n: int, **extra: Any) -> dict[str, Any]:
    line = {"type": "user", "cwd": "/p", "sessionId": "s", "uuid": f"u{n}"}
    return {**line, "message": {"role": "user", "content": content}, **extra}


def _assistant(mid: str, block: dict[str, Any], n: int, **extra: Any) -> dict[str, Any]:
    message = {"id": mid, "role": "assistant", "model": "claude-x", "content": [block]}
    return {"type": "assistant", "uuid": f"a{n}", "message": message, **extra}


def _text(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


def _read(tmp_path: Path, data: bytes) -> list[Turn]:
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    return read_session("claude-code", str(path)).turns


def test_reply_is_the_last_assistant_text_before_the_next_prompt(tmp_path: Path) -> None:
    turns = _read(
        tmp_path,
        jsonl(
            _user("first", 1),
            _assistant("m1", _text("looking"), 2),
            _assistant("m1", {"type": "tool_use", "id": "t", "name": "Bash", "input": {}}, 3),
            _user([{"tool_use_id": "t", "type": "tool_result", "content": "out"}], 4),
            _assistant("m2", _text("final answer"), 5),
            _assistant("m3", {"type": "thinking", "thinking": "later thoughts"}, 6),
            _user("second", 7),
        ),
    )
    assert turns == [Turn("user", "first", 1), Turn("assistant", "final answer", 5),
                     Turn("user", "second", 7)]


def test_a_message_split_over_lines_is_joined_once(tmp_path: Path) -> None:
    turns = _read(
        tmp_path,
        jsonl(
            _user("q", 1),
            _assistant("m1", _text("part one"), 2),
            _assistant("m1", _text("part two"), 3),
            _assistant("m1", _text("part two"), 4),  # the same block written again
        ),
    )
    assert turns[1] == Turn("assistant", "part one\n\npart two", 2)


def test_user_text_blocks_and_tool_results(tmp_path: Path) -> None:
    turns = _read(
        tmp_path,
        jsonl(
            _user([_text("look at"), {"type": "image", "source": {}}, _text("this")], 1),
            _user([_text("ignored"), {"type": "tool_result", "tool_use_id": "t"}], 2),
            _user([{"type": "text", "text": "<system-reminder>x</system-reminder>"}], 3),
        ),
    )
    assert turns == [Turn("user", "look at\n\nthis", 1)]


def test_slash_command_with_arguments_is_kept_as_typed(tmp_path: Path) -> None:
    command = (
        "<command-name>/review</command-name>\n<command-message>review</command-message>\n"
        "<command-args>the auth module</command-args>"
    )
    newer = (
        "<command-message>loop is running\u2026</command-message>\n"
        "<command-name>/loop</command-name>\n<command-args>watch the rollout</command-args>"
    )
    bare = "<command-name>/model</command-name>\n<command-args></command-args>"
    turns = _read(tmp_path, jsonl(_user(command, 1), _user(newer, 2), _user(bare, 3)))
    assert turns == [Turn("user", "/review the auth module", 1),
                     Turn("user", "/loop watch the rollout", 2)]


def test_api_errors_and_sidechain_assistant_lines_are_not_replies(tmp_path: Path) -> None:
    turns = _read(
        tmp_path,
        jsonl(
            _user("q", 1),
            _assistant("m1", _text("real"), 2),
            _assistant("m2", _text("API Error: overloaded"), 3, isApiErrorMessage=True),
            _assistant("m3", _text("from a sub-agent"), 4, isSidechain=True),
        ),
    )
    assert turns[-1] == Turn("assistant", "real", 2)


def test_summary_of_another_session_is_left_out(tmp_path: Path) -> None:
    turns = _read(
        tmp_path,
        jsonl(
            {"type": "summary", "summary": "ours", "leafUuid": "a2"},
            {"type": "summary", "summary": "theirs", "leafUuid": "elsewhere"},
            {"type": "summary", "summary": "no leaf"},
            _user("q", 1),
            _assistant("m1", _text("r"), 2),
        ),
    )
    assert [t.text for t in turns if t.role == "history"] == ["ours", "no leaf"]


def test_known_auxiliary_lines_are_not_counted(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(
        jsonl(
            {"type": "file-history-snapshot", "messageId": "x", "snapshot": {}},
            {"type": "queue-operation", "operation": "enqueue", "content": "typed ahead"},
            {"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted"},
            {"type": "user", "message": "not an object"},
        )
    )
    session = read_session("claude-code", str(path))
    assert (session.turns, session.skipped) == ([], 1)


def test_prompt_typed_while_the_agent_worked(tmp_path: Path) -> None:
    def queued(prompt: str, **attachment: Any) -> dict[str, Any]:
        return {"type": "attachment", "attachment": {
            "type": "queued_command", "prompt": prompt, "commandMode": "prompt",
            "origin": {"kind": "human"}, **attachment}}

    turns = _read(
        tmp_path,
        jsonl(
            _user("q", 1),
            _assistant("m1", _text("working on it"), 2),
            queued("also add tests"),
            queued("<task-notification>done</task-notification>", commandMode="task-notification"),
            queued("from another session", origin={"kind": "peer"}),
            _assistant("m2", _text("done, with tests"), 6),
        ),
    )
    assert turns == [Turn("user", "q", 1), Turn("user", "also add tests", 3),
                     Turn("assistant", "done, with tests", 6)]
