"""Value checks of the context rules: does this match hold a secret?

Each check takes the match and the value it found (the `value*` or `bare`
group, trimmed) and answers yes or no; every one of them includes
`filters.plausible`, directly or through `literal` and the tiers.
"""
from __future__ import annotations

import re

from chord_memory.secrets import filters, named, names
from chord_memory.secrets.rules import lazy

_QUOTED = ("value", "value2", "value3", "value5")


def _quoted(m: re.Match[str]) -> bool:
    return any(m.group(g) is not None for g in _QUOTED if g in m.re.groupindex)


def by_name(m: re.Match[str], value: str) -> bool | str:
    """The value beside a name: a provider's kind when the name and shape say so (`named`),
    else as literal as the name's tier asks."""
    name = m.group("name")
    if value.lower() == name.lower() or value.endswith("." + name):
        return False  # the name itself, or a path to it (`Ed25519.BlindKeySignatures`)
    kind = named.kind_of(name, value)
    if kind is not None and filters.plausible(value) and not (
        filters.is_placeholder(value) or filters.wordy(value)
    ):
        return kind
    level = names.tier(name)
    if level is None:
        return False
    if level == names.PASSWORD:
        return filters.password_like(value, quoted=_quoted(m))
    if _malformed(name, value) or not (filters.one_alphabet(value) or names.says_secret(name)):
        return False  # a key or token is generated from one alphabet; a `*_SECRET` may be typed
    if level == names.SECRET:
        return filters.credential_like(value)
    return filters.random_like(value)


# Token prefixes whose every issued shape is in the rule table (Slack's): a value with one that
# no rule matched (had one, its finding wins) is a placeholder or a mangled sample.
_COMPLETE_PREFIXES = ("xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxo-", "xoxe-", "xoxe.")


def _malformed(name: str, value: str) -> bool:
    """A provider's token out of its shape: a complete prefix (`xoxp-1234-…`), or a name
    holding a provider's word (`telegram_api_token`) over a value not in that provider's
    format (`named.FORMATS`)."""
    return value.lower().startswith(_COMPLETE_PREFIXES) or named.off_format(name, value)


def credential(m: re.Match[str], value: str) -> bool:
    return filters.credential_like(value)


def password(m: re.Match[str], value: str) -> bool:
    return filters.password_like(value, quoted=True)


def prose_password(m: re.Match[str], value: str) -> bool:
    if len(value) > 64 or value[0] in "=:,;" or value.startswith("//"):  # `http://…`
        return False
    if _quoted(m):
        raw = next(m.group(g) for g in _QUOTED if g in m.re.groupindex and m.group(g) is not None)
        return raw == raw.strip() and filters.password_like(value, quoted=True)
    strong = any(c.isdigit() for c in value) or any(
        not c.isalnum() and c not in "-_'" for c in value
    ) or (any(c.isupper() for c in value[1:]) and any(c.islower() for c in value))
    return strong and filters.password_like(value)


def juxtaposed(m: re.Match[str], value: str) -> bool:
    """A quoted value straight after "secret" or "token" ("and shared secret `…`"): a generated
    value, or one that reads as a password (both cases and a digit, or a symbol), not a name
    (`app-secrets-v2`, `STRIPE_KEY`, `ctrl+shift+p`)."""
    if filters.random_like(value):
        return True
    symbol = any(c in "!@#$%^&*?~" for c in value)
    return (filters.mixed(value) or symbol) and filters.password_like(value, quoted=True) and \
        not filters.identifier(value)


def named_after(m: re.Match[str], value: str) -> bool:
    """`X` as the password / `X` is my token: the value comes before the word."""
    what = m.group("what").lower()
    if what.startswith("p"):
        return filters.password_like(value, quoted=True)
    return filters.random_like(value)


_NOT_SEED_WORDS = frozenset((
    "the", "and", "of", "to", "in", "is", "it", "for", "on", "with", "as", "at", "by", "this",
    "that", "be", "are", "was", "or", "an", "from", "but", "not", "we", "you", "they", "use",
))


def seed(m: re.Match[str], value: str) -> bool:
    """12 to 24 words from a wallet word list (BIP-39 words: no function words)."""
    words = value.split()
    return len(words) in (12, 15, 18, 21, 24) and not _NOT_SEED_WORDS.intersection(words)


