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


def _rows(data: bytes) -> list[Row]:
    from chord_memory import secrets

    text = data.decode("utf-8-sig", "replace")
    return [(f.line, f.column, f.end_line, f.end_column, f.kind, f.masked,
             secrets.hashed(text[f.start:f.end])) for f in secrets.scan_text(text)]


def findings(root: str, files: list[MemFile]) -> list[Finding]:
    old: dict[str, list[Row]] = cache.load(root, "secrets") or {}
    missing = {f.sha: f.data for f in files if f.data is not None and f.sha and f.sha not in old}
    if missing:
        from chord_memory.parallel import map_cold

        fresh = old.copy()
        fresh.update(zip(missing, map_cold(_rows, list(missing.values())), strict=True))
    else:
        fresh = old
    used: dict[str, list[Row]] = {}
    out: list[Finding] = []
    allowed = _baseline(root)
    for f in files:
        if f.data is None or f.sha is None:
            continue
        rows = fresh[f.sha]
        used[f.sha] = rows
        out.extend(
            Finding(f.path, line, "CM601", f"{kind} secret ({masked}); remove it, or mark a false "
                    "positive with `pragma: allowlist secret`", col, end_line, end_col, kind)
            for line, col, end_line, end_col, kind, masked, digest in rows
            if (f.path, digest) not in allowed
        )
    if used.keys() != old.keys():
        cache.store(root, "secrets", used)
    return out


def _baseline(root: str) -> set[tuple[str, str]]:
    from chord_memory.secrets.baseline import BASELINE

    if not os.path.exists(os.path.join(root, BASELINE)):
        return set()
    from chord_memory.secrets import load_baseline

    return load_baseline(root)
