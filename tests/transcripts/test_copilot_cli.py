from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from chord_memory.transcripts import Turn, discover, read_session
from chord_memory.transcripts.copilot_cli import HARNESS
from chord_memory.transcripts.discover import belongs
from tests.transcripts.helpers import FIXTURE_CWD, FIXTURES, complete_lines, jsonl, relocated

KIND = "copilot-cli"
SID = "5c1f9e2a-7b3d-4e8f-a6c0-2d9b8e7f6a51"
OLD_SID = "0b6c2a9e-3f41-4d7a-9c1e-8a2b5d4f6e70"
STATE = FIXTURES / "copilot_cli" / "session-state"
CURRENT = STATE / SID / "events.jsonl"  # 1.0.x: a folder per session, workspace.yaml beside
OLD = STATE / f"{OLD_SID}.jsonl"  # 0.0.3xx: a flat file, session.start without context


def test_fixture_turns() -> None:
    session = read_session(KIND, str(CURRENT))
    assert (session.kind, session.id, session.cwd) == (KIND, SID, FIXTURE_CWD)
    assert session.turns == [
        Turn("user", "Add a --json flag to the status command.", 4),
        Turn("assistant", "Added `--json` to `status`; it prints one JSON object.", 12),
        Turn("user", "Please keep the output keys in snake_case.", 14),
        Turn("assistant", "Renamed the keys to snake_case.\n\nTests still pass.", 21),  # two chunks
        Turn("history",
             "The user wants `status --json` with snake_case keys; the flag is in src/app/cli.py.", 27),
        Turn("user", "/release-notes add the flag", 30),  # typed; the skill's text after it is not
        Turn("assistant", "Added a CHANGELOG entry for the new json flag of status.", 33),
        Turn("user", "Use this config  for the test fixture.", 37),  # the paste marker cut out
        Turn("user", "Also use port 8080 there.", 39),  # steering: joins the running turn
        Turn("assistant", "Updated the fixture config to port 8080.", 40),
        Turn("user", "Thanks, ship it.", 41),  # the pasted-back reply is not the user's
        Turn("assistant", "Shipped.", 42),
    ]


def test_fixture_of_an_older_release() -> None:
    session = read_session(KIND, str(OLD))
    assert (session.id, session.cwd, session.skipped) == (OLD_SID, None, 0)
    assert session.turns == [
        Turn("user", "Which test runner does this repo use?", 4),
        Turn("assistant", "It uses pytest, configured in pytest.ini.", 8),
        Turn("user", "Always run it with -q here.", 10),  # `!make test` (line 9) is shell mode
        Turn("assistant", "Noted: I'll run `pytest -q`.", 11),
    ]


def test_fixture_skips_unknown_malformed_and_truncated_lines() -> None:
    session = read_session(KIND, str(CURRENT))
    assert session.skipped == 3  # mystery.event, "{not json", the cut last line
    assert session.end_offset == len(complete_lines(CURRENT))


def test_injections_tools_reasoning_and_sub_agents_never_appear() -> None:
    text = "\n".join(t.text for t in read_session(KIND, str(CURRENT)).turns)
    for dropped in (
        "<current_datetime>", "system_reminder", "sql_tables",  # transformedContent
        "You are the GitHub Copilot CLI",  # system.message
        "I'll look at the CLI first.",  # an intermediate message with a tool request
        "Inspecting the CLI", "Weighing output formats",  # reasoningText, assistant.reasoning
        "rg -n", "def status(args)",  # tool call and output
        "Find every key", "Sub-agent found", "Legacy sub-agent",  # sub-agent events
        "Shell shell-1 completed", "Continue working on the objective",  # notification, autopilot
        "Write release notes", "Run make test", "skill-context",  # skill injections
        "git status", "On branch main",  # `!git status`: a user-requested tool
        "Checking the fixture config.",  # replaced by the turn's final reply
        "still being wri",  # the unfinished last line
        "Paste #1",
    ):
        assert dropped not in text


# -- building sessions in the agent's shape ------------------------------------------------------


def _event(kind: str, data: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": kind, "data": data, **extra, "id": f"e-{kind}", "timestamp": "2026-08-05T20:40:13.490Z",
            "parentId": None}


