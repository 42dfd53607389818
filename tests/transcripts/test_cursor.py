from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from chord_memory.transcripts import Turn, discover, read_session
from chord_memory.transcripts import cursor as reader
from chord_memory.transcripts.discover import belongs
from tests.transcripts.helpers import CLAUDE_CODE, FIXTURES, complete_lines, jsonl

SID = "8c1f4d2e-6b7a-4e3c-9d5f-0a1b2c3d4e5f"
JSONL = FIXTURES / "cursor" / SID / f"{SID}.jsonl"
SUB = FIXTURES / "cursor" / SID / "subagents" / "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b.jsonl"
TID = "3d9a7c21-4b5e-4f60-8a1b-2c3d4e5f6a7b"
TXT = FIXTURES / "cursor" / f"{TID}.txt"
TS = "<timestamp>Tuesday, Mar 3, 2026, 10:14 AM (UTC+1)</timestamp>\n"
CONVERTED = "Converted `tests/test_cli.py` to pytest: plain `assert`s and a `tmp_path` fixture."

JSONL_TURNS = [
    Turn("user", "We run tests with pytest, not unittest. Please convert tests/test_cli.py.", 2),
    Turn("assistant", CONVERTED, 5),
    Turn("user", "Keep pytest quiet: `-q` stays in addopts (see the screenshot).", 7),
    Turn("assistant", "Kept `-q` in `addopts`; nothing else changed.", 8),
    Turn("user", "/release-notes only user-visible changes", 9),
    Turn("assistant", "Here's a plan for the release notes; press Build to write them.", 11),
    Turn("history", "The user switched the tests to pytest, kept -q in addopts and had release notes "
                    "written for v1.3.", 20),
    Turn("user", "Also add a CHANGELOG entry for the pytest switch.", 21),  # the echo is gone
    Turn("assistant", "Added a CHANGELOG entry under Unreleased.", 25),
]
TXT_TURNS = [
    Turn("user", "The API base URL lives in config/settings.toml; never hard-code it.", 1),
    Turn("assistant", "`client.py` now reads the base URL from `config/settings.toml`.\n\n"
                      "An example of the setting:\n\n```toml\n\nuser:\n[api]\n"
                      'base_url = "https://api.example.com"\n```\n\nNothing else hard-codes it.', 34),
    Turn("user", "Good. Also document the setting in README.md.", 47),
    Turn("assistant", "Documented `api.base_url` in README.md under Configuration.", 59),
]


def _user(*texts: str) -> dict[str, Any]:
    return {"role": "user", "message": {"content": [{"type": "text", "text": t} for t in texts]}}


def _asst(*blocks: dict[str, Any] | str) -> dict[str, Any]:
    content = [{"type": "text", "text": b} if isinstance(b, str) else b for b in blocks]
    return {"role": "assistant", "message": {"content": content}}


def _tool(tool: str, **args: object) -> dict[str, Any]:
    return {"type": "tool_use", "name": tool, "input": args}


def _query(text: str) -> str:
    return f"{TS}<user_query>\n{text}\n</user_query>"


END = {"type": "turn_ended", "status": "success"}


def _read(tmp_path: Path, data: bytes, name: str = "s.jsonl") -> list[Turn]:
    path = tmp_path / name
    path.write_bytes(data)
    return read_session("cursor", str(path)).turns


# -- the fixtures, whole -------------------------------------------------------------------


def test_jsonl_fixture_turns() -> None:
    session = read_session("cursor", str(JSONL))
    assert (session.kind, session.id, session.cwd) == ("cursor", SID, None)
    assert session.turns == JSONL_TURNS


def test_jsonl_fixture_skips_unknown_malformed_and_truncated_lines() -> None:
    session = read_session("cursor", str(JSONL))
    assert session.skipped == 3  # world_state, "NOT JSON", the cut last line
    assert session.end_offset == len(complete_lines(JSONL))


def test_text_fixture_turns() -> None:
    session = read_session("cursor", str(TXT))
    assert (session.id, session.cwd, session.skipped) == (TID, None, 0)
    assert session.turns == TXT_TURNS
    assert session.end_offset == TXT.stat().st_size  # written whole: its last line has no newline


