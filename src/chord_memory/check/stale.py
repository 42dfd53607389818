"""CM404: an indexed record names a project path that no longer exists (a warning).

A memory that points at `src/billing/invoice.py` after the file was moved sends
the next agent looking for it. What counts as naming a project path, so that
prose such as "and/or", "CI/CD" or "origin/main" never does:

- a word with at least one `/`, made of letters, digits and `._@+-`, not part of
  a URL, an absolute path (CM401 reports those) or a glob/placeholder
  (`tests/*.py`, `records/<id>.md`), with no `..` and not starting with a number;
- whose first segment exists in the project (`src/…` when `src/` exists), or,
  inside a code span, whose last segment has a file extension (`` `legacy/db.py` ``).

Such a path that does not exist in the working tree is reported once per record,
at its first mention. Only records that load and are indexed are checked: an
orphan is not served, so its paths do not mislead anyone.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping

from chord_memory.findings import Finding
from chord_memory.records import Record
from chord_memory.snapshot import Snapshot

_PATH = re.compile(r"(?<![\w@.~/:\\-])(?:\./)?([\w@+-][\w.@+-]*(?:/[\w.@+-]+)+/?|[\w@+-][\w.@+-]*/)"
                   r"(?![\w*?{}<>\[\]$%/:\\])")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")


def _candidates(text: str) -> dict[str, bool]:
    """Path-like words in text -> whether one of their mentions is inside a code span."""
    spans = [m.span(1) for m in _CODE_SPAN.finditer(text)]
    found: dict[str, bool] = {}
    for m in _PATH.finditer(text):
        word = m.group(1).rstrip(".,;:!?")
        parts = word.rstrip("/").split("/")
        if not word or ".." in parts or parts[0][:1].isdigit() or "" in parts:
            continue
        coded = any(a <= m.start(1) < b for a, b in spans)
        found[word] = found.get(word, False) or coded
    return found


def named_paths(root: str, text: str) -> list[str]:
    """The project paths text names (see the module's rule), in order of first mention."""
    out = []
    for word, coded in _candidates(text).items():
        first = word.split("/")[0]
        last = word.rstrip("/").split("/")[-1]
        if os.path.isdir(os.path.join(root, first)) or \
                (coded and "." not in first and _EXTENSION.search(last)):
            out.append(word)
    return out


def _where(data: bytes | None, word: str) -> tuple[int, int]:
    """1-based (line, column) of the word's first mention in the file, or (1, 1)."""
    text = data.decode("utf-8", "replace") if data else ""
    at = text.find(word)
    if at < 0:
        return 1, 1
    start = text.rfind("\n", 0, at) + 1
    return text.count("\n", 0, at) + 1, at - start + 1


def stale_findings(snap: Snapshot, records: Mapping[str, Record], indexed: Iterable[str]) -> list[Finding]:
    """CM404 warnings for the indexed, loading records of the snapshot."""
    out: list[Finding] = []
    for name in dict.fromkeys(indexed):
        rec = records.get(name)
        f = snap.records.get(name)
        if rec is None or f is None or "/" not in rec.text:
            continue
        for word in named_paths(snap.root, rec.text):
            if os.path.lexists(os.path.join(snap.root, word.rstrip("/"))):
                continue
            line, column = _where(f.data, word)
            out.append(Finding(
                f.path, line, "CM404",
                f"names {word}, which no longer exists in the project; if the record is outdated, "
                "delete its index line (a later session can record what holds now)",
                column, line, column + len(word),
            ))
    return out
