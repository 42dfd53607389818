from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from chord_memory.transcripts import Turn, checkpoint, counts_bytes, discover, read_session
from chord_memory.transcripts import gemini_cli as gemini
from chord_memory.transcripts.discover import belongs
from tests.transcripts.helpers import FIXTURE_CWD, FIXTURES

KIND = "gemini-cli"
DOC = FIXTURES / "gemini_cli" / "session-2025-10-03T09-10-0a1b2c3d.json"
LOG = FIXTURES / "gemini_cli" / "session-2026-05-22T15-00-d98cf9e7.jsonl"
FIXTURE_HASH = hashlib.sha256(FIXTURE_CWD.encode()).hexdigest()
TIME = "2025-10-03T09:10:00.000Z"


def _read(path: Path, start: int = 0) -> Any:
    return read_session(KIND, str(path), start)


def _user(key: str, content: Any, **extra: Any) -> dict[str, Any]:
    return {"id": key, "timestamp": TIME, "type": "user", "content": content, **extra}


def _gemini(key: str, content: Any, calls: int = 0, **extra: Any) -> dict[str, Any]:
    msg = {"id": key, "timestamp": TIME, "type": "gemini", "content": content,
           "thoughts": [{"subject": "Thinking it over", "description": "a thought", "timestamp": TIME}],
           "tokens": {"input": 1, "output": 1, "cached": 0, "thoughts": 0, "tool": 0, "total": 2},
           "model": "gemini-2.5-pro", **extra}
    if calls:
        msg["toolCalls"] = [_call(f"{key}-call{i}", "tool output") for i in range(calls)]
    return msg


def _call(key: str, output: str, status: str = "success") -> dict[str, Any]:
    response = {"functionResponse": {"id": key, "name": "run_shell_command", "response": {"output": output}}}
    return {"id": key, "name": "run_shell_command", "args": {"command": "ls"}, "result": [response],
            "status": status, "timestamp": TIME, "resultDisplay": output, "displayName": "Shell"}


def _document(path: Path, messages: list[Any], project_hash: str = FIXTURE_HASH, **extra: Any) -> Path:
    """A recording as Gemini CLI up to 0.38 writes it: JSON.stringify(record, null, 2)."""
    record = {"sessionId": "s-1", "projectHash": project_hash, "startTime": TIME, "lastUpdated": TIME,
              "messages": messages, **extra}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def _log(path: Path, records: list[Any], project_hash: str = FIXTURE_HASH, kind: str = "main") -> Path:
    """A recording as Gemini CLI from 0.39 writes it: a metadata line, then appended records."""
    meta = {"sessionId": "s-2", "projectHash": project_hash, "startTime": TIME, "lastUpdated": TIME,
            "kind": kind}
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in [meta, *records]]
    path.write_bytes(b"".join(lines))
    return path


def _typed(session: Any) -> list[str]:
    return [t.text for t in session.turns if t.role == "user"]


# -- the fixtures --------------------------------------------------------------------------------


def test_document_fixture_turns() -> None:
    session = _read(DOC)
    assert (session.kind, session.id, session.cwd) == (KIND, "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", None)
    assert session.turns == [
        Turn("user", "Add a --json flag to the status command.", 1),
        Turn("assistant", "Added `--json` to `status`; it prints one JSON object.", 4),
        Turn("user", "@src/app/cli.py keep the output keys in snake_case", 5),  # file contents cut
        Turn("assistant", "Also renamed them in the tests.", 8),  # after Gemini's "Please continue."
        Turn("user", "Run the tests, please.", 10),  # content as a list of parts
        Turn("assistant", "All 42 tests pass.", 13),  # an error message does not end the turn
        Turn("user", "Thanks, that's all for today.", 16),  # the directory context before it dropped
        Turn("assistant", "You're welcome.", 17),
    ]
    assert (session.end_offset, session.skipped) == (17, 1)  # element 14 is not a message