@pytest.mark.parametrize(
    "dropped",
    [
        "<timestamp>", "Tuesday, Mar 3", "<user_query>", "Recently viewed files", "pyproject.toml (",
        "[Image]", "screenshot-1.png", "addopts = \"-q\"", "Cursor Command", "git log",
        "I'll read the test file first.",  # a reply that is not the last text of its turn
        "Reading the log", "[REDACTED]", "import unittest", "RELEASE_NOTES.md with",  # tools, after
        "Implement the plan", "Collect the commits", "Stage the changes", "diff-tab",
        "Committed as", "[Previous conversation summary]", "world_state", "half",
        "List every test",  # the sub-agent's transcript is another file
    ],
)
def test_jsonl_fixture_never_shows_context_tools_or_buttons(dropped: str) -> None:
    assert all(dropped not in turn.text for turn in read_session("cursor", str(JSONL)).turns)


@pytest.mark.parametrize(
    "dropped",
    ["[Thinking]", "Let me find", "I should grep", "I'll look for", "[Tool call]", "pattern:",
     "Moving the URL", "settings lookup", "The change is small", "admin:", "[Tool result]",
     "<attached_files>", "code_selection", "1|[api]", "<user_query>", "A:"],
)
def test_text_fixture_never_shows_thinking_tools_or_context(dropped: str) -> None:
    assert all(dropped not in turn.text for turn in read_session("cursor", str(TXT)).turns)


# -- the harness table: every rule ------------------------------------------------------


@pytest.mark.parametrize(("name", "tag"), reader._CONTEXT_TAGS)
def test_context_block_is_cut_and_the_query_kept(tmp_path: Path, name: str, tag: str) -> None:
    block = f"<{tag}>\ninjected {name} text\n</{tag}>\n"
    assert _read(tmp_path, jsonl(_user(block + _query("Use ruff for linting.")))) == [
        Turn("user", "Use ruff for linting.", 1)
    ]
    assert _read(tmp_path, jsonl(_user(block))) == []  # context alone is not a prompt


@pytest.mark.parametrize(("name", "tag"), reader._ATTRIBUTE_TAGS)
def test_context_block_with_attributes_is_cut(tmp_path: Path, name: str, tag: str) -> None:
    block = f'<attached_files>\n<{tag} path="/p/a.py" lines="1-2">\n1|x\n</{tag}>\n</attached_files>\n'
    bare = f'<{tag} path="/p/a.py">\n1|x\n</{tag}>\n'
    for context in (block, bare):
        turns = _read(tmp_path, jsonl(_user(context + _query(f"Explain the {name}."))))
        assert turns == [Turn("user", f"Explain the {name}.", 1)]


def test_image_placeholders_are_cut(tmp_path: Path) -> None:
    text = "[Image]\n[Image]\n<image_files>\nThe following images were provdied by the user and saved " \
           "to the workspace for future use:\n1. /p/a.png\n</image_files>\n" + _query("Match this layout.")
    assert _read(tmp_path, jsonl(_user(text))) == [Turn("user", "Match this layout.", 1)]


def test_a_typed_closing_tag_does_not_cut_the_prompt(tmp_path: Path) -> None:
    text = _query("Why does </user_query> appear in the transcript? Keep asking.")
    turns = _read(tmp_path, jsonl(_user(text)))
    assert turns == [Turn("user", "Why does  appear in the transcript? Keep asking.", 1)]


@pytest.mark.parametrize(
    "text",
    [
        "<user_query>\nImplement the plan as specified, it is attached for your reference. Do NOT edit "
        "the plan file itself.\n</user_query>",
        "<user_query>Implement the plan as specified.</user_query>",
        "Implement the plan as specified, it is attached for your reference.",
        "<user_query>\nExecute the selected diff-tab commit action.\n</user_query>",
        "<user_query>Execute the selected diff-tab push action.</user_query>",
        *(start + "\n- Current branch: main.\n<user_query>\nExecute the selected diff-tab commit "
          "action.\n</user_query>" for start in reader._BUTTON_PROMPTS),
    ],
)
def test_button_prompts_are_not_prompts(tmp_path: Path, text: str) -> None:
    data = jsonl(_user(_query("Add a --json flag.")), _asst("Added."), END,
                 _user(text), _asst("Did what the button asked."))
    assert _read(tmp_path, data) == [Turn("user", "Add a --json flag.", 1), Turn("assistant", "Added.", 2)]


