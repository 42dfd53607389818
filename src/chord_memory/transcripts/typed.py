"""What the person typed: one mechanism, one table of harness wrappers per agent.

Agents wrap the user's words and inject text of their own into user turns:
command wrappers, bash mode, IDE context, reminders, hook output, pasted-back
plans. Each reader declares its agent's table of ``Rule`` rows; ``Voice`` applies
the table to every block of user-role text and then removes what repeats the
assistant's earlier words in the session (``Echo``). What is left is the typed
text; an empty result means the turn is not something the user said.

Rules, by what they keep (``Rule.keep``):

- ``drop``: a block that starts with ``start`` is not typed text at all.
- ``cut``: a span from ``start`` to ``end`` is removed wherever it stands (to the
  end of the text when ``end`` is missing; with ``end`` empty, ``start`` alone).
- ``inner``: the text between ``start`` and ``end`` is what the user typed (it
  goes through the table again, as does what follows ``end``).
- ``after``: only the text after ``end`` (a marker inside the block) is typed;
  nothing when the marker is missing.
- ``head``: only the opening phrase is kept; what follows it is not the user's
  (a plan the assistant wrote, sent back by a button).

``start`` matches at the beginning of the block, ignoring leading space and
letter case. See docs/transcripts.md for every agent's table.
"""
from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

DROP, CUT, INNER, AFTER, HEAD = "drop", "cut", "inner", "after", "head"


class Rule(NamedTuple):
    name: str  # what it is, as the docs table names it
    start: str  # the text that opens it
    keep: str  # drop | cut | inner | after | head
    end: str = ""  # the closing text (cut, inner) or the marker the typed text follows (after)


class Harness:
    """One agent's table, compiled once."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules = tuple(rules)
        cuts = [r for r in self.rules if r.keep == CUT]
        self._cut = re.compile(
            "|".join(f"{re.escape(r.start)}.*?(?:{re.escape(r.end)}|\\Z)" for r in cuts),
            re.DOTALL | re.IGNORECASE,
        ) if cuts else None
        self._heads = [(r, r.start.lower()) for r in self.rules if r.keep != CUT]

    def typed(self, text: str) -> str:
        """The typed part of one block of user-role text ('' when there is none)."""
        if self._cut is not None:
            text = self._cut.sub("", text)
        head = text.lstrip()[:200].lower()
        for rule, start in self._heads:
            if not head.startswith(start):
                continue
            if rule.keep == DROP:
                return ""
            body = text.lstrip()[len(rule.start):]
            if rule.keep == HEAD:
                return rule.start.strip()
            if rule.keep == INNER:  # the inside goes through the table too, as what follows does
                inner, _, rest = body.partition(rule.end)
                return "\n\n".join(p for p in (self.typed(inner), self.typed(rest)) if p)
            _, found, request = body.partition(rule.end)  # AFTER
            return request.strip() if found else ""
        return text.strip()


# -- what the assistant already wrote -------------------------------------------------------

_WORD = re.compile(r"\w+")
_SHINGLE = 6  # words a shingle
_MIN_BLOCK_WORDS = 12  # a shorter paragraph is compared line by line instead
_MIN_LINE_WORDS = 5  # a shorter line is never taken for an echo
_MAX_LINE_WORDS = 200  # a longer line is a paragraph: the shingles see it
_COVERED = 0.5  # share of a paragraph's shingles seen in the assistant's text
_BITS = 1 << 24  # 2 MiB of shingle bits, whatever the session's size
_MAX_LINES = 200_000
_MAX_PENDING = 16 * 1024 * 1024  # characters kept for indexing; older text is indexed at once


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _crc(words: Sequence[str]) -> int:
    return zlib.crc32(" ".join(words).encode("utf-8", "replace"))


def _shingles(words: list[str]) -> Iterator[int]:
    """A hash per run of ``_SHINGLE`` words, computed in C (crc32 of each word, then the hash
    of each tuple of ints: the same in every process, unlike a hash of strings)."""
    ids = list(map(zlib.crc32, map(str.encode, words)))  # \w+ never matches a lone surrogate
    return map(hash, zip(*(ids[i:] for i in range(_SHINGLE)), strict=False))


class Echo:
    """The assistant's words so far, kept as shingle bits and line digests (bounded memory).

    Text is indexed lazily, when a user block long enough to be an echo comes
    along, so a session whose prompts are all short pays nothing.
    """

    def __init__(self) -> None:
        self._bits = bytearray(_BITS // 8)
        self._lines: set[int] = set()
        self._pending: list[str] = []
        self._pending_chars = 0
        self.empty = True

    def add(self, text: str) -> None:
        self._pending.append(text)
        self._pending_chars += len(text)
        self.empty = False
        if self._pending_chars > _MAX_PENDING:
            self._index()

    def _index(self) -> None:
        bits, mask = self._bits, len(self._bits) - 1
        for text in self._pending:
            words: list[str] = []
            for line in text.splitlines():
                some = _words(line)
                if _MIN_LINE_WORDS <= len(some) <= _MAX_LINE_WORDS and len(self._lines) < _MAX_LINES:
                    self._lines.add(_crc(some))
                words += some
            for h in _shingles(words):
                bits[(h >> 3) & mask] |= 1 << (h & 7)
        self._pending.clear()
        self._pending_chars = 0

    def _covered(self, words: list[str]) -> bool:
        bits, mask = self._bits, len(self._bits) - 1
        hashes = list(_shingles(words))
        seen = sum((bits[(h >> 3) & mask] >> (h & 7)) & 1 for h in hashes)
        return seen >= _COVERED * len(hashes)

    def without(self, text: str) -> str:
        """``text`` without the paragraphs and lines that repeat the assistant's words."""
        if self.empty or not text:
            return text
        kept: list[str] = []
        for paragraph in re.split(r"\n\s*\n", text):
            words = _words(paragraph)
            if len(words) < _MIN_LINE_WORDS:
                kept.append(paragraph)
                continue
            if self._pending:
                self._index()
            if len(words) >= _MIN_BLOCK_WORDS and self._covered(words):
                continue
            lines = [line for line in paragraph.splitlines() if not self._line_echo(line)]
            if any(line.strip() for line in lines):
                kept.append("\n".join(lines))
        return "\n\n".join(kept).strip()

    def _line_echo(self, line: str) -> bool:
        words = _words(line)
        return len(words) >= _MIN_LINE_WORDS and _crc(words) in self._lines


class Voice:
    """One session's user text: the agent's wrappers out, then echoes of the assistant out."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        self.echo = Echo()

    def assistant(self, text: str) -> None:
        """Something the assistant wrote (a final reply or not): never user text later."""
        if text:
            self.echo.add(text)

    def user(self, blocks: Iterable[str]) -> str | None:
        """The typed text of one user turn's text blocks, or None when nothing is typed."""
        parts = [self.harness.typed(b) for b in blocks if isinstance(b, str)]
        text = self.echo.without("\n\n".join(p for p in parts if p))
        return text or None
