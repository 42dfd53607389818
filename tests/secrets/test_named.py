"""Provider values told apart by their name (`named.py`): each entry's own examples."""
from __future__ import annotations

import pytest

from chord_memory.secrets import scan_text
from chord_memory.secrets.named import NAMED

EXAMPLES = [(n.kind, e) for n in NAMED for e in n.examples]
NOT_EXAMPLES = [(n.kind, e) for n in NAMED for e in n.not_examples]


def kinds(text: str) -> set[str]:
    return {f.kind for f in scan_text("# Notes\n\n" + text + "\nend\n")}


@pytest.mark.parametrize(("kind", "example"), EXAMPLES)
def test_named_value_found_as_its_kind(kind: str, example: str) -> None:
    assert kind in kinds(example)


@pytest.mark.parametrize(("kind", "example"), NOT_EXAMPLES)
def test_named_false_examples_are_not_that_kind(kind: str, example: str) -> None:
    assert kind not in kinds(example)


@pytest.mark.parametrize("text", [
    "asana_task_id = 1207418829635503",  # a provider's word and a number: no credential word
    "discord_channel: 836512847390475621",
    "The Asana project 1207418829635503 tracks it.",
])
def test_provider_word_beside_a_number_is_not_enough(text: str) -> None:
    assert kinds(text) == set()


def test_every_entry_has_examples_and_a_lowercase_word() -> None:
    assert all(n.examples and n.not_examples and n.word == n.word.lower() for n in NAMED)