def test_unknown_context_ahead_of_the_query_is_dropped(tmp_path: Path) -> None:
    text = "<future_context_block>\nsomething new\n</future_context_block>\n" + _query("Bump the version.")
    assert _read(tmp_path, jsonl(_user(text))) == [Turn("user", "Bump the version.", 1)]
    assert _read(tmp_path, jsonl(_user("<future_context_block>only</future_context_block>"))) == []


def test_unwrapped_text_is_typed_text(tmp_path: Path) -> None:
    assert _read(tmp_path, jsonl(_user("List the files."))) == [Turn("user", "List the files.", 1)]


# -- the echo filter ---------------------------------------------------------------------


def test_assistant_text_pasted_back_is_not_user_text(tmp_path: Path) -> None:
    reply = "The flaky test was caused by a shared temporary directory between the two workers."
    data = jsonl(_user(_query("Why is test_sync flaky?")), _asst(reply),
                 _user(_query(f"{reply}\n\nGive each worker its own directory then.")))
    turns = _read(tmp_path, data)
    assert [t.text for t in turns if t.role == "user"] == [
        "Why is test_sync flaky?", "Give each worker its own directory then."
    ]


def test_plan_pasted_back_is_not_user_text(tmp_path: Path) -> None:
    plan = "Move the retry loop into the client and give it an exponential backoff with jitter."
    data = jsonl(_user(_query("Plan the retry change.")),
                 _asst("Plan ready.", _tool("CreatePlan", name="Retry", overview="o", plan=plan)),
                 _user(_query(f"{plan}\n\nStart with the client.")))
    assert [t.text for t in _read(tmp_path, data) if t.role == "user"][-1] == "Start with the client."


def test_echo_is_caught_after_a_resume(tmp_path: Path) -> None:
    reply = "The flaky test was caused by a shared temporary directory between the two workers."
    path = tmp_path / "s.jsonl"
    path.write_bytes(jsonl(_user(_query("Why is test_sync flaky?")), _asst(reply)))
    first = read_session("cursor", str(path))
    with open(path, "ab") as f:
        f.write(jsonl(_user(_query(f"{reply}\n\nFix it."))))
    second = read_session("cursor", str(path), start_offset=first.end_offset)
    assert second.turns == [Turn("user", "Fix it.", 3)]


# -- replies -------------------------------------------------------------------------------


def test_the_reply_is_the_last_text_without_a_tool_call(tmp_path: Path) -> None:
    data = jsonl(_user(_query("q")), _asst("Looking first.", _tool("Read", path="a")),
                 _asst(_tool("Shell", command="ls")), _asst("The answer.\n\n[REDACTED]"),
                 _asst("[REDACTED]", _tool("TodoWrite", todos=[])))
    assert _read(tmp_path, data) == [Turn("user", "q", 1), Turn("assistant", "The answer.", 4)]


def test_a_turn_that_ends_on_a_tool_call_keeps_its_last_text(tmp_path: Path) -> None:
    data = jsonl(_user(_query("q")), _asst("A few questions first:", _tool("AskQuestion", title="t")),
                 _asst("Here is the plan.", _tool("CreatePlan", plan="p")), END)
    assert _read(tmp_path, data)[-1] == Turn("assistant", "Here is the plan.", 3)


def test_text_blocks_of_one_message_are_joined(tmp_path: Path) -> None:
    data = jsonl(_user(_query("q")), _asst("First half of the answer, ", "second half."))
    assert _read(tmp_path, data)[-1].text == "First half of the answer, second half."


def test_without_turn_ended_the_next_prompt_ends_the_turn(tmp_path: Path) -> None:
    data = jsonl(_user(_query("a")), _asst("A."), _user(_query("b")), _asst("B."))
    assert _read(tmp_path, data) == [Turn("user", "a", 1), Turn("assistant", "A.", 2),
                                     Turn("user", "b", 3), Turn("assistant", "B.", 4)]


def test_context_only_user_lines_do_not_end_a_turn(tmp_path: Path) -> None:
    data = jsonl(_user(_query("a")), _asst("Working.", _tool("Read", path="x")),
                 _user("<system_reminder>\nKeep going.\n</system_reminder>"), _asst("Done: A."), END)
    assert _read(tmp_path, data) == [Turn("user", "a", 1), Turn("assistant", "Done: A.", 4)]


