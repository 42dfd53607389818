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


@pytest.mark.parametrize("text", [
    "meraki-api-key: acdeFf05b1a6d4c890237bf08c5e6e8d2b4d0f2e",  # Meraki keys are 40 lower hex
    "meraki_token = 5cb4a5f04cd412fe946667b17f0129ba17aeb2e0c7b5b7264efcebf7d022bfe2R21",
    "SUMO_ACCESS_KEY: AbCeFG123",
    'telegram_api_token = "91821610305101863:A01-xoxw7neq4ghii3k853c5o0vwsb08ujo"',
])
def test_a_provider_named_value_out_of_its_format_is_not_reported(text: str) -> None:
    assert kinds(text) == set()


@pytest.mark.parametrize("text", [
    "MERAKI_API_KEY=3f9a1c2e5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a",
    "export TELEGRAM_BOT_TOKEN=5829461037:AAHq8Zx3Lm9Vb2Nc7Tr4Ws1Yd6Kp0Hf5Gj",
])
def test_a_provider_named_value_in_its_format_is(text: str) -> None:
    assert kinds(text)