def _start(cwd: str | None = FIXTURE_CWD, **more: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"sessionId": "s-1", "version": 1, "producer": "copilot-agent",
                            "copilotVersion": "1.0.80", "startTime": "2026-08-05T20:40:13.471Z", **more}
    if cwd is not None:
        data["context"] = {"cwd": cwd, "gitRoot": cwd, "branch": "main"}
    return _event("session.start", data)


def _user(content: str, **more: Any) -> dict[str, Any]:
    return _event("user.message", {"content": content, "transformedContent": f"<x>{content}</x>",
                                   "attachments": [], "interactionId": "i-1", **more})


def _reply(content: str, *tools: str, **more: Any) -> dict[str, Any]:
    requests = [{"toolCallId": f"call_{t}", "name": t, "arguments": {}} for t in tools]
    return _event("assistant.message", {"messageId": "m", "content": content, "toolRequests": requests,
                                        "interactionId": "i-1", **more})


def _write(tmp_path: Path, *events: dict[str, Any], name: str = "events.jsonl") -> Path:
    path = tmp_path / "sid-1" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(jsonl(*events))
    return path


def _turns(tmp_path: Path, *events: dict[str, Any]) -> list[Turn]:
    return read_session(KIND, str(_write(tmp_path, _start(), *events))).turns


# -- user text --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "typed"),
    [
        ("<skill-context name=\"db\">Use migrations.</skill-context>", None),
        ("<system_notification>Agent explore completed.</system_notification>", None),
        ("!npm test", None),
        ("Fix it.\n<system_reminder>todos: 2</system_reminder>", "Fix it."),
        ("<current_datetime>2026-08-05T20:40</current_datetime>\n\nFix it.", "Fix it."),
        ("Fix it.\n<tagged_files>\n* /src/a.py (12 lines)\n</tagged_files>", "Fix it."),
        ("<extension_context id=\"x\">{}</extension_context>\nFix it.", "Fix it."),
        ("Compare with [Paste #2 - 40 lines] please.", "Compare with  please."),
        ("What is wrong here? [📷 screenshot.png]", "What is wrong here?"),
    ],
)
def test_every_harness_rule(tmp_path: Path, content: str, typed: str | None) -> None:
    turns = _turns(tmp_path, _user(content))
    assert [t.text for t in turns if t.role == "user"] == ([typed] if typed else [])


def test_the_docs_name_every_rule() -> None:
    names = [rule.name for rule in HARNESS.rules]
    assert len(names) == len(set(names)) == 9


@pytest.mark.parametrize(
    ("more", "ends_the_run"),
    [
        ({"source": "system"}, True),  # a notification wakes the agent: a run of its own
        ({"source": "agent-7f3a"}, True),  # another agent's prompt
        ({"source": 7}, True),
        ({"isAutopilotContinuation": True}, True),
        ({"crossSession": {"integrity": "untrusted", "origin": "authenticated-cross-session"}}, True),
        ({"agentMode": "shell"}, True),
        ({"source": "skill-pdf"}, False),  # a skill's text, inside the run the prompt started
        ({"source": "system", "delivery": "steering"}, False),
        ({"parentToolCallId": "call_task"}, False),  # a sub-agent's
    ],
)
def test_user_messages_copilot_wrote_are_not_prompts(
    tmp_path: Path, more: dict[str, Any], ends_the_run: bool
) -> None:
    turns = _turns(tmp_path, _user("Deploy to staging."), _reply("Deployed."),
                   _user("Please continue with the staging rollout now.", **more), _reply("Rolled out."))
    replies = [Turn("assistant", "Deployed.", 3)] if ends_the_run else []
    assert turns == [Turn("user", "Deploy to staging.", 2), *replies, Turn("assistant", "Rolled out.", 5)]


def test_a_sub_agent_prompt_by_agent_id(tmp_path: Path) -> None:
    sub = _event("user.message", {"content": "Search the repo for TODOs."}, agentId="agent-1")
    main = _event("user.message", {"content": "Thanks."}, agentId="")
    turns = _turns(tmp_path, sub, main)
    assert turns == [Turn("user", "Thanks.", 3)]


def test_a_person_source_is_kept(tmp_path: Path) -> None:
    assert _turns(tmp_path, _user("Use tabs.", source="user"))[0] == Turn("user", "Use tabs.", 2)


