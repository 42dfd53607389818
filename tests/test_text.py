"""chord_memory.text.clean: the ASCII fast path replaces exactly what the pattern does."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chord_memory import text

_CHARS = st.sampled_from(["a", " ", "\t", "\n", "\r", "\x00", "\x08", "\x0b", "\x1f", "\x7f", "\x80", "\x9f",
                          "\xa0", "é", "\ud800", "\udfff", "😀", "\ufffd"])


@settings(max_examples=500, deadline=None)
@given(st.lists(_CHARS, max_size=40).map("".join))
def test_clean_replaces_what_the_pattern_finds_and_nothing_else(said: str) -> None:
    assert text.clean(said) == text._BAD.sub(text.REPLACEMENT, said)


def test_a_control_character_past_the_first_piece_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text, "_PIECE", 4)
    assert text.clean("abcdefgh\x01") == "abcdefgh\ufffd"
    assert text.clean("abcdefgh") == "abcdefgh"
