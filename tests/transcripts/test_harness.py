"""Only what the person typed is user text: every wrapper of Claude Code and Codex, in their shapes.

The fixtures hold one wrapper a line (see the comments in the tests); each test names the
line it is about.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from chord_memory.transcripts import Turn, discover, read_session
from chord_memory.transcripts.discover import belongs
from tests.transcripts.helpers import CC, CODEX_NOW, CODEX_OLD, FIXTURE_CWD, relocated


def users(path: Path, kind: str) -> list[tuple[int, str]]:
    return [(t.line, t.text) for t in read_session(kind, str(path)).turns if t.role == "user"]


def test_claude_code_prompts_are_what_was_typed() -> None:
    assert users(CC, "claude-code") == [
        (3, "The CLI flags should stay kebab-case, like --dry-run."),  # IDE file block beside it
        (5, "Rename this flag, we never use underscores in flag names."),  # IDE selection cut out
        (7, "Run the unit tests before you push."),  # a system reminder cut out
        (9, "The staging database is refreshed every Friday night."),  # the # shortcut's inside
        (10, "/review focus on the migration scripts"),  # a command with arguments
        (18, "As agreed:\n\nAlso, we deploy on Tuesdays only."),  # the pasted plan is the assistant's
        (20, "Implement the following plan:"),  # the plan after it is the assistant's
        (28, "[Image #1] The logo must stay left-aligned on mobile."),
    ]


@pytest.mark.parametrize("never", [
    "make test",  # bash mode input (line 1)
    "42 passed",  # bash mode output (2)
    "The user opened the file",  # IDE context (3, 5)
    "parser.add_argument",  # the selected code (5)
    "Do not mention this reminder",  # system reminder (7)
    "user-memory-input",
    "drops a column",  # the prompt the /review command expanded to (11)
    "npm run build",  # background task notification (13)
    "prettier",  # stop hook feedback (14)
    "signing keys never leave",  # the plan pasted back (18)
    "never upload keys",  # the plan after "Implement the following plan:" (20)
    "Caveat", "Set model to opus", "Request interrupted",  # 22-25
    "-n 4",  # another agent's message (26)
])
def test_claude_code_harness_text_never_reaches_a_user_turn(never: str) -> None:
    assert not any(never in text for _, text in users(CC, "claude-code"))


def test_claude_code_compaction_without_the_flag_is_history() -> None:
    history = [t for t in read_session("claude-code", str(CC)).turns if t.role == "history"]
    assert [t.line for t in history] == [27]


def test_claude_code_replies_are_kept_whole() -> None:
    replies = [t for t in read_session("claude-code", str(CC)).turns if t.role == "assistant"]
    assert replies[0] == Turn("assistant", "Noted: flags stay kebab-case.", 4)
    assert "Moved the release job." in [t.text for t in replies]


def test_codex_prompts_are_what_was_typed() -> None:
    assert users(CODEX_NOW, "codex") == [
        (5, "The CLI flags should stay kebab-case."),  # after "## My request for Codex:"
        (9, "We deploy on Tuesdays only, because the QA team is in on Mondays."),
        (12, ""),  # an image with no words: a turn, nothing to extract
        (21, "Plan moving the release job to our own runner."),
        (25, "PLEASE IMPLEMENT THIS PLAN:"),  # the plan after it is the assistant's
        (30, "You wrote:\n\nThat is right; remember it."),  # the pasted line is the assistant's
    ]


@pytest.mark.parametrize("never", [
    "AGENTS.md", "<INSTRUCTIONS>", "<environment_context", "Active file", "Open tabs",
    "screenshot.png", "<image", "git status", "interrupted", "description: Review",
    "always flag missing tests",  # a custom prompt file
    "Always sign the mobile builds",  # the plan, sent back twice
    "Always deploy from main",  # tool output
])
def test_codex_harness_text_never_reaches_a_user_turn(never: str) -> None:
    assert not any(never in text for _, text in users(CODEX_NOW, "codex"))


def test_codex_plan_mode_reply_is_the_whole_message() -> None:
    turns = read_session("codex", str(CODEX_NOW)).turns
    reply = next(t for t in turns if t.role == "assistant" and t.line == 23)
    assert "<proposed_plan>" in reply.text and "smoke tests against staging" in reply.text
    assert not any(t.text == "Here is the plan." for t in turns)


def test_codex_known_auxiliary_lines_are_not_counted() -> None:
    assert read_session("codex", str(CODEX_NOW)).skipped == 0


def test_codex_older_layout() -> None:
    session = read_session("codex", str(CODEX_OLD))
    assert (session.id, session.cwd, session.skipped) == (
        "5973b6c0-94b8-487b-a530-2aeb6098ae0e", FIXTURE_CWD, 0)
    assert session.turns == [
        Turn("user", "Always run the linters with make lint before pushing.", 6),
        Turn("assistant", "`make lint` runs ruff; I will run it before every push.", 12),
        Turn("user", "The staging database is refreshed every Friday night.", 14),
        Turn("assistant", "Noted.", 15),
    ]


def test_codex_older_layout_resumed_keeps_id_and_cwd() -> None:
    whole = read_session("codex", str(CODEX_OLD))
    data = CODEX_OLD.read_bytes()
    middle = data.index(b"The staging database")
    offset = data.rfind(b"\n", 0, middle) + 1
    rest = read_session("codex", str(CODEX_OLD), start_offset=offset)
    assert (rest.id, rest.cwd) == (whole.id, whole.cwd)
    assert rest.turns == whole.turns[2:]


def test_codex_older_layout_is_discovered_and_belongs(tmp_path: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    codex_home = tmp_path / "codex"
    rollout = relocated(CODEX_OLD, codex_home / "sessions/2025/08/02" / CODEX_OLD.name, str(project))
    assert belongs("codex", str(rollout), str(project))
    assert not belongs("codex", str(rollout), str(tmp_path))
    found = discover("codex", str(project), home=str(tmp_path), codex_home=str(codex_home))
    assert found == [str(rollout)]


@pytest.mark.parametrize(("fixture", "kind"), [(CC, "claude-code"), (CODEX_NOW, "codex")])
def test_an_echo_after_a_resume_is_still_caught(tmp_path: Path, fixture: Path, kind: str) -> None:
    """The assistant's words before the resume point are remembered, not only those after it."""
    path = tmp_path / fixture.name
    shutil.copy(fixture, path)
    whole = read_session(kind, str(path))
    data = path.read_bytes()
    for cut in range(1, data.count(b"\n")):
        offset = 0
        for _ in range(cut):
            offset = data.index(b"\n", offset) + 1
        part = tmp_path / f"part-{cut}-{fixture.name}"
        part.write_bytes(data[:offset])
        first = read_session(kind, str(part))
        part.write_bytes(data)
        rest = read_session(kind, str(part), start_offset=first.end_offset)
        split = [(t.line, t.text) for t in first.turns + rest.turns if t.role == "user"]
        assert split == [(t.line, t.text) for t in whole.turns if t.role == "user"], cut
