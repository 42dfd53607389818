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


@pytest.mark.parametrize("text", [
    "API_TOKEN=Zx9Vb4?c1Tr6Ws3Yd8Kq2Lm7",   # one character outside a token's alphabet
    "api_key: 'a8F#kQ9zLm2Pq7Rs4Tv6'",
])
def test_a_mangled_token_under_a_token_name_is_not_a_secret(text: str) -> None:
    assert scan_text("# Notes\n\n" + text + "\n") == []


@pytest.mark.parametrize(("text", "value"), [
    ("SECRET_KEY = 'k3#9x!q@2v$7m%p^5z&8w*1r(4t)6y_0u+=b-n'", "k3#9x!q@2v$7m%p^5z&8w*1r(4t)6y_0u+=b-n"),
    ("DB_PASSWORD=Xk9#mQ2vLp", "Xk9#mQ2vLp"),
    ("client_secret: 'a8F#kQ9zLm2Pq7Rs4Tv6'", "a8F#kQ9zLm2Pq7Rs4Tv6"),  # a secret may be typed
])
def test_symbols_throughout_or_under_a_password_name_still_count(text: str, value: str) -> None:
    found = scan_text("# Notes\n\n" + text + "\n")
    assert [f.kind for f in found] == ["env-assignment"]
    assert found[0].end - found[0].start == len(value)


@pytest.mark.parametrize("text", [
    'nonMatchingToken := "qka8mariexjs7i3e"',      # the name says it is no real one
    "fakeApiKey = 'Zx9Vb4Nc1Tr6Ws3Yd8Kq2Lm7'",
    'publicToken = "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AI"',
    "BlindKeySignatures = Ed25519.BlindKeySignatures",  # a path to the name itself
    "key_down_event=.l44B4B4cyMQgO_hmsJbZJ29T-BroW",    # a keyboard key
    'notes = "Maven - io.jsonwebtoken:jjwt-jackson-0.11.2"',  # a package and its version
    "export OP_SERVICE_ACCOUNT_TOKEN=ops_eyJzaWduSW5BZGRyZXNzIjoiaHR0cHM6...",  # cut short
    '"token3": "xoxp-1234-1234-1234-4ddbc191d40ee098cbaae6f3523ada2d"',  # not Slack's shape
    'telegram_api_token = "2076:Asapyu9th1uox5zhfv0mueskjds5_nm6_1k"',  # not Telegram's
    "curl --user neo4j:[PASSWORD] http://[IP]:7474/db/data/",
    '<assemblyIdentity name="Microsoft.VC90.CRT" publicKeyToken="1fc8b3b9a1e18e3b"/>',  # .NET
])
def test_values_that_only_look_like_secrets(text: str) -> None:
    assert scan_text("# Notes\n\n" + text + "\n") == []


@pytest.mark.parametrize("text", [
    "- `API_TOKEN` - see the vault entry for staging",
    'System.setProperty("api.token", System.getenv("API_TOKEN"))',
    "MAX_TOKENS ?= 4096",
    'var tokenizer string = "bert-base-uncased"',
    'var secretName string = "db-creds"',
    "$passwordHash .= password_hash($plain, PASSWORD_DEFAULT);",
    "<authToken>\n  ${AUTH_TOKEN}\n</authToken>",
    '<string name="api_key_label">API key</string>',
    'os.Setenv("GITHUB_TOKEN", "")',
    "export TOKEN_TTL ::= 3600",
    "The token - as the runbook says - lives in Vault.",
])
def test_new_syntaxes_keep_ordinary_markdown_quiet(text: str) -> None:
    assert scan_text("# Notes\n\n" + text + "\n") == []
