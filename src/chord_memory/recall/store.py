"""The sqlite backend's search: SQLite FTS5 ranked by BM25 (the database is schema.py's).

This is the warm path, so it is cheap by design. When the database's fingerprint
(schema.is_fresh) is unchanged, and was older than that check (git's "racily clean"
rule), nothing is read; otherwise update.py compares contents by hash and indexes
what changed. Records are never edited in
place, and every record a query returns is compared byte for byte with its
file before it is returned, so an edit behind the fingerprint's back is caught
where it matters. Readers never block (WAL); updates are one transaction each.
"""
from __future__ import annotations

from chord_memory import paths
from chord_memory.recall import Hit, fts_query
from chord_memory.recall.schema import is_fresh, read_meta

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (about 3 ms)
if TYPE_CHECKING:
    import _sqlite3 as sqlite3
    from typing import Any

    from chord_memory.recall.options import Options

ROUNDS = 3
# Field weights for bm25(): summary, conclusion, why, how to apply. A word in the
# one-line summary says more about what a record is for than one in its reasons.
WEIGHTS = (4.0, 2.0, 1.0, 1.0)
_COLUMNS = "r.name, r.type, r.source, r.status, r.actor, r.summary, r.conclusion, r.why, r.how, r.data"
_BM25 = f"bm25(fts, {', '.join(map(str, WEIGHTS))})"
# Every match, ranked: exact, and the fallback for the windowed query below.
_QUERY = f"""
SELECT {_COLUMNS}, {_BM25} AS score
FROM fts JOIN records r ON r.rid = fts.rowid JOIN entries e ON e.name = r.name
WHERE fts MATCH ? ORDER BY score, e.pos LIMIT ?
"""
# The best few matches by score alone, then joined: a common word matches thousands of records,
# and looking each one up in `records` and `entries` cost more than ranking them. Each row also
# carries how many rows the window held and its worst score, so `_ranked` can tell whether the
# window was enough.
_WINDOWED = f"""
WITH top AS (SELECT rowid AS rid, {_BM25} AS score FROM fts WHERE fts MATCH ? ORDER BY score LIMIT ?),
win AS (SELECT rid, score, count(*) OVER () AS n, max(score) OVER () AS edge FROM top)
SELECT {_COLUMNS}, win.score, win.n, win.edge
FROM win JOIN records r ON r.rid = win.rid JOIN entries e ON e.name = r.name
ORDER BY win.score, e.pos LIMIT ?
"""


def search(conn: sqlite3.Connection, root: str, key: bytes, opts: Options, words: list[str],
           limit: int) -> list[Hit]:
    """The best `limit` indexed, loading records for the words, best first (ties: index order)."""
    meta = read_meta(conn)
    if not is_fresh(conn, root, key, meta):
        from chord_memory.recall import update

        update.bring_up_to_date(conn, root, key, opts)
        meta = read_meta(conn)
    if meta.get("problem"):
        from chord_memory.errors import UserError

        raise UserError(str(meta["problem"]), 1)
    if not words:
        return []
    for _ in range(ROUNDS):
        rows = _ranked(conn, fts_query(words), limit)
        changed = [row[0] for row in rows if paths.read_record(root, row[0]) != row[9]]
        if not changed:
            return [Hit(*row) for row in rows]
        from chord_memory.recall import update

        update.refresh(conn, root, changed, opts)  # edited in place: index what is there now
    return [Hit(*row) for row in rows if row[0] not in changed]


def _ranked(conn: sqlite3.Connection, match: str, limit: int) -> list[Any]:
    """The same rows as `_QUERY`, through the window when the window settles the answer."""
    rows = _windowed(conn, match, limit)
    return conn.execute(_QUERY, (match, limit)).fetchall() if rows is None else rows


def _windowed(conn: sqlite3.Connection, match: str, limit: int) -> list[Any] | None:
    """The best `limit` rows from a window of the best scores, or None when the window cannot say.

    It can when the window held every match, or when the last row kept scores strictly better
    than the window's worst (anything outside the window scores no better than that, so it can
    neither come first nor tie). It cannot when records outside the index took the window's
    places, or when its edge falls in a tie.
    """
    size = 4 * limit + 16
    rows = conn.execute(_WINDOWED, (match, size, limit)).fetchall()
    if len(rows) == limit and (rows[-1][-2] < size or rows[-1][-3] < rows[-1][-1]):
        return [row[:-2] for row in rows]
    return None
