"""The scanning loop: keyword prefilter, rule windows, value filters, overlaps, positions.

The prefilter works on a lowercased ASCII copy of the text (one byte a
character, so offsets carry over): token-prefix rules are looked up where a
token starts, keyword rules where `bytes.find` meets their keyword. Only those
places ever see a rule's regex.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import NamedTuple

from chord_memory.secrets import filters
from chord_memory.secrets.rules import AT, TOKEN, Index, Rule, all_rules, compiled, lazy

# Where a token may start: a letter or digit after a non-token character, followed by at
# least 15 more token characters (base64 ones included: some tokens carry `+/=`). Found
# without a regular expression, which tried every position of the text: a translation marks
# the token characters, a find of 16 marks in a row finds each long run (prose has few), and
# the starts are read within the run (at its start, or after a "+", "/" or "=").
_TOKEN_CHARS = b"abcdefghijklmnopqrstuvwxyz0123456789_-.~+/="
_MARKS = bytes.maketrans(_TOKEN_CHARS + bytes(c for c in range(256) if c not in _TOKEN_CHARS),
                         b"a" * len(_TOKEN_CHARS) + b" " * (256 - len(_TOKEN_CHARS)))
_RUN = b"a" * 16
_ALNUM = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789")
_AFTER = frozenset(b"+/=")


def _starts(low: bytes) -> Iterator[int]:
    """Each position where a token may start (the 2-byte prefixes of ``Index.starts`` are
    looked up there)."""
    marks = low.translate(_MARKS)
    i = marks.find(_RUN)
    while i != -1:
        end = marks.find(b" ", i)
        end = len(marks) if end == -1 else end
        for s in range(i, end - 15):
            if low[s] in _ALNUM and (s == i or low[s - 1] in _AFTER):
                yield s
        i = marks.find(_RUN, end)


_LONG_LINE = 8192
# The prefilter's line windows: start -> (end, the groups of rules to try there)
Windows = dict[int, tuple[int, set[tuple[int, ...]]]]
_STRIP = ".,;:)]}?"
_PRAGMA = lazy(r"pragma: ?(?:allow|white)list[ -]secret", re.I)
_NEXTLINE = lazy(
    r"^[ \t]*(?:#|//|/\*|'|--|<!--)?[ \t]*pragma: ?allowlist[ -]nextline[ -]secret", re.I
)


class Span(NamedTuple):
    start: int
    end: int
    kind: str
    priority: int


class SecretFinding(NamedTuple):
    kind: str
    start: int
    end: int
    line: int
    column: int
    end_line: int
    end_column: int
    masked: str


def mask(value: str, kind: str = "") -> str:
    """The only form of a secret ever shown: the public prefix that names its kind, and …

    A provider token shows the prefix every such token starts with (`ghp_…`, `AKIA…`), which
    says which key to rotate and nothing about this one; anything else (a password, a URL's
    credentials, a private key, an assignment's value) shows none of its characters.
    """
    low = value.lower()
    prefixes = [k for r in all_rules()[0] if r.kind == kind and r.scope == TOKEN for k in r.keywords
                if low.startswith(k.lower()) and len(k) <= len(value) // 2]
    return value[:max(map(len, prefixes), default=0)] + "…"


def lowered(text: str) -> bytes:
    return text.encode("ascii", "replace").lower()


def find_spans(text: str) -> list[Span]:
    """Every secret span in text, overlaps resolved, allowlisted lines dropped."""
    rules, index = all_rules()
    low = lowered(text)
    points, lines = _prefilter(low, index, rules)
    spans: list[Span] = []
    for number, pos in points:
        _at_point(rules[number], text, pos, spans)
    for line_start, (line_end, groups) in _merged(lines):
        window = low[line_start:line_end]
        held: dict[bytes, bool] = {}
        for number in set().union(*groups):
            needs = index.needs.get(number)
            if needs is None or _holds(window, needs, held):
                _in_window(rules[number], text, low, line_start, line_end, spans)
    # Allowlisted before overlaps are resolved: a block allowlisted on one of its lines must not
    # take with it a token inside it on a line of its own (found by test_properties.py).
    return resolve(drop_allowlisted(text, spans, b"pragma" in low))


def _merged(lines: Windows) -> list[tuple[int, tuple[int, set[tuple[int, ...]]]]]:
    """The line windows, those that overlap made one. Only the windows of a long line can
    overlap (each keyword met in it opens its own, around it): a line of prose that says
    "pass" a hundred times is read once, not a hundred times over."""
    out: list[tuple[int, tuple[int, set[tuple[int, ...]]]]] = []
    for start, (end, groups) in sorted(lines.items()):
        if out and start < out[-1][1][0]:
            last_start, (last_end, last_groups) = out[-1]
            out[-1] = (last_start, (max(last_end, end), last_groups | groups))
        else:
            out.append((start, (end, groups)))
    return out


def _at_point(rule: Rule, text: str, pos: int, spans: list[Span]) -> None:
    """TOKEN and AT rules: the pattern must match right where the prefilter pointed."""
    if rule.scope == AT and pos and text[pos - 1].isalnum():
        return
    found = compiled(rule.pattern, rule.flags).match(text, pos)
    if found:
        _keep(rule, found, spans)


def _in_window(
    rule: Rule, text: str, low: bytes, start: int, end: int, spans: list[Span]
) -> None:
    """LINE rules: every match in the keyword's line (and `rule.lines - 1` lines after it)."""
    for _ in range(rule.lines - 1):
        nxt = low.find(b"\n", end + 1)
        end = len(low) if nxt == -1 else nxt
    for found in compiled(rule.pattern, rule.flags).finditer(text, start, end):
        _keep(rule, found, spans)


def _holds(
    window: bytes, needs: tuple[tuple[bytes, ...], ...], held: dict[bytes, bool]
) -> bool:
    """Does the window hold all parts of one of the needs (remembered across a line's rules)?"""
    for parts in needs:
        for part in parts:
            found = held.get(part)
            if found is None:
                found = held[part] = part in window
            if not found:
                break
        else:
            return True
    return False


def drop_allowlisted(text: str, spans: list[Span], maybe: bool = True) -> list[Span]:
    """Spans whose lines do not carry `pragma: allowlist secret` (or a nextline pragma above)."""
    if not spans or not maybe:
        return spans
    return [s for s in spans if not _allowlisted(text, s)]


def _prefilter(
    low: bytes, index: Index, rules: tuple[Rule, ...]
) -> tuple[set[tuple[int, int]], Windows]:
    """Where each rule must be tried: (rule, position) points, and line windows with their rules."""
    points: set[tuple[int, int]] = set()
    starts = index.starts
    for s in _starts(low):
        candidates = starts.get(low[s:s + 2])
        if candidates:
            for prefix, numbers in candidates:
                if low.startswith(prefix, s):
                    points.update((n, s) for n in numbers)
    lines: Windows = {}
    size = len(low)
    for keyword, (at, by_line) in index.finds.items():
        i = low.find(keyword)
        while i != -1:
            points.update((n, i) for n in at)
            nxt = i + 1
            if by_line:
                line_start = low.rfind(b"\n", 0, i) + 1
                line_end = low.find(b"\n", i)
                line_end = size if line_end == -1 else line_end
                if line_end - line_start > _LONG_LINE:
                    line_start, line_end = max(line_start, i - 2048), min(line_end, i + 4096)
                entry = lines.get(line_start)
                if entry is None:
                    lines[line_start] = (line_end, {by_line})
                else:
                    entry[1].add(by_line)
                    if entry[0] < line_end:
                        lines[line_start] = (line_end, entry[1])
                nxt = line_end if not at else nxt
            i = low.find(keyword, nxt)
    return points, lines


def _keep(rule: Rule, m: re.Match[str], spans: list[Span]) -> None:
    span = _value_span(m, rule.scope == TOKEN)
    if span is None:
        return
    value = m.string[span[0]:span[1]]
    if m.string.startswith(("..", "…"), span[1]):
        return  # cut short where it was pasted: `ops_eyJzaWdu...`, `sk-…`
    if rule.entropy and filters.entropy(value) < rule.entropy:
        return
    # A rule's check includes `plausible`; rules without one get it here.
    verdict = rule.check(m, value) if rule.check is not None else filters.plausible(value)
    if not verdict:
        return
    kind = verdict if isinstance(verdict, str) else rule.kind
    spans.append(Span(span[0], span[1], kind, rule.priority))


def _value_span(m: re.Match[str], token: bool = False) -> tuple[int, int] | None:
    names = _value_groups(m.re)
    for name in names:
        s, e = m.span(name)
        if s == -1:
            continue
        text = m.string
        if name == "bare":
            while e > s and text[e - 1] in _STRIP:
                e -= 1
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        return (s, e) if e > s else None
    if names:
        return None
    s, e = m.span()
    while token and e > s and m.string[e - 1] == ".":  # a token at the end of a sentence
        e -= 1
    return s, e


@functools.cache
def _value_groups(rx: re.Pattern[str]) -> tuple[str, ...]:
    return tuple(sorted(g for g in rx.groupindex if g.startswith("value") or g == "bare"))


def resolve(spans: list[Span]) -> list[Span]:
    """One finding a stretch of text: the most specific rule wins, then the longest span."""
    out: list[Span] = []
    cluster: list[Span] = []
    reach = -1
    for span in sorted(set(spans)):
        if cluster and span.start >= reach:
            out.extend(_pick(cluster))
            cluster = []
        reach = max(reach, span.end) if cluster else span.end
        cluster.append(span)
    if cluster:
        out.extend(_pick(cluster))
    return out


def _pick(cluster: list[Span]) -> list[Span]:
    if len(cluster) == 1:
        return cluster
    chosen: list[Span] = []
    for span in sorted(cluster, key=lambda s: (-s.priority, s.start - s.end, s.start)):
        if all(span.end <= c.start or span.start >= c.end for c in chosen):
            chosen.append(span)
    return sorted(chosen)


def _allowlisted(text: str, span: Span) -> bool:
    first = text.rfind("\n", 0, span.start) + 1
    last = text.find("\n", span.end)
    if _PRAGMA().search(text, first, len(text) if last == -1 else last):
        return True
    if first == 0:
        return False
    previous = text.rfind("\n", 0, first - 1) + 1
    return _NEXTLINE().match(text[previous:first - 1]) is not None


def positioned(text: str, spans: list[Span]) -> list[SecretFinding]:
    """Spans with 1-based line and column numbers (end exclusive, as in SARIF)."""
    out = []
    line, pos = 1, 0
    for span in sorted(spans):
        line += text.count("\n", pos, span.start)
        line_start = text.rfind("\n", 0, span.start) + 1
        pos = span.start
        end_line = line + text.count("\n", span.start, span.end)
        end_start = text.rfind("\n", 0, span.end) + 1 if end_line > line else line_start
        out.append(SecretFinding(
            span.kind, span.start, span.end, line, span.start - line_start + 1,
            end_line, span.end - end_start + 1, mask(text[span.start:span.end], span.kind),
        ))
    return out

