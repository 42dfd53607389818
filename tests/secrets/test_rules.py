"""Every rule finds its kind with the whole span, in the places Markdown puts it."""
from __future__ import annotations

import re

import pytest

from chord_memory.secrets import scan_text, scrub
from chord_memory.secrets.engine import _starts, lowered
from chord_memory.secrets.rules import LINE, TOKEN, all_rules, compiled
from tests.secrets.examples import samples

SAMPLES = samples()
PLACES = [
    "{v}",
    "- deploy with {v} today",
    "export SOME_VALUE={v}",
    "| service | `{v}` |",
    "```json\n{{\"value\": \"{v}\"}}\n```",
    "> **User:** here it is: {v}.",
]


def spans(text: str) -> list[tuple[str, str]]:
    return [(f.kind, text[f.start:f.end]) for f in scan_text(text)]


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@pytest.mark.parametrize("place", PLACES)
def test_provider_token_found_whole(kind: str, place: str) -> None:
    value = SAMPLES[kind]
    text = "# Notes\n\n" + place.format(v=value) + "\n"
    assert (kind, value) in spans(text)


def test_every_token_kind_has_a_sample() -> None:
    rules, _ = all_rules()
    token_kinds = {r.kind for r in rules if r.scope == TOKEN} - {"putty-private-key"}
    assert token_kinds <= set(SAMPLES)


def test_table_size() -> None:
    rules, _ = all_rules()
    assert len({r.kind for r in rules}) >= 80


def test_rules_compile_and_keywords_are_lowercase() -> None:
    rules, index = all_rules()
    for rule in rules:
        compiled(rule.pattern, rule.flags)
        assert rule.keywords and all(k == k.lower() for k in rule.keywords), rule.kind
        assert all(n == n.lower() for n in rule.needs), rule.kind
        if rule.scope == LINE:
            assert rule.check is not None or rule.entropy or "value" not in rule.pattern
    assert all(len(k) >= 2 for k in index.starts)


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_token_samples_start_where_the_prefilter_looks(kind: str) -> None:
    rules, _ = all_rules()
    if any(r.kind == kind and r.scope != TOKEN for r in rules):
        pytest.skip("found by a keyword rule")
    low = lowered(" " + SAMPLES[kind])
    assert 1 in set(_starts(low))


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_scrub_replaces_the_whole_token(kind: str) -> None:
    value = SAMPLES[kind]
    clean, found = scrub(f"token: {value} (rotated)\n")
    assert value not in clean
    assert f"[REDACTED:{kind}]" in clean
    assert [f.kind for f in found] == [kind]


@pytest.mark.parametrize("value", [
    "ghp_" + "x" * 36, "sk_live_" + "X" * 24, "AKIAIOSFODNN7EXAMPLE", "AKIA" + "A" * 16,
    "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "xoxb-not-a-real-token-this-will-not-work",
    "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "ghp_1234567890abcdefghijklmnopqrstuvwxyz",
    "sk-proj-…", "ghp_****************************abcd", "glpat-XXXXXXXXXXXXXXXXXXXX",
    "pk_live_" + "4eC39HqLyjWDarjtT1zdp7dc9Z", "AIzaSyDUMMY_EXAMPLE_KEY_0123456789abcde",
])
def test_documented_examples_and_masks_are_not_secrets(value: str) -> None:
    assert spans(f"- key: {value}\n") == []


def test_finding_positions_are_one_based_and_end_exclusive() -> None:
    value = SAMPLES["github-token"]
    text = f"line one\n  token {value}\n"
    (f,) = scan_text(text)
    assert (f.line, f.column, f.end_line, f.end_column) == (2, 9, 2, 9 + len(value))
    assert text[f.start:f.end] == value
    assert f.masked == value[:4] + "…"


@pytest.mark.parametrize(("text", "shown"), [
    ("my password is Zq8!mK2#vL9p\n", "…"),
    ("db: postgres://app:Zq8mK2vL9pXw@db.internal/app\n", "…"),
    ("export STRIPE_SECRET_KEY=Zq8mK2vL9pXwQ4rT7yU1\n", "…"),
    (f"token {SAMPLES['github-token']}\n", "ghp_…"),
])
def test_a_mask_shows_a_public_prefix_or_nothing(text: str, shown: str) -> None:
    """A password's first characters are part of the password; a token's prefix is public."""
    (f,) = scan_text(text)
    assert f.masked == shown


def test_multi_line_finding_positions() -> None:
    key = "-----BEGIN PRIVATE KEY-----\n" + "A1b2C3d4" * 8 + "\n-----END PRIVATE KEY-----"
    text = "x\n" + key + "\n"
    (f,) = scan_text(text)
    assert (f.line, f.column, f.end_line, f.end_column) == (2, 1, 4, 26)


def test_crlf_lines() -> None:
    value = SAMPLES["npm-token"]
    text = f"a\r\nNPM_TOKEN={value}\r\nDB_PASSWORD=Xk9#mQ2vLp\r\n"
    assert spans(text) == [("npm-token", value), ("env-assignment", "Xk9#mQ2vLp")]


def test_non_ascii_text_keeps_offsets() -> None:
    value = SAMPLES["github-token"]
    text = f"Naïve “quotes” — İstanbul 🎉 token: {value}\n"
    assert spans(text) == [("github-token", value)]


def test_long_lines_are_scanned() -> None:
    value = SAMPLES["github-token"]
    text = "x" * 50_000 + " " + value + " " + "y" * 50_000
    assert spans(text) == [("github-token", value)]


def test_kinds_are_slugs() -> None:
    rules, _ = all_rules()
    assert all(re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", r.kind) for r in rules)


def test_every_kind_is_documented() -> None:
    from tests.helpers import ROOT

    docs = (ROOT / "docs/secrets.md").read_text(encoding="utf-8")
    rules, _ = all_rules()
    missing = sorted({r.kind for r in rules if f"`{r.kind}`" not in docs})
    assert missing == []


RULE_EXAMPLES = [(r.kind, e) for r in all_rules()[0] for e in r.examples]
RULE_NOT_EXAMPLES = [(r.kind, e) for r in all_rules()[0] for e in r.not_examples]


@pytest.mark.parametrize(("kind", "example"), RULE_EXAMPLES)
def test_rule_finds_its_own_examples(kind: str, example: str) -> None:
    """Each rule's true examples sit beside it in the table (gitleaks' habit)."""
    assert kind in {k for k, _ in spans("# Notes\n\n" + example + "\n")}


@pytest.mark.parametrize(("kind", "example"), RULE_NOT_EXAMPLES)
def test_rule_leaves_its_own_false_examples(kind: str, example: str) -> None:
    assert kind not in {k for k, _ in spans("# Notes\n\n" + example + "\n")}


@pytest.mark.parametrize(("kind", "example"), RULE_EXAMPLES)
def test_no_finding_shows_more_than_a_public_prefix(kind: str, example: str) -> None:
    """Whatever a rule finds is shown masked: `…`, or a token kind's prefix and `…`."""
    prefixes = {k for r in all_rules()[0] if r.scope == TOKEN for k in r.keywords}
    for f in scan_text("# Notes\n\n" + example + "\n"):
        assert f.masked.endswith("…")
        assert f.masked[:-1] == "" or f.masked[:-1].lower() in prefixes
