from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chord_memory.transcripts import Turn, aider, read_session
from tests.transcripts.helpers import FIXTURES, complete_lines

AIDER = FIXTURES / "aider" / ".aider.chat.history.md"
STRIPPED = FIXTURES / "aider" / "stripped.aider.chat.history.md"
CHANGELOG_LINE = "- `status --json` prints the status as one JSON object with snake_case keys."


def _user(inp: str) -> str:
    """What InputOutput.user_input appends for one message."""
    return ("\n#### " + "  \n#### ".join(inp.splitlines() or ["<blank>"])).rstrip() + "  \n"


def _tool(msg: str) -> str:
    """What tool_output / confirm_ask append (blockquote, two trailing spaces)."""
    return "> " + msg.strip() + "  \n"


def _ai(content: str) -> str:
    """What ai_output appends for one model reply."""
    return "\n" + content.strip() + "\n\n"


HEADER = "\n# aider chat started at 2025-10-03 09:00:00\n\n" + _tool("Aider v0.86.1")


def _write(path: Path, *writes: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes("".join(writes).encode())
    return str(path)


def _texts(path: str, role: str = "user") -> list[str]:
    return [t.text for t in read_session("aider", path).turns if t.role == role]


def test_fixture_turns() -> None:
    session = read_session("aider", str(AIDER))
    assert (session.kind, session.cwd) == ("aider", str(AIDER.parent))
    assert session.id == aider.session_id(str(AIDER)) and session.id.startswith("aider-")
    assert session.turns == [
        Turn("user", "Add a --json flag to the status command.", 10),
        # the reply without its reasoning and its edit (a SEARCH/REPLACE block aider applied)
        Turn("assistant", "I'll add the flag.\n\n#### Changes\n\n"
             "> Note: the output stays the same without the flag.", 14),
        Turn("user", "Please keep the output keys in snake_case.\n\nAnd sort them.", 41),
        Turn("assistant", "Renamed the keys to snake_case and sorted them.", 45),
        Turn("user", "/add docs/CHANGELOG.md", 49),
        Turn("user", "/architect", 52),
        Turn("user", "Release notes live in docs/CHANGELOG.md; add an entry for the flag.", 57),
        # the architect's plan: the editor model's reply after it is edits only
        Turn("assistant", 'Add an entry under "Unreleased" in docs/CHANGELOG.md:\n\n'
             f"{CHANGELOG_LINE}", 59),
        Turn("user", "/ask why does the test suite take so long?", 85),
        Turn("assistant", "The integration tests start a real server for each test; a "
             "session-scoped fixture would reuse it.", 89),
        Turn("user", "/help how do I add a file read-only?", 93),
        Turn("assistant", "Use `/read-only <file>`.", 106),
        Turn("user", "/lint", 110),
        Turn("assistant", "Imported `json` at the top of src/app/cli.py.", 124),
        Turn("user", "Look at src/app/db.py and src/app/models.py", 128),
        Turn("assistant", "db.py opens one connection per request; models.py defines the tables.",
             136),
        Turn("user", "/run pytest -q", 142),
        Turn("user", "What's wrong? Fix", 146),
        Turn("assistant", "test_status_json fails because the keys are not sorted; sorted them "
             "with `sort_keys=True`.", 148),
        Turn("user", "Earlier you said:\n\nDo that, and never start the server inside a unit test.",
             152),
        Turn("assistant", "Added a session-scoped `server` fixture in tests/conftest.py.", 158),
        Turn("user", "/ok", 162),
        Turn("assistant", "Done: the fixture is in place.", 166),
        Turn("user", "/model gpt-4o", 174),
        Turn("user", "!git status", 177),
        Turn("user", "/run pytest", 181),
        Turn("user", "Run the tests.", 192),  # no reply yet: the reply's line is being written
    ]


def test_fixture_skips_only_the_cut_last_line() -> None:
    session = read_session("aider", str(AIDER))
    assert session.skipped == 1
    assert session.end_offset == len(complete_lines(AIDER))


def test_stripped_trailing_spaces_give_the_same_prompts() -> None:
    """A history whose trailing spaces were stripped is read by the prefixes alone; a
    ``#### `` heading inside a reply is still the model's."""
    strict, stripped = read_session("aider", str(AIDER)), read_session("aider", str(STRIPPED))
    assert [t for t in stripped.turns if t.role == "user"] == [
        t for t in strict.turns if t.role == "user"]
    assert "Changes" not in [t.text for t in stripped.turns]


def test_what_aider_logs_as_input_but_the_user_did_not_type_is_dropped() -> None:
    text = "\n".join(t.text for t in read_session("aider", str(AIDER)).turns if t.role == "user")
    for dropped in (
        CHANGELOG_LINE,  # the architect's plan handed to the editor model
        "Add an entry under",
        "# Question:",  # /help: the docs aider looked up
        "Relevant docs",
        "Announcement lines",
        "# Fix any errors below",  # /lint: the errors sent to the model
        "F821",
        "(Y)es/(N)o",  # an answer a "(A)ll" choice gave
        "<blank>",
        "Ok, please go ahead",  # what /ok sends
    ):
        assert dropped not in text
    users = [t.text for t in read_session("aider", str(AIDER)).turns if t.role == "user"]
    assert users.count("/ask why does the test suite take so long?") == 1
    assert "why does the test suite take so long?" not in users  # logged again by /ask


def test_tool_output_reasoning_and_commits_never_appear_in_a_turn() -> None:
    text = "\n".join(t.text for t in read_session("aider", str(AIDER)).turns)
    for dropped in (
        "aider chat started",
        "Aider v0.86.1",
        "Tokens:",
        "Applied edit to",
        "Commit 1a2b3c4",
        "feat: Add --json flag",
        "Add file to the chat?",
        "Edit the files?",
        "thinking-content",
        "should add an argparse flag",  # reasoning
        "On branch main",  # command output written in one piece
        "nothing to commit",
        "test session starts",
        "collected 3 items",
        "Add the output to the chat?",
        "Added 14 lines of output",
        "All 42 tests pa",  # the reply being written
    ):
        assert dropped not in text


def test_every_harness_rule(tmp_path: Path) -> None:
    plan = "Rename `load` to `read_config` in src/app/config.py and update the two callers."
    path = _write(
        tmp_path / ".aider.chat.history.md", HEADER,
        _user("/help how do I undo?"),
        _user("# Question: how do I undo?\n\n# Relevant docs:\n\n<doc>/undo</doc>"),
        _ai("Use /undo."),
        _user("/lint src/app/cli.py"),
        _user("# Fix any errors below, if possible.\n\n## Running: flake8 src/app/cli.py"),
        _ai("Fixed."),
        _user("Rename load."), _ai(plan), _tool("Edit the files? (Y)es/(N)o [Yes]: y"),
        _user(plan), _ai("src/app/config.py\n```python\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n```"),
        _user("/code add a --quiet flag"), _user("add a --quiet flag"), _ai("Added."),
        _user("/ok run the tests after"),
        _user("Ok, please go ahead and make those changes. run the tests after"), _ai("Done."),
        _user("Run shell commands? (Y)es/(N)o/(S)kip all/(D)on't ask again [Yes]: skip"),
        _user(""),
        _user("I ran this command:\n\npytest -q\n\nAnd got this output:\n\n1 failed"),
    )
    assert _texts(path) == ["/help how do I undo?", "/lint src/app/cli.py", "Rename load.",
                            "/code add a --quiet flag", "/ok run the tests after"]
    assert _texts(path, "assistant") == ["Use /undo.", "Fixed.", plan, "Added.", "Done."]


def test_a_typed_message_that_looks_like_aiders_is_kept(tmp_path: Path) -> None:
    path = _write(tmp_path / "h.md", HEADER, _user("I ran this command: make, and it hangs."),
                  _user("# Question: should we keep the v1 API? I say no."))
    assert _texts(path) == ["I ran this command: make, and it hangs."]  # the second is /help's


def test_a_typed_message_like_a_relogged_one_is_kept_when_it_is_not_next(tmp_path: Path) -> None:
    path = _write(tmp_path / "h.md", HEADER, _user("/ask what is x?"), _user("what is x?"),
                  _ai("x is 1."), _user("what is x?"))
    assert _texts(path) == ["/ask what is x?", "what is x?"]
    assert [t.line for t in read_session("aider", path).turns if t.role == "user"] == [6, 13]


def test_an_echo_of_the_assistant_never_reaches_a_user_turn(tmp_path: Path) -> None:
    reply = ("The cache is keyed by the request path and the user id, and it expires after "
             "five minutes unless the handler sets its own timeout.")
    path = _write(tmp_path / "h.md", HEADER, _user("How does the cache work?"), _ai(reply),
                  _tool("Tokens: 1k sent, 40 received."),
                  _user(f"You wrote:\n\n{reply}\n\nMake it ten minutes."))
    assert _texts(path) == ["How does the cache work?", "You wrote:\n\nMake it ten minutes."]


def test_the_reply_is_the_last_one_before_the_next_prompt(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "h.md", HEADER, _user("Fix the import."),
        _ai("I'll look at cli.py first."), _tool("Tokens: 1k sent, 9 received."),
        _tool("src/app/cli.py"), _tool("Add file to the chat? (Y)es/(N)o [Yes]: y"),
        _ai("<think>\nIt needs json.\n</think>\n\nImported json."), _tool("Applied edit to x"),
        _user("Thanks."))
    session = read_session("aider", path)
    assert session.turns == [Turn("user", "Fix the import.", 6), Turn("assistant", "Imported json.", 14),
                             Turn("user", "Thanks.", 22)]


def test_marked_looking_lines_inside_a_reply_stay_in_the_reply(tmp_path: Path) -> None:
    """A real message follows a blank line and is never followed by text right away."""
    reply = ("Two steps.\n\n#### Step 1  \nRename the flag.\n#### Step 2  \n\n"
             "Update the docs.\n> quoted note\n\nDone.")
    path = _write(tmp_path / "h.md", HEADER, _user("Plan it."), _ai(reply), _tool("Tokens: 1k."),
                  _user("Go."))
    session = read_session("aider", path)
    assert [(t.role, t.text) for t in session.turns] == [
        ("user", "Plan it."), ("assistant", reply), ("user", "Go.")]


def test_edits_are_not_the_reply_other_code_is(tmp_path: Path) -> None:
    """What aider applies from a reply (its edit formats) is like a tool call elsewhere."""
    diff = ("src/a.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```")
    fenced = ("````\nsrc/a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n````")
    whole = "src/b.py\n```\nprint('all of the file')\n```"
    udiff = "```diff\n--- src/c.py\n+++ src/c.py\n@@ ... @@\n-a\n+b\n```"
    bare = "<<<<<<< SEARCH\ny = 1\n=======\ny = 3\n>>>>>>> REPLACE"
    patch = "*** Begin Patch\n*** Update File: src/d.py\n@@\n-a\n+b\n*** End Patch"
    example = "Call it like this:\n\n```python\nconfig = read_config(path)\n```"
    path = _write(
        tmp_path / "h.md", HEADER, _user("Change x."),
        _ai("\n\n".join(["Setting x to 2.", diff, fenced, whole, udiff, bare, patch, "Done."])),
        _tool("Applied edit to src/a.py"), _user("How do I call it?"), _ai(example),
        _user("Only edits now."), _ai(diff + "\n\n" + whole), _user("Thanks."))
    assert _texts(path, "assistant") == ["Setting x to 2.\n\nDone.", example]
    assert aider.without_edits("src/a.py\n\nNo code here.") == "src/a.py\n\nNo code here."


def test_multi_line_and_indented_prompts(tmp_path: Path) -> None:
    prompt = "Fix this:\n\n  File \"app.py\", line 3\n    return x +\nSyntaxError: invalid syntax"
    path = _write(tmp_path / "h.md", HEADER, _user(prompt), _ai("Closed the expression."))
    assert _texts(path) == [prompt]


def test_the_first_releases_shape(tmp_path: Path) -> None:
    """May 2023: a capitalized header, "_text_  " notes, "---" before "#### >  <prompt>",
    ORIGINAL/UPDATED blocks."""
    path = _write(
        tmp_path / ".aider.chat.history.md",
        "\n# Aider chat started at 2023-05-12 15:23:26\n\n",
        "_Creating /home/dev/flask/app.py_  \n_Add them? yes_  \n",
        "*Added app.py to the git repo*  \n\n",
        "---\n#### >  make a flask app with a /hello endpoint  \n\n",
        "Ok, here are the changes:\n\n```python\napp.py\n<<<<<<< ORIGINAL\n=======\n"
        "from flask import Flask\n>>>>>>> UPDATED\n```\n\nThis adds the `/hello` endpoint.\n\n",
        "_Applied edit to app.py_  \n_d8dab4e aider: Added a /hello endpoint._  \n\n",
        "---\n#### >  add /fibonacci/X  \n\nSure.\n\n_Applied edit to app.py_  \n")
    assert [(t.role, t.text, t.line) for t in read_session("aider", path).turns] == [
        ("user", "make a flask app with a /hello endpoint", 9),
        ("assistant", "Ok, here are the changes:\n\nThis adds the `/hello` endpoint.", 11),
        ("user", "add /fibonacci/X", 27),
        ("assistant", "Sure.", 29)]


def test_windows_line_endings(tmp_path: Path) -> None:
    path = tmp_path / "h.md"
    path.write_bytes("".join((HEADER, _user("Add a flag."), _ai("Added."))).replace(
        "\n", "\r\n").encode())
    assert [(t.role, t.text) for t in read_session("aider", str(path)).turns] == [
        ("user", "Add a flag."), ("assistant", "Added.")]


def test_malformed_binary_empty_and_other_formats_are_skipped(tmp_path: Path) -> None:
    empty = _write(tmp_path / "empty.md", "")
    assert read_session("aider", empty).turns == [] and read_session("aider", empty).skipped == 0
    binary = tmp_path / "binary.md"
    binary.write_bytes(bytes(range(256)) * 40 + b"\n")
    assert read_session("aider", str(binary)).turns == []
    jsonl = _write(tmp_path / "other.md", '{"type":"user","message":{"content":"hi"}}\n',
                   '{"type":"assistant"}\n')
    other = read_session("aider", jsonl)
    assert (other.turns, other.skipped, other.end_offset) == ([], 2, os.path.getsize(jsonl))
    readme = _write(tmp_path / "README.md", "# App\n\n#### Usage\n\n> Run it.\n\nText.\n")
    assert read_session("aider", readme).turns == []
    bad = tmp_path / "bad.md"
    bad.write_bytes(HEADER.encode() + _user("Caf\xe9 please.").encode("latin-1") + b"\n")
    assert _texts(str(bad)) == ["Caf\ufffd please."]


@settings(max_examples=80, deadline=None)
@given(data=st.lists(st.sampled_from([
    b"\n", b"#### a  \n", b"####  \n", b"#### b\n", b"> t  \n", b"> u\n", b"text\n", b"  \n",
    b"# aider chat started at x\n", b"\xff\xfe\n", b"\r\n", b"<think>\n", b"</think>\n",
    b"#### /ask q  \n", b"#### q  \n", b"#### <blank>  \n", b"#### ", b"tail"]), max_size=30))
def test_any_lines_never_raise(tmp_path_factory: pytest.TempPathFactory, data: list[bytes]) -> None:
    path = tmp_path_factory.mktemp("junk") / "h.md"
    raw = b"".join(data)
    path.write_bytes(raw)
    whole = read_session("aider", str(path))
    assert whole.end_offset <= raw.rfind(b"\n") + 1
    assert all(t.text for t in whole.turns)
    again = read_session("aider", str(path), start_offset=whole.end_offset)
    assert [t for t in again.turns if t.role == "user"] == []


def test_a_read_from_end_offset_adds_nothing() -> None:
    first = read_session("aider", str(AIDER))
    second = read_session("aider", str(AIDER), start_offset=first.end_offset)
    assert second.turns == [] and second.end_offset == first.end_offset
    assert (second.id, second.cwd) == (first.id, first.cwd)
    past = read_session("aider", str(AIDER), start_offset=10**9)
    assert past.turns == [] and past.end_offset == 10**9


def test_resume_at_every_line_boundary(tmp_path: Path) -> None:
    data = complete_lines(AIDER)
    path = tmp_path / ".aider.chat.history.md"
    path.write_bytes(data)
    whole = read_session("aider", str(path))
    for cut in [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]:
        path.write_bytes(data[:cut])
        first = read_session("aider", str(path))
        path.write_bytes(data)
        rest = read_session("aider", str(path), start_offset=first.end_offset)
        assert (rest.id, rest.cwd) == (whole.id, whole.cwd)
        assert rest.end_offset == len(data)
        assert all(turn.line > data[:first.end_offset].count(b"\n") for turn in rest.turns)
        prompt_line = data[:cut].count(b"\n") + 2
        if data[cut:].startswith(b"\n#### ") and any(
                t.role == "user" and t.line == prompt_line for t in whole.turns):
            # a cut just before a prompt: the parts add up to the whole
            assert first.turns + rest.turns == whole.turns


def test_a_growing_file_read_in_two_parts(tmp_path: Path) -> None:
    path = tmp_path / ".aider.chat.history.md"
    part1 = HEADER + _user("Add a flag.") + _ai("Added the flag.") + _tool("Tokens: 1k sent.")
    part2 = _user("Now document it.") + _ai("Documented it in README.md.")
    path.write_text(part1)
    first = read_session("aider", str(path))
    with open(path, "a") as f:
        f.write(part2)
    second = read_session("aider", str(path), start_offset=first.end_offset)
    whole = read_session("aider", str(path))
    assert first.turns + second.turns == whole.turns
    assert [t.text for t in second.turns] == ["Now document it.", "Documented it in README.md."]


def test_a_resumed_read_still_drops_a_hand_off_and_an_echo(tmp_path: Path) -> None:
    plan = "Move the retry loop into a helper and give it a jittered exponential backoff."
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(HEADER + _user("Plan the retry change.") + _ai(plan)
                    + _tool("Edit the files? (Y)es/(N)o [Yes]: y"))
    first = read_session("aider", str(path))
    with open(path, "a") as f:
        f.write(_user(plan) + _ai("Edited.") + _user(f"/ask {plan}") + _user(plan)
                + _user("Now the tests."))
    second = read_session("aider", str(path), start_offset=first.end_offset)
    assert [(t.role, t.text) for t in second.turns] == [("assistant", "Edited."),
                                                         ("user", "Now the tests.")]


def test_an_unterminated_last_line_holds_back_the_message_it_continues(tmp_path: Path) -> None:
    path = tmp_path / ".aider.chat.history.md"
    path.write_bytes((HEADER + "\n#### first line  \n#### second").encode())
    first = read_session("aider", str(path))
    assert first.turns == [] and first.skipped == 1
    assert first.end_offset == len(HEADER.encode()) + 1  # before the message, not inside it
    with open(path, "ab") as f:
        f.write(b" line  \n")
    second = read_session("aider", str(path), start_offset=first.end_offset)
    assert [t.text for t in second.turns] == ["first line\nsecond line"]
    # a reply being written is held back the same way
    path.write_bytes((HEADER + _user("Go.") + "\nDone with the").encode())
    third = read_session("aider", str(path))
    assert [t.role for t in third.turns] == ["user"]
    assert path.read_bytes()[third.end_offset:] == b"Done with the"


def test_a_huge_line_is_read_past_not_loaded(tmp_path: Path) -> None:
    path = tmp_path / ".aider.chat.history.md"
    with open(path, "wb") as f:
        f.write((HEADER + _user("Rewrite the data file.")).encode())
        f.write(b"\n" + b"x" * (20 * 1024 * 1024) + b"\n\n")  # one 20 MB line of the reply
        f.write(_tool("Tokens: 9k sent.").encode() + _user("Thanks.").encode() + _ai("Sure.").encode())
    started = time.monotonic()
    session = read_session("aider", str(path))
    assert time.monotonic() - started < 1.5
    assert [(t.role, t.text) for t in session.turns] == [
        ("user", "Rewrite the data file."), ("user", "Thanks."), ("assistant", "Sure.")]
    assert session.skipped == 1


def test_a_huge_reply_of_many_lines_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / ".aider.chat.history.md"
    with open(path, "wb") as f:
        f.write((HEADER + _user("Generate the fixtures.") + "\n").encode())
        f.write((b"fixture_row = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]\n")
                * (12 * 1024 * 1024 // 72))
        f.write(b"\n" + _tool("Tokens: 9k sent.").encode() + _user("Thanks.").encode())
    session = read_session("aider", str(path))
    assert [(t.role, t.text) for t in session.turns] == [
        ("user", "Generate the fixtures."), ("user", "Thanks.")]
    assert session.skipped == 1


# -- discovery -------------------------------------------------------------------------------


def test_discover_finds_this_projects_history_only(tmp_path: Path) -> None:
    home, project, other = tmp_path / "home", tmp_path / "work" / "app", tmp_path / "work" / "lib"
    for folder in (home, project, other):
        folder.mkdir(parents=True)
    mine = _write(project / ".aider.chat.history.md", HEADER)
    _write(other / ".aider.chat.history.md", HEADER)
    _write(home / ".aider.chat.history.md", HEADER)
    assert list(aider.discover(str(project), str(home), {})) == [mine]
    assert list(aider.discover(str(tmp_path / "missing"), str(home), {})) == []


def test_discover_follows_the_configured_history_file(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "app"
    home.mkdir()
    _write(project / ".aider.conf.yml", "model: sonnet\nchat-history-file: logs/aider.md\n")
    _write(home / ".aider.conf.yml", "chat-history-file: .aider.history.md  # every project\n")
    _write(project / ".env", "OPENAI_API_KEY=x\nexport AIDER_CHAT_HISTORY_FILE='notes/env.md'\n")
    found = {_write(project / name, HEADER) for name in (
        "logs/aider.md", ".aider.history.md", "notes/env.md", "from-env.md")}
    outside = _write(tmp_path / "elsewhere.md", HEADER)
    env = {"AIDER_CHAT_HISTORY_FILE": "from-env.md"}
    assert set(aider.discover(str(project), str(home), env)) == found
    assert outside not in aider.discover(str(project), str(home), {"AIDER_CHAT_HISTORY_FILE": outside})


def test_discover_survives_a_broken_config(tmp_path: Path) -> None:
    project = tmp_path / "app"
    _write(project / ".aider.conf.yml", "chat-history-file: [unclosed\n")
    mine = _write(project / ".aider.chat.history.md", HEADER)
    assert list(aider.discover(str(project), str(tmp_path / "nohome"), {})) == [mine]


def test_belongs(tmp_path: Path) -> None:
    project = tmp_path / "app"
    inside = _write(project / "journal" / "session.md", HEADER)
    outside = _write(tmp_path / "lib" / ".aider.chat.history.md", HEADER)
    assert aider.belongs(inside, str(project))
    assert aider.belongs(str(project / ".aider.chat.history.md"), str(project))
    assert not aider.belongs(outside, str(project))
    assert not aider.belongs(str(tmp_path / "app2" / "h.md"), str(project))
