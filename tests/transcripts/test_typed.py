"""typed.py: harness tables and the echo filter, on their own."""
from __future__ import annotations

import pytest

from chord_memory.transcripts.typed import AFTER, CUT, DROP, HEAD, INNER, Echo, Harness, Rule, Voice

HARNESS = Harness((
    Rule("shell output", "<shell-output>", DROP),
    Rule("reminder", "<reminder>", CUT, "</reminder>"),
    Rule("query", "<user_query>", INNER, "</user_query>"),
    Rule("IDE", "# Context:", AFTER, "## Request:"),
    Rule("plan button", "IMPLEMENT THIS PLAN:", HEAD),
))


@pytest.mark.parametrize(("text", "typed"), [
    ("plain words", "plain words"),
    ("  <shell-output>ls\nsrc</shell-output>", ""),
    ("<SHELL-OUTPUT>case does not matter", ""),
    ("before<reminder>\nnot typed\n</reminder> after", "before after"),
    ("<reminder>all of it</reminder>", ""),
    ("<reminder>cut to the end without a close", ""),
    ("<user_info>os</user_info>", "<user_info>os</user_info>"),
    ("<user_query>\nthe request\n</user_query>", "the request"),
    ("<user_query>one</user_query>\n<reminder>x</reminder>", "one"),
    ("# Context:\n## Active file: a.py\n## Request:\nthe request", "the request"),
    ("# Context:\n## Active file: a.py\n", ""),
    ("IMPLEMENT THIS PLAN:\n1. the assistant's step", "IMPLEMENT THIS PLAN:"),
])
def test_each_kind_of_rule(text: str, typed: str) -> None:
    assert HARNESS.typed(text) == typed


ASSISTANT = ("To release, tag the commit on main, wait for the pipeline to publish the wheels, "
             "then announce it in the release channel with the changelog link.")


def test_a_pasted_paragraph_of_the_assistant_is_not_the_users() -> None:
    echo = Echo()
    echo.add("Sure.\n\n" + ASSISTANT + "\n\nAnything else?")
    pasted = f"You said:\n\n{ASSISTANT}\n\nBut we announce releases on the mailing list instead."
    assert echo.without(pasted) == "You said:\n\nBut we announce releases on the mailing list instead."


def test_a_pasted_line_of_a_list_is_dropped_but_short_lines_stay() -> None:
    echo = Echo()
    echo.add("Plan:\n- Always run the smoke tests against staging first\n- Done")
    text = "- Always run the smoke tests against staging first\n- Done\nyes"
    assert echo.without(text) == "- Done\nyes"


def test_the_users_own_words_that_share_some_words_stay() -> None:
    echo = Echo()
    echo.add(ASSISTANT)
    own = ("We never tag the commit on main ourselves: the release bot does it on Tuesdays, "
           "and nobody announces anything before QA signs off.")
    assert echo.without(own) == own


def test_nothing_is_dropped_before_the_assistant_said_anything() -> None:
    echo = Echo()
    assert echo.without(ASSISTANT) == ASSISTANT


def test_memory_is_bounded_whatever_the_assistant_writes() -> None:
    echo = Echo()
    chunk = " ".join(f"word{i}" for i in range(200_000))  # about 1.9 MB
    for _ in range(10):
        echo.add(chunk)
    assert echo.without("word10 word11 word12 word13 word14 word15 word16 word17 word18 word19 "
                      "word20 word21") == ""
    assert len(echo._bits) == 2 * 1024 * 1024


def test_voice_joins_typed_blocks_and_returns_none_when_nothing_is_typed() -> None:
    voice = Voice(HARNESS)
    assert voice.user(["<shell-output>x</shell-output>", "<reminder>y</reminder>"]) is None
    assert voice.user(["<user_query>a</user_query>", "b"]) == "a\n\nb"
    voice.assistant(ASSISTANT)
    assert voice.user([ASSISTANT]) is None