def test_jsonl_fixture_turns() -> None:
    session = _read(LOG)
    assert (session.id, session.cwd) == ("d98cf9e7-2b4a-4c1d-9e8f-7a6b5c4d3e2f", None)
    snapshot = ("<state_snapshot>\n<overall_goal>Make uploads robust.</overall_goal>\n"
                "<key_knowledge>upload() retries three times, TimeoutError included.</key_knowledge>\n"
                "</state_snapshot>")
    assert session.turns == [
        Turn("user", "Add retries to the upload client.", 3),
        Turn("assistant", "Added three retries with backoff to `upload()`.", 11),
        Turn("user", "/review src/app/upload.py", 16),  # the command line, not its template
        Turn("assistant", "`upload()` swallows `TimeoutError`; everything else is handled.", 18),
        Turn("user", "Retry on TimeoutError too.", 20),  # hook context cut
        Turn("assistant", "`TimeoutError` is retried as well now.", 25),
        Turn("history", snapshot, 28),
        Turn("user", "Write the changelog entry.", 33),
        Turn("assistant", "Added an entry under Unreleased in CHANGELOG.md.", 35),
    ]
    # "not an object", an unknown record, a broken line, the unterminated last line
    assert (session.end_offset, session.skipped) == (35, 4)


def test_injected_text_tools_and_thoughts_never_appear() -> None:
    text = "\n".join(t.text for path in (DOC, LOG) for t in _read(path).turns)
    for dropped in (
        "Content from referenced files", "def status(args)", "End of content",  # @ file contents
        "Please continue.", "<session_context>", "This is the Gemini CLI", "Workspace Directories",
        "I'm currently working", "editor context", "activeFile", "I ran the following shell command",
        "git status --short", "<hook_context>", "branch: main", "Review the code in",  # a template
        "Got it. Thanks", "I'll look at", "Running `make test` now.", "Done.",  # not final replies
        "Inspecting the CLI", "Locating the client", "Thinking it over",  # thoughts
        "42 passed", "Successfully modified", "return post(path)", "fileDiff",  # tool calls and output
        "Request cancelled.", "API Error", "Chat compressed",  # info, error
    ):
        assert dropped not in text


def test_unit_is_messages() -> None:
    assert gemini.UNIT == "messages" and not counts_bytes(KIND)


# -- what the user typed -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "typed"),
    [
        ("fix it\n--- Content from referenced files ---\nContent from @a.py:\nx = 1\n--- End of content ---",
         "fix it"),
        ("@a.py fix it\n--- Content from referenced files ---\nContent from @a.py:\nx = 1", "@a.py fix it"),
        ("fix it<hook_context>git: clean</hook_context>", "fix it"),
        ("<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n"
         "</session_context>", None),
        ("This is the Gemini CLI. We are setting up the context for our chat.\nToday's date is Monday.",
         None),
        ("I'm currently working in the directory: /src\nHere is the folder structure", None),
        ("I'm currently working in the following directories:\n  - /a\n  - /b", None),
        ("- **Workspace Directories:**\n  - /src/app\n- **Directory Structure:**", None),
        ("Here is the user's editor context as a JSON object. This is for your information only.\n"
         '```json\n{"activeFile": {}}\n```', None),
        ("Here is a summary of changes in the user's editor context, in JSON format. This is for "
         "your information only.\n```json\n{}\n```", None),
        ("I ran the following shell command:\n```sh\nls\n```\n\nThis produced the following result:\n"
         "```\na.py\n```", None),
        ("Please continue.", None),
        ("Please continue.\nAnd add a test for it.", "And add a test for it."),
        ("Please continue with the docs.", "Please continue with the docs."),
        ("System: Potential loop detected. Details: Repetitive patterns identified. Please take a "
         "step back.", None),
        ("[System: You successfully executed a tool but returned an empty response. Please analyze "
         "the tool output and explain your progress or final answer.]", None),
        ("\nYou are an AI agent that brings the power of Gemini directly into the terminal. Your task is "
         "to analyze the current directory and generate a comprehensive GEMINI.md file", None),
        ("Use pnpm, never npm.", "Use pnpm, never npm."),
    ],
)
def test_harness_rules(tmp_path: Path, content: str, typed: str | None) -> None:
    path = _document(tmp_path / "session-x.json", [_user("u1", content), _gemini("g1", "ok")])
    assert _typed(_read(path)) == ([typed] if typed else [])