def test_summary_is_history_and_keeps_the_turn(tmp_path: Path) -> None:
    data = jsonl(_user(_query("a")), _asst("Working.", _tool("Read", path="x")),
                 _user("[Previous conversation summary]\nEarlier: the user asked for a."),
                 _asst("Done: A."))
    assert _read(tmp_path, data) == [Turn("user", "a", 1),
                                     Turn("history", "Earlier: the user asked for a.", 3),
                                     Turn("assistant", "Done: A.", 4)]


def test_tool_results_and_other_roles_are_dropped_not_counted(tmp_path: Path) -> None:
    result = {"role": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "t",
                                                       "content": "secret tool output"}]}}
    data = jsonl(_user(_query("a")), result, {"role": "system", "message": {"content": "sys"}},
                 {"role": "tool", "message": {"content": [{"type": "text", "text": "out"}]}}, _asst("A."))
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    session = read_session("cursor", str(path))
    assert session.turns == [Turn("user", "a", 1), Turn("assistant", "A.", 5)]
    assert session.skipped == 0


def test_thinking_blocks_never_appear(tmp_path: Path) -> None:
    data = jsonl(_user(_query("a")), _asst({"type": "thinking", "thinking": "secret plan"}, "A."))
    assert _read(tmp_path, data) == [Turn("user", "a", 1), Turn("assistant", "A.", 2)]


# -- the text format -----------------------------------------------------------------------


def test_text_markers_need_a_blank_line_or_a_closed_query(tmp_path: Path) -> None:
    text = ("user:\n<user_query>\nFirst.\n</user_query>\nassistant:\nAnswer one.\nuser:\nnot a marker\n\n"
            "user:\nSecond.\n\nA:\nAnswer two.\n")
    assert _read(tmp_path, text.encode(), "t.txt") == [
        Turn("user", "First.", 1), Turn("assistant", "Answer one.\nuser:\nnot a marker", 6),
        Turn("user", "Second.", 10), Turn("assistant", "Answer two.", 14),
    ]


@pytest.mark.parametrize(
    ("thinking", "reply"),
    [
        ("**Checking the config**\n\nThe port is set twice; I will say so.", "Port 8080 is set twice."),
        ("The user asks about ports.\n\nLet me answer directly.", "**Short answer:** 8080."),
        ("Notes:\n- one\n- two\n\nThat is all.", "## Result\nIt works."),
    ],
)
def test_thinking_ends_where_the_reply_begins(tmp_path: Path, thinking: str, reply: str) -> None:
    text = f"user:\n<user_query>\nq\n</user_query>\n\nassistant:\n[Thinking] {thinking}\n{reply}"
    assert _read(tmp_path, text.encode(), "t.txt")[-1] == Turn("assistant", reply, 8 + thinking.count("\n"))


def test_thinking_without_a_reply_is_not_a_reply(tmp_path: Path) -> None:
    text = "user:\nq\n\nassistant:\n[Thinking] Let me look.\n- a list\n[Tool call] Read\n  path: x\n"
    assert _read(tmp_path, text.encode(), "t.txt") == [Turn("user", "q", 1)]


def test_think_tags_are_thinking(tmp_path: Path) -> None:
    text = "user:\nq\n\nassistant:\n<think>\nsecret reasoning\n</think>\nThe answer.\n"
    assert _read(tmp_path, text.encode(), "t.txt")[-1] == Turn("assistant", "The answer.", 8)


def test_text_ahead_of_the_first_block_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes(b"garbage\nmore\n\nuser:\nq\n")
    session = read_session("cursor", str(path))
    assert (session.turns, session.skipped) == ([Turn("user", "q", 4)], 2)


def test_a_huge_user_block_keeps_its_query(tmp_path: Path) -> None:
    rows = "\n".join("x" * 1000 for _ in range(9000))  # 9 MB of attached file
    text = f"user:\n<attached_files>\n{rows}\n</attached_files>\n<user_query>\nSummarize it.\n</user_query>\n"
    assert _read(tmp_path, text.encode(), "t.txt") == [Turn("user", "Summarize it.", 1)]


# -- input that is not a transcript ---------------------------------------------------------