def test_an_echo_of_the_assistant_never_reaches_a_user_turn(tmp_path: Path) -> None:
    plan = "Step one: move the parser into its own module and add tests for every format."
    turns = _turns(tmp_path, _user("Plan the refactor."), _reply(plan), _user(f"{plan}\n\nGo ahead with it."))
    assert [t.text for t in turns if t.role == "user"] == ["Plan the refactor.", "Go ahead with it."]


def test_an_echo_of_a_sub_agent_is_caught_too(tmp_path: Path) -> None:
    found = "The flaky test is test_login because it depends on the wall clock."
    turns = _turns(tmp_path, _user("Why is CI red?"),
                   _event("assistant.message", {"content": found}, agentId="agent-1"),
                   _user(found))
    assert [t.text for t in turns if t.role == "user"] == ["Why is CI red?"]


# -- the reply --------------------------------------------------------------------------------


def test_the_reply_is_the_last_text_before_the_next_prompt(tmp_path: Path) -> None:
    turns = _turns(
        tmp_path,
        _user("Rename the flag."),
        _reply("Looking at the flags.", "view"),
        _reply("", "edit"),  # tool requests only: the text so far stands
        _reply("Renamed it to --format."),
        _reply("", "bash"),
        _user("Thanks."),
    )
    assert turns == [Turn("user", "Rename the flag.", 2), Turn("assistant", "Renamed it to --format.", 5),
                     Turn("user", "Thanks.", 7)]


def test_an_attachment_sent_without_words_ends_the_turn(tmp_path: Path) -> None:
    image = [{"type": "file", "path": "/tmp/shot.png", "displayName": "shot.png"}]
    turns = _turns(tmp_path, _user("Fix the header."), _reply("Fixed the header."),
                   _user("", attachments=image), _reply("The screenshot shows the old logo."))
    assert turns == [Turn("user", "Fix the header.", 2), Turn("assistant", "Fixed the header.", 3),
                     Turn("assistant", "The screenshot shows the old logo.", 5)]


def test_chunks_of_one_response_are_joined(tmp_path: Path) -> None:
    turns = _turns(tmp_path, _user("q"), _reply("First part.", apiCallId="c1", chunkIndex=0, chunkCount=2),
                   _reply("Second part.", apiCallId="c1", chunkIndex=1, chunkCount=2),
                   _reply("A new response.", apiCallId="c2"))
    assert turns[-1] == Turn("assistant", "A new response.", 5)
    joined = _turns(tmp_path, _user("q"), _reply("First part.", apiCallId="c1", chunkIndex=0),
                    _reply("Second part.", apiCallId="c1", chunkIndex=1))
    assert joined[-1] == Turn("assistant", "First part.\n\nSecond part.", 3)


def test_task_complete_summary_is_the_reply(tmp_path: Path) -> None:
    turns = _turns(tmp_path, _user("Fix the build."), _reply("Fixing.", "bash"),
                   _event("session.task_complete", {"summary": "The build passes again.", "success": True}))
    assert turns[-1] == Turn("assistant", "The build passes again.", 4)


def test_history_from_compaction_and_handoff(tmp_path: Path) -> None:
    turns = _turns(
        tmp_path,
        _event("session.compaction_complete", {"success": False, "error": "Nothing to compact"}),
        _event("session.compaction_complete", {"success": True}),  # older releases: no summary
        _event("session.compaction_complete", {"success": True, "summaryContent": "sub"}, agentId="a-1"),
        _event("session.compaction_complete", {"success": True, "summaryContent": "Earlier: set up CI."}),
        _event("session.handoff", {"sourceType": "remote", "summary": "Remote: opened PR 12.",
                                   "handoffTime": "2026-08-05T20:40:13.490Z"}),
    )
    assert turns == [Turn("history", "Earlier: set up CI.", 5), Turn("history", "Remote: opened PR 12.", 6)]


# -- never raises ---------------------------------------------------------------------------