def connection(m: re.Match[str], value: str) -> bool:
    text = m.string
    start = text.rfind("\n", 0, m.start()) + 1
    end = text.find("\n", m.end())
    line = text[start:end if end != -1 else len(text)]
    return line.count(";") >= 1 and line.count("=") >= 2 and filters.password_like(value, True)


WEAK_QUALIFIERS = frozenset((
    "primary", "cache", "partition", "sort", "idempotency", "public", "foreign", "object",
    "routing", "lookup", "row", "hash", "page", "next", "cursor", "sync", "csrf", "xsrf",
))


_WORD_BEFORE = lazy(r"([A-Za-z]+)[ _-]$")


def _glued(text: str, end: int) -> bool:
    """Does more than a sentence's punctuation follow the value at end?"""
    nxt, after = text[end:end + 1], text[end + 1:end + 2]
    if not nxt or nxt.isspace():
        return False
    return nxt not in ".,)]}" or bool(after and not after.isspace())


def prose_secret(m: re.Match[str], value: str) -> bool:
    if m.group("bare") is not None and _glued(m.string, m.end()):
        return False  # the value goes on in characters no token has: `Key=Zx9…Tl:c*X`
    before = _WORD_BEFORE().search(m.string, max(0, m.start() - 40), m.start())
    qualifier = before.group(1).lower() if before else ""
    starts = [m.start(g) for g in (*_QUOTED, "bare") if g in m.re.groupindex and m.start(g) != -1]
    said = m.string[max(0, m.start() - 40):min(starts, default=m.end())]  # what names the value
    return (qualifier not in WEAK_QUALIFIERS and filters.one_alphabet(value)
            and not named.off_format(said, value) and filters.random_like(value))


_EXAMPLE_HOST = lazy(r"@(?:[\w-]+\.)*(?:example\.(?:com|org|net)|[\w-]+\.(?:example|test|invalid))\b")


def url_password(m: re.Match[str], value: str) -> bool:
    if _EXAMPLE_HOST().match(m.string, m.end("value")):  # RFC 2606 documentation hosts
        return False
    return len(value) >= 3 and filters.literal(value) and value != m.group("user")


def query(m: re.Match[str], value: str) -> bool:
    level = names.tier(m.group("name"))
    if level == names.PASSWORD:
        return filters.password_like(value)
    return filters.random_like(value) if level == names.KEY else filters.credential_like(value)


def header(m: re.Match[str], value: str) -> bool:
    if m.group("scheme").lower() == "basic":
        import base64
        import binascii

        try:
            decoded = base64.b64decode(value, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            return filters.credential_like(value)
        user, _, password = decoded.partition(":")
        return bool(password) and filters.literal(password) and password != user
    return filters.credential_like(value)


def key_body(m: re.Match[str], value: str) -> bool:
    if not filters.plausible(value):
        return False
    body = re.sub(r"-{4,5} ?(?:BEGIN|END)[^-]*-{4,5}|\\n|\s|[>*-]", "", value)
    return len(re.findall(r"[A-Za-z0-9+/=]{16,}", body)) > 0 and len(body) >= 40


def base64_jwt(m: re.Match[str], value: str) -> bool:
    """A JWT encoded in base64 once more: it decodes to `eyJ….eyJ….…`."""
    import base64
    import binascii

    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return False
    header, dot, rest = decoded.partition(b".")
    return (bool(dot) and header.startswith(b"eyJ") and rest.startswith(b"eyJ")
            and filters.plausible(value))


# The payload of jwt.io's example token ({"sub":"1234567890","name":"John Doe",…}).
_JWT_IO_PAYLOAD = "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"


def jwt(m: re.Match[str], value: str) -> bool:
    """A JSON Web Token, signed or not, other than jwt.io's documentation example: its header
    decodes to a JSON object (a mangled sample's does not)."""
    import base64
    import binascii
    import json

    head = value.partition(".")[0]
    try:
        header = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    except (binascii.Error, ValueError):
        return False
    return isinstance(header, dict) and _JWT_IO_PAYLOAD not in value and filters.plausible(value)