@pytest.mark.parametrize("name", ["s.jsonl", "s.txt"])
def test_empty_binary_and_other_formats_never_raise(tmp_path: Path, name: str) -> None:
    for data in (b"", b"\x00\xff\xfe" * 1000 + b"\n\x89PNG\r\n", os.urandom(5000), CLAUDE_CODE.read_bytes()):
        path = tmp_path / name
        path.write_bytes(data)
        session = read_session("cursor", str(path))
        assert session.turns == [] or name.endswith(".txt")
        assert session.skipped <= data.count(b"\n") + 1


def test_a_claude_code_file_read_as_cursor_is_skipped_and_counted(tmp_path: Path) -> None:
    session = read_session("cursor", str(CLAUDE_CODE))
    assert session.turns == []
    assert session.skipped > 10


def test_wrong_types_are_skipped_and_counted(tmp_path: Path) -> None:
    data = jsonl({"role": "user"}, {"role": "user", "message": {"content": 7}}, [1, 2], "x",
                 {"role": "user", "message": {"content": None}}, {"type": "metadata"})
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    assert read_session("cursor", str(path)).skipped == 5


def test_a_missing_file_raises_oserror(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        read_session("cursor", str(tmp_path / "gone.jsonl"))


def test_a_20_mb_line_is_skipped_without_being_kept(tmp_path: Path) -> None:
    big = _asst("Writing the fixture.", _tool("Write", path="big.json", contents="y" * 20_000_000))
    path = tmp_path / "s.jsonl"
    path.write_bytes(jsonl(_user(_query("a")), big, _asst("A."), _user(_query("b"))))
    started = time.monotonic()
    session = read_session("cursor", str(path))
    assert time.monotonic() - started < 2
    assert session.turns == [Turn("user", "a", 1), Turn("assistant", "A.", 3), Turn("user", "b", 4)]
    assert session.skipped == 1


def test_a_20_mb_text_line_is_skipped(tmp_path: Path) -> None:
    text = "user:\na\n\nassistant:\nA.\n[Tool call] Write\n  contents: " + "y" * 20_000_000 + "\n\nuser:\nb\n"
    path = tmp_path / "t.txt"
    path.write_bytes(text.encode())
    session = read_session("cursor", str(path))
    assert [t.text for t in session.turns] == ["a", "A.", "b"]
    assert session.skipped == 1


# -- resuming ------------------------------------------------------------------------------


@pytest.mark.parametrize("fixture", [JSONL, TXT], ids=["jsonl", "txt"])
def test_a_read_from_end_offset_adds_nothing(fixture: Path) -> None:
    first = read_session("cursor", str(fixture))
    again = read_session("cursor", str(fixture), start_offset=first.end_offset)
    assert (again.turns, again.skipped, again.end_offset) == ([], 1 if fixture == JSONL else 0,
                                                             first.end_offset)
    assert (again.id, again.cwd) == (first.id, first.cwd)


def _line_starts(data: bytes, numbers: set[int]) -> list[int]:
    """Byte offsets of the lines with these 1-based numbers."""
    offsets, at = [], 0
    for number, line in enumerate(data.splitlines(keepends=True), 1):
        if number in numbers:
            offsets.append(at)
        at += len(line)
    return offsets


@pytest.mark.parametrize("fixture", [JSONL, TXT], ids=["jsonl", "txt"])
def test_a_growing_file_read_in_two_parts_gives_the_same_turns(tmp_path: Path, fixture: Path) -> None:
    data = complete_lines(fixture) if fixture == JSONL else fixture.read_bytes()
    whole = read_session("cursor", str(fixture)).turns
    path = tmp_path / fixture.name
    cuts = _line_starts(data, {t.line for t in whole if t.role == "user"})[1:]  # at each new prompt
    assert len(cuts) >= 1
    for cut in cuts:
        path.write_bytes(data[:cut])
        first = read_session("cursor", str(path))
        assert first.end_offset == cut
        path.write_bytes(data)
        rest = read_session("cursor", str(path), start_offset=first.end_offset)
        assert first.turns + rest.turns == whole
        assert rest.id == first.id
        assert rest.cwd is None


@pytest.mark.parametrize("fixture", [JSONL, TXT], ids=["jsonl", "txt"])
def test_resuming_at_any_line_never_repeats_a_prompt(tmp_path: Path, fixture: Path) -> None:
    data = complete_lines(fixture) if fixture == JSONL else fixture.read_bytes()
    whole = [t for t in read_session("cursor", str(fixture)).turns if t.role == "user"]
    path = tmp_path / fixture.name
    path.write_bytes(data)
    for cut in [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]:
        rest = read_session("cursor", str(path), start_offset=cut)
        line = data[:cut].count(b"\n")
        assert all(turn.line > line for turn in rest.turns)
        assert [t for t in rest.turns if t.role == "user"] == [t for t in whole if t.line > line]


def test_an_offset_inside_a_line_skips_that_line(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(jsonl(_user(_query("a")), _asst("A."), _user(_query("b"))))
    session = read_session("cursor", str(path), start_offset=5)
    assert session.turns == [Turn("assistant", "A.", 2), Turn("user", "b", 3)]
    assert session.skipped == 1


def test_an_offset_past_the_end_reads_nothing(tmp_path: Path) -> None:
    session = read_session("cursor", str(JSONL), start_offset=10**9)
    assert (session.turns, session.end_offset, session.skipped) == ([], 10**9, 0)


# -- where Cursor keeps them ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "folder"),
    [
        ("/home/me/src/app", "home-me-src-app"),
        ("/Users/me/my_app.v2", "Users-me-my-app-v2"),
        ("/home/u/.cursor/worktrees/app/x1", "home-u-cursor-worktrees-app-x1"),
        ("/Users/lola.salehu@akeneo.com/Desktop/Return-It", "Users-lola-salehu-akeneo-com-Desktop-Return-It"),
        ("/srv/Open Source/x~y/", "srv-Open-Source-x-y"),
        ("c:\\Users\\Vinnie\\cursor", "c-Users-Vinnie-cursor"),
        ("/p/caf\u00e9/\u041f\u0440\u043e\u0435\u043a\u0442", "p-caf"),
        ("/a/b-c", "a-b-c"), ("/a/b.c", "a-b-c"), ("/a/b__c", "a-b-c"),  # one folder for three
    ],
)
def test_folder_name(path: str, folder: str) -> None:
    assert reader.folder_name(path) == folder


def _session(path: Path, text: str = "hi") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(jsonl(_user(_query(text))))
    return path


def _trust(folder: Path, workspace: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ".workspace-trusted").write_text(json.dumps(
        {"trustedAt": "2026-08-02T02:06:46.038Z", "workspacePath": workspace, "trustMethod": "cli-flag"}))


def test_discover_this_projects_sessions_only(tmp_path: Path) -> None:
    home, root = tmp_path / "home", tmp_path / "my_app.v2"
    root.mkdir()
    projects = home / ".cursor" / "projects"
    ours = projects / reader.folder_name(os.path.realpath(root)) / "agent-transcripts"
    nested = _session(ours / "a1" / "a1.jsonl")
    flat = _session(ours / "b2.jsonl")
    text = ours / "c3.txt"
    text.write_text("user:\nhi\n")
    _session(ours / "a1" / "subagents" / "s9.jsonl")  # a sub-agent's
    (ours / "a1.txt").write_text("user:\nthe same conversation, older format\n")
    (ours / "b2" / "b2.jsonl").parent.mkdir()
    nested_b2 = _session(ours / "b2" / "b2.jsonl")  # beats the flat b2.jsonl
    (ours / "notes.md").write_text("not a transcript")
    _session(projects / reader.folder_name(str(tmp_path / "other")) / "agent-transcripts" / "x.jsonl")
    _session(projects / "1771021702762" / "agent-transcripts" / "y.jsonl")  # an empty window's
    found = discover("cursor", str(root), home=str(home))
    assert found == sorted([str(nested), str(nested_b2), str(text)])
    assert str(flat) not in found


def test_discover_accepts_a_name_spelled_one_dash_per_character(tmp_path: Path) -> None:
    home, root = tmp_path / "home", tmp_path / ".hidden" / "a_-b"
    root.mkdir(parents=True)
    spelled = os.path.realpath(root).lstrip("/").replace("/", "-").replace(".", "-").replace("_", "-")
    assert "--" in spelled and spelled != reader.folder_name(os.path.realpath(root))
    ours = _session(home / ".cursor" / "projects" / spelled / "agent-transcripts" / "c.jsonl")
    assert discover("cursor", str(root), home=str(home)) == [str(ours)]


def test_discover_nothing_there(tmp_path: Path) -> None:
    assert discover("cursor", str(tmp_path / "app"), home=str(tmp_path / "home")) == []


def test_discover_trusts_workspace_trusted_over_the_name(tmp_path: Path) -> None:
    home, root = tmp_path / "home", tmp_path / "b-c"
    root.mkdir()
    projects = home / ".cursor" / "projects"
    shared = projects / reader.folder_name(os.path.realpath(root))
    _trust(shared, str(tmp_path / "b.c"))  # the same folder name, another directory's
    _session(shared / "agent-transcripts" / "t1" / "t1.jsonl")
    renamed = projects / "some-other-name"
    _trust(renamed, str(root))
    ours = _session(renamed / "agent-transcripts" / "t2" / "t2.jsonl")
    assert discover("cursor", str(root), home=str(home)) == [str(ours)]


def test_discover_long_paths_by_their_hash_or_trust_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    root = tmp_path.joinpath(*["deeply-nested-folder-" + "x" * 20] * 4, "app")
    root.mkdir(parents=True)
    name = reader.folder_name(os.path.realpath(root))
    projects = home / ".cursor" / "projects"
    digest = hashlib.sha256(os.path.realpath(root).encode()).hexdigest()[:7]
    hashed = _session(projects / f"{name[:84]}-{digest}" / "agent-transcripts" / "h.jsonl")
    _session(projects / f"{name[:84]}-0000000" / "agent-transcripts" / "w.jsonl")  # a twin's hash
    trusted = projects / f"{name[:84]}-abcdef1"
    _trust(trusted, str(root))
    ours = _session(trusted / "agent-transcripts" / "k.jsonl")
    assert discover("cursor", str(root), home=str(home)) == sorted([str(hashed), str(ours)])


def test_discover_reads_cursor_data_dir_too(tmp_path: Path) -> None:
    home, root, data = tmp_path / "home", tmp_path / "app", tmp_path / "cursor-data"
    root.mkdir()
    name = reader.folder_name(os.path.realpath(root))
    moved = _session(data / "projects" / name / "agent-transcripts" / "m.jsonl")
    usual = _session(home / ".cursor" / "projects" / name / "agent-transcripts" / "u.jsonl")
    found = discover("cursor", str(root), home=str(home), env={"CURSOR_DATA_DIR": str(data)})
    assert found == sorted([str(moved), str(usual)])


def test_discover_a_symlinked_project_root(tmp_path: Path) -> None:
    home, real = tmp_path / "home", tmp_path / "real-app"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    projects = home / ".cursor" / "projects"
    by_link = _session(projects / reader.folder_name(str(link)) / "agent-transcripts" / "l.jsonl")
    by_real = _session(projects / reader.folder_name(str(real)) / "agent-transcripts" / "r.jsonl")
    assert discover("cursor", str(link), home=str(home)) == sorted([str(by_link), str(by_real)])


def test_belongs(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    projects = tmp_path / "home" / ".cursor" / "projects"
    ours = projects / reader.folder_name(os.path.realpath(root)) / "agent-transcripts"
    assert belongs("cursor", str(_session(ours / "a" / "a.jsonl")), str(root))
    assert belongs("cursor", str(_session(ours / "b.jsonl")), str(root))
    assert not belongs("cursor", str(_session(ours / "a" / "subagents" / "s.jsonl")), str(root))
    theirs = projects / "home-someone-else" / "agent-transcripts"
    assert not belongs("cursor", str(_session(theirs / "c" / "c.jsonl")), str(root))
    window = projects / "1771021702762" / "agent-transcripts"
    assert belongs("cursor", str(_session(window / "d.jsonl")), str(root))
    assert belongs("cursor", str(_session(tmp_path / "copies" / "e.jsonl")), str(root))
    _trust(projects / "renamed", str(root))
    assert belongs("cursor", str(_session(projects / "renamed" / "agent-transcripts" / "f.jsonl")), str(root))
    _trust(projects / reader.folder_name(os.path.realpath(root)), "/elsewhere/app")
    assert not belongs("cursor", str(ours / "b.jsonl"), str(root))


def test_an_inline_image_placeholder_leaves_the_words_around_it(tmp_path: Path) -> None:
    turns = _read(tmp_path, jsonl(_user(_query("Make it look like [Image] but darker."))))
    assert turns == [Turn("user", "Make it look like  but darker.", 1)]