def test_malformed_binary_empty_and_other_formats_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    path.write_bytes(
        b"\x00\xff\xfe binary\n"
        + b"[1, 2]\n"
        + b'"a string"\n'
        + b"\n"
        + jsonl(
            {"type": "user", "message": {"role": "user", "content": "a Claude Code line"}},
            {"type": 12, "data": {}},
            _event("user.message", {"text": "no content field"}),
            _event("user.message", "not an object"),  # type: ignore[arg-type]
            _event("assistant.message", ["not", "an", "object"]),  # type: ignore[arg-type]
            _user("Still read."),
        )
    )
    session = read_session(KIND, str(path))
    assert session.turns == [Turn("user", "Still read.", 10)]
    assert session.skipped == 8
    assert session.id == tmp_path.name  # no session.start: the folder's name

    empty = tmp_path / "empty" / "events.jsonl"
    empty.parent.mkdir()
    empty.write_bytes(b"")
    assert read_session(KIND, str(empty)).turns == []
    with pytest.raises(OSError):
        read_session(KIND, str(tmp_path / "missing.jsonl"))


def test_an_unfinished_last_line_is_left_for_the_next_read(tmp_path: Path) -> None:
    path = _write(tmp_path, _start(), _user("Add a test."))
    whole = path.read_bytes()
    line = json.dumps(_reply("All tests pass now."), separators=(",", ":")).encode()
    path.write_bytes(whole + line[:40])
    first = read_session(KIND, str(path))
    assert (first.end_offset, first.skipped) == (len(whole), 1)
    assert [t.role for t in first.turns] == ["user"]
    path.write_bytes(whole + line + b"\n")
    second = read_session(KIND, str(path), start_offset=first.end_offset)
    assert second.turns == [Turn("assistant", "All tests pass now.", 3)]


# -- resuming ---------------------------------------------------------------------------------


def test_reading_from_end_offset_adds_nothing() -> None:
    first = read_session(KIND, str(CURRENT))
    again = read_session(KIND, str(CURRENT), start_offset=first.end_offset)
    assert (again.turns, again.id, again.cwd) == ([], first.id, first.cwd)
    assert again.end_offset == first.end_offset


def test_a_growing_file_read_in_two_parts_gives_the_same_turns(tmp_path: Path) -> None:
    data = complete_lines(CURRENT)
    lines = data.splitlines(keepends=True)
    path = tmp_path / SID / "events.jsonl"
    path.parent.mkdir()
    whole = read_session(KIND, str(CURRENT)).turns
    for cut in (5, 13, 29, 36):  # between turns (a read that ends mid-turn records the text so far)
        path.write_bytes(b"".join(lines[:cut]))
        first = read_session(KIND, str(path))
        path.write_bytes(data)
        second = read_session(KIND, str(path), start_offset=first.end_offset)
        assert (second.id, second.cwd) == (first.id, first.cwd) == (SID, FIXTURE_CWD)
        assert first.turns + second.turns == whole, cut


def test_an_echo_after_a_resume_is_still_caught(tmp_path: Path) -> None:
    plan = "I will split the importer into three modules and keep the public names."
    path = _write(tmp_path, _start(), _user("Plan it."), _reply(plan))
    first = read_session(KIND, str(path))
    with path.open("ab") as f:
        f.write(jsonl(_user(f"{plan}\n\nSounds good.")))
    second = read_session(KIND, str(path), start_offset=first.end_offset)
    assert second.turns == [Turn("user", "Sounds good.", 4)]


# -- discovery --------------------------------------------------------------------------------


def _session_dir(state: Path, sid: str, cwd: str, *, yaml_only: bool = False, **more: Any) -> Path:
    events = [_start(None if yaml_only else cwd, **more), _user("hello")]
    path = state / sid / "events.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(jsonl(*events))
    (state / sid / "workspace.yaml").write_text(f"id: {sid}\ncwd: '{cwd}'\nbranch: main\n")
    return path


