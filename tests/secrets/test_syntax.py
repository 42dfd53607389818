"""The syntax table: every entry finds the value beside a secret-sounding name, whole."""
from __future__ import annotations

import pytest

from chord_memory.secrets import scan_text
from chord_memory.secrets.syntax import SYNTAXES

NAMES = ("apiToken", "DB_PASSWORD", "client_secret")
VALUE = "Zx9Vb4Nc1Tr6Ws3Yd8Kq2Lm7"
EXAMPLES = [(s.name, e) for s in SYNTAXES for e in s.examples]
NOT_EXAMPLES = [(s.name, e) for s in SYNTAXES for e in s.not_examples]


def render(template: str, name: str, value: str = VALUE) -> str:
    return "# Notes\n\n" + template.replace("{n}", name).replace("{v}", value) + "\nend\n"


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(("syntax", "template"), EXAMPLES)
def test_syntax_finds_the_value_whole(syntax: str, template: str, name: str) -> None:
    text = render(template, name)
    found = [(f.kind, text[f.start:f.end]) for f in scan_text(text)]
    assert ("env-assignment", VALUE) in found, syntax


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(("syntax", "template"), NOT_EXAMPLES)
def test_syntax_leaves_references_and_empty_values(syntax: str, template: str, name: str) -> None:
    assert scan_text(render(template, name)) == [], syntax


@pytest.mark.parametrize(("syntax", "template"), EXAMPLES)
def test_a_neutral_name_beside_a_value_is_not_a_secret(syntax: str, template: str) -> None:
    """The name makes it a secret: the same line under `userName` is nothing."""
    assert scan_text(render(template, "userName", "Zx9Vb4Nc1Tr6")) == [], syntax


def test_every_syntax_has_examples_and_distinct_names() -> None:
    assert all(s.examples for s in SYNTAXES)
    assert len({s.name for s in SYNTAXES}) == len(SYNTAXES)
