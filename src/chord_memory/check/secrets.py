"""CM601 in `check`: the secrets layer over every memory file, cached by content.

A file's secret spans depend only on its bytes, so they are cached under its
blob id together with the hash detect-secrets' baseline uses; the baseline is
applied after the cache, so auditing a finding takes effect at once. A warm
cache spares the hook the detector's import.
"""
from __future__ import annotations

import os

from chord_memory import cache
from chord_memory.findings import Finding
from chord_memory.snapshot import MemFile

# (line, column, end_line, end_column, kind, masked value, sha1 of the value)
Row = tuple[int, int, int, int, str, str, str]


def scan_rows(data: bytes) -> list[Row]:
    from chord_memory import secrets

    text = data.decode("utf-8-sig", "replace")
    return [(f.line, f.column, f.end_line, f.end_column, f.kind, f.masked,
             secrets.hashed(text[f.start:f.end])) for f in secrets.scan_text(text)]


class Spans:
    """Each file's secret spans for one run, read from and written back to the cache."""

    def __init__(self, root: str, enabled: bool = True) -> None:
        self.root = root
        self.enabled = enabled
        self.old: dict[str, list[Row]] = (cache.load(root, "secrets") or {}) if enabled else {}
        self.fresh: dict[str, list[Row]] = {}

    def misses(self, sha: str) -> bool:
        return self.enabled and sha not in self.old and sha not in self.fresh

    def fill(self, sha: str, rows: list[Row]) -> None:
        self.fresh[sha] = rows

    def findings(self, files: list[MemFile]) -> list[Finding]:
        if not self.enabled:
            return []
        used: dict[str, list[Row]] = {}
        out: list[Finding] = []
        allowed = _baseline(self.root)
        for f in files:
            if f.data is None or f.sha is None:
                continue
            rows = self.fresh.get(f.sha)
            if rows is None:
                rows = self.old.get(f.sha)
            if rows is None:
                rows = scan_rows(f.data)
            used[f.sha] = rows
            if not rows:
                continue
            from chord_memory.secrets import finding  # the one CM601 builder (scan's too)

            out.extend(
                finding(f.path, line, col, end_line, end_col, kind, masked)
                for line, col, end_line, end_col, kind, masked, digest in rows
                if (f.path, digest) not in allowed
            )
        if used.keys() != self.old.keys():
            cache.store(self.root, "secrets", used)
        return out


def _baseline(root: str) -> set[tuple[str, str]]:
    from chord_memory.secrets.baseline import BASELINE

    if not os.path.exists(os.path.join(root, BASELINE)):
        return set()
    from chord_memory.secrets import load_baseline

    return load_baseline(root)
