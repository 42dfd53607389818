"""MEMORY.md's index order in the recall database, updated by difference.

Extraction puts new entries on top and removes lines; re-reading ten thousand
entries for that would cost more than the whole update may. The database keeps
the last MEMORY.md it read (in the `state` table), so an update finds the
changed lines (common prefix and suffix, compared in blocks at memcmp speed),
checks only those, and moves only their rows. Positions are real numbers: a
new entry gets a position in the gap between its neighbours. A change outside
the region's body, a reordering, a repeated line or a worn-out gap takes the
full path: parse everything and compare the whole table.
"""
from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, NamedTuple

from chord_memory import index, memory_md, paths

if TYPE_CHECKING:
    import sqlite3

_LINE = re.compile(
    rf"[ \t]*- (?:{'|'.join(index.TYPES)}): [^\n]*?\S "
    rf"\(\[([a-z0-9][a-z0-9-]{{2,79}})\]\({re.escape(paths.RECORDS_DIR)}/\1\.md\)\)[ \t\r]*")
BLOCK = 1 << 16
MIN_GAP = 1e-6
Change = tuple[list[str], list[tuple[str, float]]]  # (names to delete, (name, position) to insert)


class Window(NamedTuple):
    """The changed lines: old[start:old_end] became new[start:new_end]."""

    start: int
    old_end: int
    new_end: int


