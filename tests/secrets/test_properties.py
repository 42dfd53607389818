"""Scrubbing, as properties: nothing left to find, idempotent, clean text untouched."""
from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chord_memory.secrets import scan_text, scrub
from chord_memory.secrets.engine import _starts, lowered
from tests.secrets.examples import samples

SECRETS = sorted(samples(7).values())
FRAGMENTS = [
    "- ", "\n", " ", "`", "\"", "'", "=", ": ", "|", "**", "> ", "```yaml\n", "```\n", "#",
    "DB_PASSWORD=", "export API_TOKEN=", "password is ", "token: ", "Authorization: Bearer ",
    "postgres://app:", "@db:5432/app", "?api_key=", "-----BEGIN RSA PRIVATE KEY-----\n",
    "-----END RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeL\n",
    "[REDACTED:github-token]", "pragma: allowlist secret", "Xk9#mQ2vLp", "hunter2-Blue!",
    "Zx9Vb4Nc1Tr6Ws3Yd8Kq2Lm7", "…", "—", "é", "\r\n", "\t", "SECRET_KEY", "name: ", "value: ",
]
pieces = st.one_of(
    st.sampled_from(FRAGMENTS), st.sampled_from(SECRETS),
    st.text(max_size=12), st.text(alphabet="abcXYZ019_-./+=:@$", max_size=20),
)
texts = st.lists(pieces, max_size=30).map("".join)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(texts)
def test_nothing_left_after_scrub(text: str) -> None:
    clean, _ = scrub(text)
    assert scan_text(clean) == []


@SETTINGS
@given(texts)
def test_scrub_is_idempotent(text: str) -> None:
    once, _ = scrub(text)
    twice, found = scrub(once)
    assert twice == once
    assert found == []


@SETTINGS
@given(texts)
def test_text_without_findings_is_returned_unchanged(text: str) -> None:
    if not scan_text(text):
        clean, found = scrub(text)
        assert clean == text and found == []


@SETTINGS
@given(st.sampled_from(SECRETS), texts, texts)
def test_planted_token_never_survives(secret: str, before: str, after: str) -> None:
    clean, found = scrub(f"{before}\n{secret}\n{after}")
    assert f"\n{secret}\n" not in clean
    assert found


def test_a_block_allowlisted_on_its_last_line_keeps_no_token_of_its_own_line() -> None:
    """Found by test_planted_token_never_survives: the pragma on a key block's END line took
    the whole block out, and with it a refresh token on a line of its own inside it."""
    token = "1//0" + "CtL31Ugq-DfcgaTMnTC0MrAU8urbFt5misIZHbhS4_FvafhdZxEuhnbzs0z1wNiMg9aW37k5wCnHDepQHgI3"
    text = (f"-----BEGIN RSA PRIVATE KEY-----\n\n{token}\n"
            "-----END RSA PRIVATE KEY----- pragma: allowlist secret")
    clean, found = scrub(text)
    assert token not in clean and [f.kind for f in found] == ["google-oauth-refresh-token"]


# The regular expression the prefilter's token starts replaced (secrets/engine.py: _starts);
# the starts must be the same, position for position.
_START = re.compile(rb"(?<![a-z0-9_\-.~])[a-z0-9](?=[a-z0-9_\-.~+/=]{15})")


@SETTINGS
@given(texts)
def test_token_starts_are_those_of_the_pattern(text: str) -> None:
    low = lowered(text)
    assert list(_starts(low)) == [m.start() for m in _START.finditer(low)]