def test_every_harness_rule_is_exercised_here() -> None:
    starts = {rule.start for rule in gemini.HARNESS.rules}
    source = Path(__file__).read_text(encoding="utf-8")
    for start in starts:
        assert start.strip()[:20] in source


@pytest.mark.parametrize(
    ("content", "display", "typed"),
    [
        ("Review src/upload.py for error handling.", "/review src/upload.py", "/review src/upload.py"),
        ("Review the code for error handling.", "/review", None),  # a bare command
        ("\nYou are an AI agent that brings the power of Gemini directly into the terminal.", "/init", None),
        ("Please continue.", "/review src/upload.py", None),  # the next-speaker check carries it on
        ("@a.py why?\n--- Content from referenced files ---\nx\n--- End of content ---", "@a.py why?",
         "@a.py why?"),
    ],
)
def test_display_content(tmp_path: Path, content: str, display: str, typed: str | None) -> None:
    record = _user("u1", [{"text": content}], displayContent=[{"text": display}])
    path = _log(tmp_path / "session-x.jsonl", [record, _gemini("g1", "ok")])
    assert _typed(_read(path)) == ([typed] if typed else [])


def test_content_shapes(tmp_path: Path) -> None:
    messages = [
        _user("u1", "a string"),
        _user("u2", ["a list of strings", " and more"]),  # 0.4 kept params.message as given
        _user("u3", [{"text": "parts"}, {"inlineData": {"mimeType": "image/png", "data": "iVBO"}}]),
        _user("u4", {"text": "one part"}),
        _user("u5", [{"inlineData": {"mimeType": "image/png", "data": "iVBO"}}]),  # no words
        _user("u6", 42),
        _user("u7", [{"text": "secret plan", "thought": True}, {"text": "shown"}]),
    ]
    assert _typed(_read(_document(tmp_path / "s.json", messages))) == [
        "a string", "a list of strings and more", "parts", "one part", "shown"]


def test_echo_of_the_assistant_is_not_user_text(tmp_path: Path) -> None:
    plan = ("Plan: move the retry loop into upload_with_retries, cap it at three attempts, back off "
            "exponentially from half a second, and log every failed attempt with its status code.")
    messages = [_user("u1", "How should retries work?"), _gemini("g1", plan),
                _user("u2", f"{plan}\n\nDo that, but cap it at five attempts.")]
    session = _read(_document(tmp_path / "s.json", messages))
    assert _typed(session) == ["How should retries work?", "Do that, but cap it at five attempts."]
    # after a resume the earlier reply still counts
    resumed = _read(_document(tmp_path / "s.json", messages), start=2)
    assert _typed(resumed) == ["Do that, but cap it at five attempts."]


def test_tool_responses_and_rebuilt_history_are_not_prompts(tmp_path: Path) -> None:
    response = [{"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": "TOOL OUT"}}}]
    records = [
        _user("u1", [{"text": "Read a.py."}]),
        _gemini("g1", "", calls=1),
        _user("r1", response),  # 0.50 on: a tool response is a user message
        _user("r2", [{"text": "with text"}, *response]),
        {"id": "b1", "timestamp": TIME, "type": "info",
         "content": [{"inlineData": {"mimeType": "image/png"}}]},
        _gemini("g2", [{"text": "Binary content received.", "thought": True}]),
        _gemini("g3", [{"text": "It defines x."}, {"functionCall": {"name": "x"}}], calls=0),
        _gemini("g4", "It defines x = 1."),
        {"$set": {"messages": [_user("u1", [{"text": "Read a.py."}]), _user("n1", [{"text": "NOT TYPED"}]),
                               _gemini("n2", [{"text": "Got it. Thanks for the additional context!"}])]}},
    ]
    session = _read(_log(tmp_path / "s.jsonl", records))
    assert session.turns == [Turn("user", "Read a.py.", 2), Turn("assistant", "It defines x = 1.", 9)]


