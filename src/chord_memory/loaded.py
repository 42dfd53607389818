"""Which records load, and what is wrong with the others: cached by content.

A record's findings are a pure function of its bytes, its file name and the
limits, and records are never edited, so the result is cached under the blob
id. A warm cache spares the hooks PyYAML's import and every parse.
"""
from __future__ import annotations

from chord_memory import cache, records
from chord_memory.index import valid_id

TYPE_CHECKING = False  # `typing` stays off a hook's path (structs.py)
if TYPE_CHECKING:
    from typing import Any

    # (code, line, message, column, end_line, end_column)
    Row = tuple[str, int, str, int, Any, Any]
    Result = tuple[Any, list[Row]]  # (record fields as a tuple, or None; rows)


def compute(name: str, data: bytes, limits: records.Limits) -> Result:
    from chord_memory import durable
    from chord_memory.region import decode

    rows: list[Row] = []
    if not valid_id(name):
        rows.append(("CM302", 1, f"the file name {name[:40]!r}.md is not a valid record id "
                     "(lower-case letters, digits and '-', 3 to 80)", 1, None, None))
    parsed = records.parse(data, name, limits)
    rows += [(p.code, p.line, p.message, 1, None, None) for p in parsed.problems]
    try:
        content = decode(data)[1]
    except (UnicodeDecodeError, ValueError):
        content = None
    if content is not None:
        rows += [(f.code, f.line, f.message, f.column, f.end_line, f.end_column)
                 for f in durable.scan("", content)]
    record = tuple(parsed.record) if parsed.record is not None and valid_id(name) else None
    return record, rows


class Results:
    """Record results for one run, read from and written back to the cache."""

    def __init__(self, root: str, limits: records.Limits, name: str = "records") -> None:
        """`name` picks the cache: `check` keeps every record, `summary` only what it shows."""
        self.root = root
        self.name = name
        self.limits = limits
        self._old: dict[str, Result] | None = None
        self._used: dict[str, Result] = {}
        self._missed = False

    def _key(self, name: str, sha: str) -> str:
        return f"{sha}\0{name}\0{tuple(self.limits)}"

    def _cached(self) -> dict[str, Result]:
        if self._old is None:
            self._old = cache.load(self.root, self.name) or {}
        return self._old

    def misses(self, name: str, sha: str) -> bool:
        return self._key(name, sha) not in self._cached()

    def fill(self, name: str, sha: str, result: Result) -> None:
        """A result computed elsewhere (check's cold pass spreads them over all cores)."""
        self._cached()[self._key(name, sha)] = result
        self._missed = True

    def get(self, name: str, data: bytes, sha: str) -> Result:
        key = self._key(name, sha)
        hit = self._cached().get(key)
        if hit is None:
            hit = compute(name, data, self.limits)
            self._missed = True
        self._used[key] = hit
        return hit

    def save(self) -> None:
        """Keep exactly the entries this run used (a full check prunes what is gone)."""
        if self._missed or (self._old is not None and len(self._old) != len(self._used)):
            cache.store(self.root, self.name, self._used)


def record(result: Result) -> records.Record | None:
    return records.Record(*result[0]) if result[0] is not None else None
