"""Provider values that only their name tells apart: a 16-digit Asana client id, a Sidekiq
`8hex:8hex` licence, a Sumo Logic access id.

Their shape alone is too common to report (a number, two hex words), so they count only
beside a name that holds the provider's word, in any syntax of `syntax.py`: the syntax rules
match the name and the value, and `checks.by_name` asks this table first. A new kind is one
entry: its kind, the provider's word (lowercase; it is also a prefilter keyword), the value's
shape, and true and false examples (`{v}`-free texts a test scans).
"""
from __future__ import annotations

import functools
import re
from typing import NamedTuple

# Words one of which the name must also hold, so `asana_task_id` is not a credential.
_CLAIMS = ("token", "secret", "key", "client", "cred", "auth", "pass", "access")


class Named(NamedTuple):
    kind: str
    word: str
    shape: str
    examples: tuple[str, ...]
    not_examples: tuple[str, ...] = ()
    claims: tuple[str, ...] = _CLAIMS


NAMED: tuple[Named, ...] = (
    Named("asana-client-id", "asana", r"\d{16}",
          ("ASANA_CLIENT_TOKEN=1207418829635503", "asanaToken := \"1207418829635503\""),
          ("asana_task_id = 1207418829635503", "ASANA_TOKEN=1234567890123456")),
    Named("asana-client-secret", "asana", r"[a-z0-9]{32}",
          ("asana_secret = \"q8m2v7k4x9p1l6z3r5t0w8y2u4i6o1a3\"",),
          ("asana_secret = \"abcdefghabcdefghabcdefghabcdefgh\"",)),
    Named("discord-client-id", "discord", r"\d{18}",
          ("DISCORD_TOKEN=836512847390475621", "<discordToken>\n  836512847390475621\n</discordToken>"),
          ("discord_channel = 836512847390475621",)),
    Named("discord-client-secret", "discord", r"\d{32}|[A-Za-z0-9_\-]{32}",
          ("discord_client_secret: \"Kq2x-Lm7v_Zp3Rt8Wb1Nc6Yd4Fh0Gj9s\"",
           "discordToken = \"83651284739047562119283746509182\""),
          ("discord_secret: \"${DISCORD_SECRET}\"",)),
    Named("sidekiq-secret", "contribsys", r"[a-f0-9]{8}:[a-f0-9]{8}",
          ("BUNDLE_ENTERPRISE__CONTRIBSYS__COM: 3f9a1c2e:7b4d8e6f",
           "export BUNDLE_GEMS__CONTRIBSYS__COM=\"3f9a1c2e:7b4d8e6f\""),
          ("BUNDLE_GEMS__CONTRIBSYS__COM: ${SIDEKIQ_CREDS}",), claims=("",)),
    Named("sumologic-access-id", "sumo", r"su[A-Za-z0-9]{12}",
          ("SUMO_ACCESS_ID = \"suQ8m2V7k4X9p1\"", "export SUMOLOGIC_ACCESSID=suQ8m2V7k4X9p1"),
          ("SUMO_ACCESS_ID = \"superintendent\"",)),
    Named("sumologic-access-token", "sumo", r"[A-Za-z0-9]{64}",
          ("SUMO_ACCESS_KEY: " + "Qm7xLp2vKs9Zt4Rw" * 4,),
          ("SUMO_ACCESS_KEY: " + "a" * 64,)),
)

WORDS: tuple[str, ...] = tuple(sorted({n.word for n in NAMED}))

# Providers whose one format is known: under a name holding the word, only a value in that
# format is the provider's token; anything else there is a mangled or invented sample.
FORMATS: tuple[tuple[str, str], ...] = (
    ("telegram", r"(?:bot)?\d{5,16}:A[A-Za-z0-9_\-]{30,40}"),
    ("meraki", r"[a-f0-9]{40}"),                          # Cisco Meraki API keys: 40 hex
    ("sumo", r"su[A-Za-z0-9]{12}|[A-Za-z0-9]{64}"),       # Sumo Logic access ids and keys
)


@functools.cache
def _shape(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def kind_of(name: str, value: str) -> str | None:
    """The provider kind whose word the name holds and whose shape the value has, if one."""
    low = name.lower()
    for entry in NAMED:
        if entry.word in low and any(c in low for c in entry.claims) and (
            _shape(entry.shape).fullmatch(value)
        ):
            return entry.kind
    return None


def off_format(name: str, value: str) -> bool:
    """Does the name hold a provider's word whose format the value does not have?"""
    low = name.lower()
    return any(word in low and not _shape(shape).fullmatch(value) for word, shape in FORMATS)