def test_a_summary_recorded_as_its_own_message_is_history(tmp_path: Path) -> None:
    messages = [_user("u1", "<state_snapshot>\n<overall_goal>x</overall_goal>\n</state_snapshot>"),
                _user("u2", "Quote: <state_snapshot> is a tag."), _gemini("g1", "Yes.")]
    session = _read(_document(tmp_path / "s.json", messages))
    assert session.turns == [
        Turn("history", "<state_snapshot>\n<overall_goal>x</overall_goal>\n</state_snapshot>", 1),
        Turn("user", "Quote: <state_snapshot> is a tag.", 2), Turn("assistant", "Yes.", 3)]


def test_rewound_messages_are_kept(tmp_path: Path) -> None:
    records = [_user("u1", [{"text": "First try."}]), _gemini("g1", "Answer one."), {"$rewindTo": "u1"},
               _user("u2", [{"text": "Second try."}]), _gemini("g2", "Answer two.")]
    assert _typed(_read(_log(tmp_path / "s.jsonl", records))) == ["First try.", "Second try."]


def test_a_message_written_again_is_read_once(tmp_path: Path) -> None:
    records = [_user("u1", [{"text": "Go."}]), _user("u1", [{"text": "Go."}]), _gemini("g1", "Gone."),
               _gemini("g1", "Gone.")]
    session = _read(_log(tmp_path / "s.jsonl", records))
    assert session.turns == [Turn("user", "Go.", 2), Turn("assistant", "Gone.", 4)]
    doc = _read(_document(tmp_path / "s.json", [_user("u1", "Go."), _user("u1", "Go.")]))
    assert _typed(doc) == ["Go."]


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "skipped"),
    [
        (b"", 0),
        (b"\n\n", 0),
        (b"\x00\x01\x02\xff\xfe" * 1000, 1),
        (b'{"sessionId": "x", "projectHash": "y", "messages": [{"id": "a", "type": "user", '
         b'"content": "hi"}, {"id"', 1),  # a document cut short while being written
        (b"[1, 2, 3]", 1),
        (b'{"not": "a recording"}', 1),
        (b'{\n  "sessionId": "x",\n  "messages": 7\n}', 1),
        (b"{\n  \"sessionId\": \"x\",\n  \"messages\": [\n    {\"id\": \"a\", \"type\": \"robot\"},\n    "
         b"\"text\",\n    {\"type\": \"user\"}\n  ]\n}", 3),
    ],
)
def test_bad_input_is_skipped_and_counted(tmp_path: Path, data: bytes, skipped: int) -> None:
    path = tmp_path / "session-bad.json"
    path.write_bytes(data)
    assert _read(path).skipped == skipped


def test_bytes_that_are_not_utf8_are_replaced(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"sessionId":"x","projectHash":"y"}\n'
                     b'{"id":"a","timestamp":"t","type":"user","content":[{"text":"caf\xc3\xa9 \xff ok"}]}\n')
    session = _read(path)
    assert (_typed(session), session.skipped) == (["caf\u00e9 \ufffd ok"], 0)


def test_other_formats_give_no_turns(tmp_path: Path) -> None:
    for name in ("claude_code", "codex", "chord"):
        for other in (FIXTURES / name).glob("*.jsonl"):
            session = _read(other)
            assert session.turns == [] and session.skipped > 0


