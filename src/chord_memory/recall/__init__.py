"""Recall (docs/recall.md): the indexed records that match a query, what they cost, a digest.

Two backends return the same `Hit`s: `file` scans the loaded records in index
order and stops at the first N that contain a query word (it does not rank);
`sqlite` ranks with FTS5's BM25 over summary, conclusion, why and how-to-apply.
Only records that load and have a line in MEMORY.md's index are candidates:
deleting a line is how a record is removed, so an orphan is never recalled.

This module is on recall's hot path: it imports nothing beyond what the
command line already loaded (`typing` alone costs about 3 ms), which is why
`Hit` is a slotted class like `gitio.IndexEntry` rather than a NamedTuple.
"""
from __future__ import annotations

import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows the name
if TYPE_CHECKING:
    from hashlib import _Hash

# Words that say nothing about a record: dropped from queries, so "how do we
# deploy" looks for "deploy" and the scan for "the" does not match everything.
_STOP = (
    "a about after all also an and any are as at be been before but by can could did do does "
    "doing done for from had has have how i if in into is it its just may me more most must my "
    "no not now of on once only or other our out over please same should so some such than that "
    "the their them then there these they this those through to too under up us use used using "
    "very was we were what when where which while who why will with would you your"
)
STOP_WORDS = frozenset(_STOP.split())
MAX_TERMS = 32
_WORD = re.compile(r"\w+")


class Hit:
    """One recalled record, with its exact bytes (for the digest) and its score (sqlite)."""

    __slots__ = ("actor", "conclusion", "data", "how", "id", "score", "source", "status",
                 "summary", "type", "why")

    def __init__(self, id: str, type: str, source: str, status: str, actor: str, summary: str,
                 conclusion: str, why: str, how: str, data: bytes, score: float | None) -> None:
        self.id, self.type, self.source, self.status, self.actor = id, type, source, status, actor
        self.summary, self.conclusion, self.why, self.how = summary, conclusion, why, how
        self.data, self.score = data, score

    @property
    def text(self) -> str:
        """The durable text, as `records.Record.text` joins it: what a prompt pays for."""
        return "\n".join((self.summary, self.conclusion, self.why, self.how))

    @property
    def chars(self) -> int:
        return len(self.text)


def terms(query: str) -> list[str]:
    """The query's words, lower-cased, without stop words or one-letter words, first 32.

    A query of stop words only keeps them (so "what is it" still finds "what").
    """
    words = [w for w in _WORD.findall(query.lower()) if len(w) > 1]
    kept = [w for w in words if w not in STOP_WORDS] or words
    return list(dict.fromkeys(kept))[:MAX_TERMS]


def fts_query(words: list[str]) -> str:
    """An FTS5 MATCH expression: any of the words, each quoted (never FTS5 syntax)."""
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in words)


def _sha256() -> _Hash:
    try:  # the builtin module: hashlib's OpenSSL load costs about 3 ms at start-up
        from _sha256 import sha256  # type: ignore[import-not-found, unused-ignore]
    except ImportError:  # pragma: no cover - Python 3.12 renamed it; hashlib is as good
        from hashlib import sha256
    h: _Hash = sha256()
    return h


def blob_sha(data: bytes) -> str:
    """git's blob id of data, as gitio.blob_sha computes it, without loading hashlib."""
    try:
        from _sha1 import sha1  # type: ignore[import-not-found, unused-ignore]
    except ImportError:  # pragma: no cover - hashlib is as good, only slower to load
        from hashlib import sha1
    h: _Hash = sha1(b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest()


def digest(hits: list[Hit]) -> str:
    """sha256 over the selected ids and exact contents, in order: any change changes it."""
    h = _sha256()
    for hit in hits:
        h.update(f"{hit.id}\n{len(hit.data)}\n".encode())
        h.update(hit.data)
    return "sha256:" + h.hexdigest()

