"""The sqlite backend: SQLite FTS5 ranked by BM25, kept in `<git-dir>/chord-memory/recall.sqlite`.

This is the warm path, so it is cheap by design. The database remembers a
fingerprint of what it was built from: MEMORY.md's inode, size and mtime and
the records folder's inode and mtime. When they are unchanged, and were older
than that check (git's "racily clean" rule), nothing is read; otherwise
update.py compares contents by hash and indexes what changed. Records are never edited in
place, and every record a query returns is compared byte for byte with its
file before it is returned, so an edit behind the fingerprint's back is caught
where it matters. Readers never block (WAL); updates are one transaction each.
"""
from __future__ import annotations

# sqlite3's Python half imports datetime for its adapters (about 1.5 ms at start-up);
# the C module underneath is the same connection without them.
import _sqlite3 as sqlite3
import os

from chord_memory import paths
from chord_memory.recall import Hit, fts_query
from chord_memory.recall.options import Options

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (about 3 ms)
if TYPE_CHECKING:
    from typing import Any

SCHEMA = 6  # 6: the text fields are stored scrubbed of secrets
NAME = "recall.sqlite"
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


def db_path(root: str) -> str:
    """`<git-dir>/chord-memory/recall.sqlite`: per work tree (a linked worktree has its own
    records and MEMORY.md, so its own index); in memory outside a git repository."""
    git_dir = paths.git_dir(root)
    return ":memory:" if git_dir is None else os.path.join(git_dir, paths.STATE_NAME, NAME)


def connect(root: str) -> sqlite3.Connection:
    """The database, created when missing; a damaged one is removed and built again."""
    path = db_path(root)
    if path != ":memory:":
        os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        return _open(path)
    except sqlite3.DatabaseError:  # not a database or damaged: it is only an index
        import contextlib

        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                os.unlink(path + suffix)
    try:
        return _open(path)
    except sqlite3.Error as e:  # still not: a folder in its place, a read-only .git
        from chord_memory.errors import UserError

        raise UserError(f"{os.path.relpath(path, root)}: the recall index cannot be opened ({e}); "
                        "remove it, or use --backend file", 2) from None


def _open(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    if conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA:
        from chord_memory.recall import update

        update.create_schema(conn, SCHEMA)
    return conn


def read_meta(conn: sqlite3.Connection) -> dict[str, object]:
    return dict(conn.execute("SELECT key, value FROM meta").fetchall())


def stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def fingerprint(root: str) -> tuple[str, int]:
    """MEMORY.md's and the records folder's identity, and the newest of their mtimes."""
    md = stat(os.path.join(root, paths.MEMORY_MD))
    folder = stat(os.path.join(root, paths.RECORDS_DIR))
    text = (f"{md.st_ino}:{md.st_size}:{md.st_mtime_ns}" if md else "-") + " " + \
        (f"{folder.st_ino}:{folder.st_mtime_ns}" if folder else "-")
    return text, max(md.st_mtime_ns if md else 0, folder.st_mtime_ns if folder else 0)


def options(conn: sqlite3.Connection, key: bytes) -> Options | None:
    """The configuration values stored with `key`, when the configuration files are unchanged."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'options' AND "
                       "(SELECT value FROM meta WHERE key = 'config') = ?", (key,)).fetchone()
    return Options.unpack(row[0]) if row else None


def is_fresh(conn: sqlite3.Connection, root: str, key: bytes, meta: dict[str, object]) -> bool:
    """True when nothing the database was built from can have changed since."""
    if meta.get("config") != key or meta.get("stable") != 1:
        return False
    if meta.get("fingerprint") != fingerprint(root)[0]:
        return False
    if meta.get("pending"):  # records that did not load: a half-written file may have grown since
        for name, size, mtime in conn.execute("SELECT name, size, mtime_ns FROM records WHERE loads = 0"):
            st = stat(os.path.join(root, paths.record_path(name)))
            if st is None or (st.st_size, st.st_mtime_ns) != (size, mtime):
                return False
    return True


read_record = paths.read_record  # never through a link, never a FIFO


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
        changed = [row[0] for row in rows if read_record(root, row[0]) != row[9]]
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