def test_a_missing_file_raises_oserror(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        _read(tmp_path / "gone.json")
    assert checkpoint(KIND, str(tmp_path / "gone.json"), 3) is None


def test_strings_across_chunk_boundaries(tmp_path: Path) -> None:
    """Escapes, quotes and backslash runs land on every side of the 1 MiB read boundaries."""
    messages: list[Any] = []
    for i in range(12):
        noise = ('\\"' * (i + 1) + "\\" * (2 * i + 1) + '"{[' + "x" * (37 * i)) * (2_000 + 300 * i)
        messages += [_user(f"u{i}", f"prompt {i} \\ \"quoted\""),
                     _gemini(f"g{i}", f"reply {i}", toolCalls=[_call(f"c{i}", noise)])]
        messages.append(_gemini(f"f{i}", f'final {i} "done"'))
    path = _document(tmp_path / "s.json", messages)
    assert path.stat().st_size > 5 * 1024 * 1024
    session = _read(path)
    assert _typed(session) == [f'prompt {i} \\ "quoted"' for i in range(12)]
    replies = [t.text for t in session.turns if t.role == "assistant"]
    assert replies == [f'final {i} "done"' for i in range(12)]
    assert (session.end_offset, session.skipped) == (36, 0)


def test_a_huge_element_is_read_past(tmp_path: Path) -> None:
    """A ~20 MB message is never kept whole: the part before its tool calls is enough."""
    big = "y" * (20 * 1024 * 1024)
    messages = [_user("u1", "Dump the log."),
                _gemini("g1", "Reading it.", toolCalls=[_call("c1", big)]),
                _gemini("g2", "The log is clean."),
                _user("u2", "x" * (9 * 1024 * 1024)),  # too big, and no tool calls to cut at
                _user("u3", "Thanks.")]
    session = _read(_document(tmp_path / "s.json", messages))
    assert session.turns == [Turn("user", "Dump the log.", 1), Turn("assistant", "The log is clean.", 3),
                             Turn("user", "Thanks.", 5)]
    assert (session.end_offset, session.skipped) == (5, 2)
    log = _read(_log(tmp_path / "s.jsonl", [_user("u1", [{"text": "Dump it."}]),
                                            _gemini("g1", "Reading.", toolCalls=[_call("c1", big)]),
                                            _gemini("g2", "Clean.")]))
    assert log.turns == [Turn("user", "Dump it.", 2), Turn("assistant", "Clean.", 4)]
    assert log.skipped == 1


# -- resuming ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("fixture", [DOC, LOG])
def test_a_read_from_end_offset_adds_nothing(fixture: Path) -> None:
    session = _read(fixture)
    again = _read(fixture, session.end_offset)
    assert again.turns == [] and again.end_offset == session.end_offset
    assert (again.id, again.cwd) == (session.id, session.cwd)
    assert checkpoint(KIND, str(fixture), session.end_offset) is not None


def test_a_document_rewritten_with_more_reads_in_two_parts(tmp_path: Path) -> None:
    path = tmp_path / "session-x.json"
    first = [_user("u1", "Add a cache."), _gemini("g1", "I'll look first.", calls=1)]
    _document(path, first)
    part1 = _read(path)
    assert part1.turns == [Turn("user", "Add a cache.", 1)]  # the turn goes on: its tool call is left
    assert part1.end_offset == 1
    mark = checkpoint(KIND, str(path), part1.end_offset)
    everything = [*first, _gemini("g2", "", calls=2), _gemini("g3", "Added an LRU cache."),
                  _user("u2", "Thanks."), _gemini("g4", "Sure.")]
    _document(path, everything)
    assert checkpoint(KIND, str(path), part1.end_offset) == mark  # the start is unchanged
    part2 = _read(path, part1.end_offset)
    assert part1.turns + part2.turns == _read(path).turns == [
        Turn("user", "Add a cache.", 1), Turn("assistant", "Added an LRU cache.", 4),
        Turn("user", "Thanks.", 5), Turn("assistant", "Sure.", 6)]
    assert part2.id == part1.id == "s-1"


def test_a_jsonl_that_grows_reads_in_two_parts(tmp_path: Path) -> None:
    path = tmp_path / "session-x.jsonl"
    records = [_user("u1", [{"text": "Add a cache."}]), _gemini("g1", "I'll look first."),
               _gemini("g1", "I'll look first.", calls=1)]
    _log(path, records)
    part1 = _read(path)
    assert part1.turns == [Turn("user", "Add a cache.", 2)] and part1.end_offset == 2
    more = [_user("r1", [{"functionResponse": {"id": "c", "name": "read_file", "response": {}}}]),
            _gemini("g2", "Added an LRU cache."), {"$set": {"lastUpdated": TIME}}]
    _log(path, records + more)
    part2 = _read(path, part1.end_offset)
    assert part1.turns + part2.turns == _read(path).turns == [
        Turn("user", "Add a cache.", 2), Turn("assistant", "Added an LRU cache.", 6)]
    assert (part2.id, part2.end_offset) == ("s-2", 7)


def test_an_unfinished_reply_is_not_consumed(tmp_path: Path) -> None:
    messages = [_user("u1", "Hi."), _gemini("g1", "Hello."), _user("u2", "Build it."), _gemini("g2", "")]
    session = _read(_document(tmp_path / "s.json", messages))
    assert session.end_offset == 3 and _typed(session) == ["Hi.", "Build it."]
    assert _read(tmp_path / "s.json", 3).turns == []


def test_checkpoint_changes_when_the_start_changes(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    _document(path, [_user("u1", "a"), _gemini("g1", "b"), _user("u2", "c"), _gemini("g2", "d")])
    mark = checkpoint(KIND, str(path), 4)
    _document(path, [_user("u1", "a"), _gemini("g1", "b"), _user("u3", "c"), _gemini("g3", "d")])  # rewound
    assert checkpoint(KIND, str(path), 4) not in (mark, None)
    _document(path, [_user("u1", "a")])
    assert checkpoint(KIND, str(path), 4) is None  # shorter than the offset
    log = _log(tmp_path / "s.jsonl", [_user("u1", [{"text": "a"}])])
    assert checkpoint(KIND, str(log), 2) is not None and checkpoint(KIND, str(log), 3) is None


# -- discovery -----------------------------------------------------------------------------------------


def _sha(path: Path) -> str:
    return hashlib.sha256(os.path.realpath(path).encode()).hexdigest()


def test_discovery_finds_this_projects_sessions_only(tmp_path: Path) -> None:
    home, root, other = tmp_path / "home", tmp_path / "src" / "app", tmp_path / "src" / "other"
    root.mkdir(parents=True)
    other.mkdir(parents=True)
    tmp = home / ".gemini" / "tmp"
    hashed = _document(tmp / _sha(root) / "chats" / "session-2025-10-03T09-10-aaaaaaaa.json",
                       [_user("u", "x")], _sha(root))
    # 0.30 on: a short name, mapped in projects.json and owned through .project_root
    (home / ".gemini" / "projects.json").write_text(json.dumps({"projects": {str(root): "app"}}))
    (tmp / "app").mkdir(parents=True)
    (tmp / "app" / ".project_root").write_text(str(root))
    slug = _log(tmp / "app" / "chats" / "session-2026-05-22T15-00-bbbbbbbb.jsonl", [], _sha(root))
    # a folder found by its marker alone (projects.json lost)
    (tmp / "app-1" / "chats").mkdir(parents=True)
    (tmp / "app-1" / ".project_root").write_text(str(root) + "\n")
    marked = _log(tmp / "app-1" / "chats" / "session-2026-05-23T10-00-cccccccc.jsonl", [], _sha(root))
    # not ours: another project, a sub-agent, a /chat save, a file naming another project
    (tmp / "other" / "chats").mkdir(parents=True)
    (tmp / "other" / ".project_root").write_text(str(other))
    _log(tmp / "other" / "chats" / "session-2026-05-22T15-00-dddddddd.jsonl", [], _sha(other))
    _document(tmp / _sha(other) / "chats" / "session-2025-10-03T09-10-eeeeeeee.json", [], _sha(other))
    _log(tmp / "app" / "chats" / "bbbbbbbb-full-id" / "0la501.jsonl", [], _sha(root), kind="subagent")
    (tmp / "app" / "checkpoint-mytag.json").write_text("[]")
    _log(tmp / "app" / "chats" / "session-2026-05-22T16-00-ffffffff.jsonl", [], _sha(other))
    found = list(discover(KIND, str(root), home=str(home), env={}))
    assert found == sorted([str(hashed), str(slug), str(marked)])
    assert list(discover(KIND, str(tmp_path / "nothing"), home=str(home), env={})) == []
    assert list(discover(KIND, str(root), home=str(tmp_path / "no-home"), env={})) == []


def test_discovery_keeps_one_copy_of_a_session(tmp_path: Path) -> None:
    home, root = tmp_path / "home", tmp_path / "app"
    root.mkdir()
    tmp = home / ".gemini" / "tmp"
    name = "session-2025-10-03T09-10-aaaaaaaa"
    _document(tmp / _sha(root) / "chats" / f"{name}.json", [_user("u", "x")], _sha(root))
    (tmp / "app").mkdir(parents=True)
    (tmp / "app" / ".project_root").write_text(str(root))
    _document(tmp / "app" / "chats" / f"{name}.json", [_user("u", "x")], _sha(root))  # the copy 0.30 made
    newest = _log(tmp / "app" / "chats" / f"{name}.jsonl", [_user("u", [{"text": "x"}])], _sha(root))
    assert list(discover(KIND, str(root), home=str(home), env={})) == [str(newest)]


def test_discovery_follows_gemini_cli_home(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    moved = tmp_path / "elsewhere"
    path = _document(moved / ".gemini" / "tmp" / _sha(root) / "chats" / "session-a.json", [], _sha(root))
    sandboxed = _document(moved / ".cache" / ".gemini" / "tmp" / _sha(root) / "chats" / "session-b.json", [],
                          _sha(root))
    env = {"GEMINI_CLI_HOME": str(moved)}
    found = discover(KIND, str(root), home=str(tmp_path / "home"), env=env)
    assert list(found) == sorted([str(path), str(sandboxed)])


def test_belongs(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    ours = _document(tmp_path / "anywhere" / "s.json", [], _sha(root))
    theirs = _log(tmp_path / "anywhere" / "t.jsonl", [], hashlib.sha256(b"/elsewhere").hexdigest())
    sub = _log(tmp_path / "anywhere" / "u.jsonl", [], _sha(root), kind="subagent")
    nameless = tmp_path / "anywhere" / "v.json"
    nameless.write_text(json.dumps({"sessionId": "x", "messages": []}))
    in_other_hash = tmp_path / ".gemini" / "tmp" / ("0" * 64) / "chats" / "w.json"
    in_other_hash.parent.mkdir(parents=True)
    in_other_hash.write_text(json.dumps({"sessionId": "x", "messages": []}))
    in_our_hash = tmp_path / ".gemini" / "tmp" / _sha(root) / "chats" / "w.json"
    in_our_hash.parent.mkdir(parents=True)
    in_our_hash.write_text(json.dumps({"sessionId": "x", "messages": []}))
    nested = _log(tmp_path / "chats" / "parent-id" / "x.jsonl", [], _sha(root))
    assert belongs(KIND, str(ours), str(root))
    assert not belongs(KIND, str(theirs), str(root))
    assert not belongs(KIND, str(sub), str(root))
    assert belongs(KIND, str(nameless), str(root))
    assert not belongs(KIND, str(in_other_hash), str(root))
    assert belongs(KIND, str(in_our_hash), str(root))
    assert not belongs(KIND, str(nested), str(root))
    assert not belongs(KIND, str(LOG), str(root)) and belongs(KIND, str(LOG), FIXTURE_CWD)


def test_belongs_through_a_symlinked_root(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    path = _document(tmp_path / "s.json", [], hashlib.sha256(str(real).encode()).hexdigest())
    assert belongs(KIND, str(path), str(link))