def test_discovery_finds_this_projects_sessions_only(tmp_path: Path) -> None:
    home, project, other = tmp_path / "home", tmp_path / "proj", tmp_path / "other"
    project.mkdir()
    (project / "sub").mkdir()
    other.mkdir()
    state = home / ".copilot" / "session-state"
    mine = relocated(CURRENT, state / SID / "events.jsonl", str(project))
    theirs = _session_dir(state, "s-other", str(other))
    from_yaml = _session_dir(state, "s-yaml", str(project), yaml_only=True)
    spawned = _session_dir(state, "s-spawned", str(project), detachedFromSpawningParentSessionId=SID)
    in_subdir = state / "s-sub" / "events.jsonl"
    in_subdir.parent.mkdir()
    in_subdir.write_bytes(jsonl(_event("session.start", {"sessionId": "s-sub", "context": {
        "cwd": str(project / "sub"), "gitRoot": str(project)}})))
    flat_old = relocated(OLD, state / f"{OLD_SID}.jsonl", str(project))  # names no directory
    (state / "stray.txt").write_text("not a session")

    found = discover(KIND, str(project), home=str(home), env={})
    assert found == sorted([str(mine), str(from_yaml), str(in_subdir)])
    assert str(theirs) not in found and str(spawned) not in found and str(flat_old) not in found
    assert discover(KIND, str(other), home=str(home), env={}) == [str(theirs)]
    assert discover(KIND, str(project), home=str(tmp_path / "nobody"), env={}) == []


def test_discovery_follows_copilot_home_and_the_old_xdg_folders(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    moved = _session_dir(tmp_path / "ch" / "session-state", "s-1", str(project))
    xdg = _session_dir(tmp_path / "state" / ".copilot" / "session-state", "s-2", str(project))
    env = {"COPILOT_HOME": str(tmp_path / "ch"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_CONFIG_HOME": str(tmp_path / "missing")}
    found = discover(KIND, str(project), home=str(tmp_path / "home"), env=env)
    assert found == sorted([str(moved), str(xdg)])
    assert discover(KIND, str(project), home=str(tmp_path / "home"), env={}) == []


def test_belongs(tmp_path: Path) -> None:
    project, other = tmp_path / "proj", tmp_path / "other"
    project.mkdir()
    other.mkdir()
    glob_dir = tmp_path / "copies"
    mine = relocated(CURRENT, glob_dir / "a.jsonl", str(project))
    theirs = relocated(CURRENT, glob_dir / "b.jsonl", str(other))
    spawned = glob_dir / "c.jsonl"
    spawned.write_bytes(jsonl(_start(str(project), detachedFromSpawningParentSessionId="p")))
    assert belongs(KIND, str(mine), str(project))
    assert not belongs(KIND, str(theirs), str(project))
    assert not belongs(KIND, str(spawned), str(project))
    assert belongs(KIND, str(OLD), str(project))  # the file names no directory: the glob decides
    yaml = _session_dir(tmp_path / "state", "s-y", str(other), yaml_only=True)
    assert not belongs(KIND, str(yaml), str(project))
    here = _session_dir(tmp_path / "state", "s-p", str(project))
    assert belongs(KIND, str(here), str(project))
    assert not belongs(KIND, str(here.parent / "workspace.yaml"), str(project))  # a glob of the folder


def test_workspace_yaml_scalars(tmp_path: Path) -> None:
    state = tmp_path / "state"
    for i, (written, cwd) in enumerate([("'/w/it''s here'", "/w/it's here"), ('"/w/a\\tb"', "/w/a\tb"),
                                        ("/w/plain", "/w/plain")]):
        path = state / f"s{i}" / "events.jsonl"
        path.parent.mkdir(parents=True)
        path.write_bytes(jsonl(_event("user.message", {"content": "x"})))
        yaml = f"summary: |\n  cwd: /not/this\nid: s{i}\ncwd: {written}\n"  # a nested cwd is not it
        (path.parent / "workspace.yaml").write_text(yaml)
        session = read_session(KIND, str(path))
        assert (session.id, session.cwd) == (f"s{i}", cwd)


# -- size -------------------------------------------------------------------------------------


def test_a_20_mb_line_is_skipped_while_streaming(tmp_path: Path) -> None:
    huge = "x" * (20 * 1024 * 1024)
    path = _write(
        tmp_path,
        _start(),
        _user("Run the whole suite."),
        _event("tool.execution_complete", {"toolCallId": "c", "success": True, "result": {"content": huge}}),
        _reply(huge),  # an assistant message past 8 MiB: skipped and counted, never loaded
        _reply("All 1200 tests pass."),
    )
    t0 = time.perf_counter()
    session = read_session(KIND, str(path))
    assert time.perf_counter() - t0 < 2
    assert session.turns == [Turn("user", "Run the whole suite.", 2),
                             Turn("assistant", "All 1200 tests pass.", 5)]
    assert session.skipped == 2