def _common(a: bytes, b: bytes, limit: int, from_end: bool) -> int:
    """Length of the common prefix (or suffix) of a and b, at most limit, compared block by block
    at memcmp speed, then by halves inside the first block that differs. The suffix is compared
    in place: reversing both copies of a 1.7 MB MEMORY.md took 2.5 ms."""
    la, lb = len(a), len(b)

    def same(i: int, j: int) -> bool:  # the bytes from i to j, counted from the chosen end
        return a[la - j:la - i] == b[lb - j:lb - i] if from_end else a[i:j] == b[i:j]

    i = 0
    while i < limit:
        j = min(limit, i + BLOCK)
        if not same(i, j):
            break
        i = j
    else:
        return limit
    lo, hi = i, min(limit, i + BLOCK) - 1  # the whole block differs somewhere: at most hi
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if same(i, mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _prefix(a: bytes, b: bytes, limit: int) -> int:
    return _common(a, b, limit, from_end=False)


def _suffix(a: bytes, b: bytes, limit: int) -> int:
    return _common(a, b, limit, from_end=True)


def _window(old: bytes, new: bytes) -> Window | None:
    """The smallest run of whole lines that differs, or None when none can be found."""
    p = _prefix(old, new, min(len(old), len(new)))
    s = _suffix(old, new, min(len(old), len(new)) - p)
    start = old.rfind(b"\n", 0, p) + 1
    eo, en = len(old) - s, len(new) - s
    if not (eo == start or old[eo - 1:eo] == b"\n") or not (en == start or new[en - 1:en] == b"\n"):
        nl = old.find(b"\n", eo)
        if nl == -1:
            return None
        eo, en = nl + 1, en + nl + 1 - eo
    return Window(start, eo, en)


def _ids(chunk: bytes) -> list[str] | None:
    """The ids of a run of whole lines, or None when one is not an entry (or blank)."""
    try:
        lines = chunk.decode().split("\n")[:-1]
    except UnicodeDecodeError:
        return None
    if any(line.strip() and not _LINE.fullmatch(line) for line in lines):
        return None
    return [index.line_id(line.strip()) for line in lines if line.strip()]


def _line_before(data: bytes, lo: int, pos: int) -> str | None:
    """The id on the nearest non-blank line ending at pos or before, not before lo."""
    while pos > lo:
        start = max(data.rfind(b"\n", lo, pos - 1) + 1, lo)
        if data[start:pos].strip():
            return index.line_id(data[start:pos].decode().strip())
        pos = start
    return None


def _line_after(data: bytes, pos: int, hi: int) -> str | None:
    """The id on the nearest non-blank line starting at pos or after, before hi."""
    while pos < hi:
        end = data.find(b"\n", pos, hi)
        end = hi if end == -1 else end + 1
        if data[pos:end].strip():
            return index.line_id(data[pos:end].decode().strip())
        pos = end
    return None


def _place(new: list[str], old: dict[str, float], lo: float | None, hi: float | None) -> Change | None:
    """Turn `old` into `new` between lo and hi; names in both keep their rows.

    None when they changed order (the user moved a line) or a gap is too thin.
    """
    kept = [old[n] for n in new if n in old]
    if any(a >= b for a, b in itertools.pairwise(kept)):
        return None
    inserts: list[tuple[str, float]] = []
    run: list[str] = []
    prev = lo
    for name in [*new, None]:
        if name is not None and name not in old:
            run.append(name)
            continue
        nxt = old[name] if name is not None else hi
        if run:
            if prev is None:
                prev = (nxt if nxt is not None else 0.0) - len(run) - 1
            top = nxt if nxt is not None else prev + len(run) + 1
            step = (top - prev) / (len(run) + 1)
            if step < MIN_GAP:
                return None
            inserts += [(n, prev + step * (i + 1)) for i, n in enumerate(run)]
        run, prev = [], nxt
    wanted = set(new)
    return [n for n in old if n not in wanted], inserts


def _positions(conn: sqlite3.Connection, names: list[str]) -> dict[str, float]:
    marks = ",".join("?" * len(names))
    return dict(conn.execute(f"SELECT name, pos FROM entries WHERE name IN ({marks})", names).fetchall())


def _move(conn: sqlite3.Connection, old: bytes, new: bytes, body: tuple[int, int], w: Window) -> bool:
    """Move only the rows of the changed lines; False when the full path is needed."""
    if w.start < body[0] or w.old_end > body[1]:
        return False  # the markers or the user's own text changed
    added, removed = _ids(new[w.start:w.new_end]), _ids(old[w.start:w.old_end])
    if added is None or removed is None:
        return False  # the full path says where and why
    before = _line_before(old, body[0], w.start)
    after = _line_after(old, w.old_end, body[1])
    neighbours = [n for n in (before, after) if n]
    if any(new.count(f"([{i}](".encode()) > 1 for i in (*added, *neighbours)) or \
            any(old.count(f"([{i}](".encode()) > 1 for i in removed):
        # A repeated line: its first occurrence counts, so compare everything. That includes
        # a neighbour: a later copy of a line does not say where the new lines go.
        return False
    pos = _positions(conn, [n for n in (before, after, *removed) if n])
    if (set(added) - set(removed)) & set(_positions(conn, added)):
        return False  # an entry moved here from elsewhere
    change = _place(added, {n: pos[n] for n in removed if n in pos},
                    pos.get(before) if before else None, pos.get(after) if after else None)
    if change is None:
        return False
    _write(conn, change)
    return True


def _write(conn: sqlite3.Connection, change: Change) -> None:
    conn.executemany("DELETE FROM entries WHERE name = ?", ((n,) for n in change[0]))
    conn.executemany("INSERT INTO entries(name, pos) VALUES (?, ?)", change[1])


def _store_all(conn: sqlite3.Connection, new: list[str]) -> None:
    """Make the entries table hold `new` in order, by difference when the order is kept."""
    old = dict(conn.execute("SELECT name, pos FROM entries").fetchall())
    change = _place(new, old, None, None)
    if change is None:
        conn.execute("DELETE FROM entries")
        change = ([], [(n, float(i)) for i, n in enumerate(new)])
    _write(conn, change)


def update(conn: sqlite3.Connection, data: bytes | None, meta: dict[str, object]) -> str:
    """Bring the entries table to MEMORY.md's bytes (None: no file); the problem to report.

    The last MEMORY.md read and its body's span live in the `state` table, away
    from `meta`, which the warm path reads whole.
    """
    state = dict(conn.execute("SELECT key, value FROM state WHERE key LIKE 'md_%'").fetchall())
    old = state.get("md_data")
    if data is not None and data == old:
        return str(meta.get("problem") or "")
    body = tuple(map(int, str(state.get("md_body", "0 0")).split()))
    w = _window(old, data) if isinstance(old, bytes) and data is not None else None
    problem = ""
    if w is not None and data is not None and isinstance(old, bytes) and \
            _move(conn, old, data, (body[0], body[1]), w):
        body = (body[0], body[1] + len(data) - len(old))
    elif data is None:
        _store_all(conn, [])
    else:
        ids, body, problem = memory_md.body(data)
        _store_all(conn, ids or [])
    conn.executemany("INSERT OR REPLACE INTO state(key, value) VALUES (?, ?)", (
        ("md_data", data if not problem else None), ("md_body", f"{body[0]} {body[1]}")))
    return problem
