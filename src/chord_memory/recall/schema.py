"""What the recall database is, where it lives, and whether it is current.

The tables, the connection (created when missing, built again when damaged), and the
fingerprint of what the database was built from: MEMORY.md's inode, size and mtime and
the records folder's inode and mtime. store.py searches through it and update.py writes
through it; store calls update only when the database is stale, update never calls store.
"""
from __future__ import annotations

# sqlite3's Python half imports datetime for its adapters (about 1.5 ms at start-up);
# the C module underneath is the same connection without them.
import _sqlite3 as sqlite3
import contextlib
import os

from chord_memory import paths
from chord_memory.recall.options import Options

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (about 3 ms)
if TYPE_CHECKING:
    from collections.abc import Iterator

SCHEMA = 6  # 6: the text fields are stored scrubbed of secrets
NAME = "recall.sqlite"
TABLES = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value);
CREATE TABLE state(key TEXT PRIMARY KEY, value);
CREATE TABLE records(
    rid INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, sha TEXT NOT NULL, data BLOB NOT NULL,
    size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, loads INTEGER NOT NULL,
    type TEXT, source TEXT, status TEXT, actor TEXT,
    summary TEXT, conclusion TEXT, why TEXT, how TEXT);
CREATE INDEX records_pending ON records(name) WHERE loads = 0;
CREATE VIRTUAL TABLE fts USING fts5(
    summary, conclusion, why, how, content='records', content_rowid='rid',
    tokenize='porter unicode61 remove_diacritics 2');
CREATE TABLE entries(name TEXT PRIMARY KEY, pos REAL NOT NULL) WITHOUT ROWID;
"""

@contextlib.contextmanager
def writing(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction; a second writer waits for the first (busy timeout)."""
    conn.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit is durable at the next checkpoint
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def create_schema(conn: sqlite3.Connection, version: int) -> None:
    # 16 KiB pages: MEMORY.md's copy in `state` is a large blob, written at every update
    # (three times faster than with 4 KiB pages). Only a new file takes the size.
    conn.execute("PRAGMA page_size = 16384")
    conn.execute("PRAGMA journal_mode=WAL")
    with writing(conn):
        if conn.execute("PRAGMA user_version").fetchone()[0] == version:
            return  # another process created it while this one waited
        for kind, name in conn.execute(
                "SELECT type, name FROM sqlite_master WHERE type = 'table' AND name IN "
                "('meta', 'state', 'records', 'fts', 'entries')").fetchall():
            conn.execute(f"DROP {kind} IF EXISTS {name}")
        for statement in TABLES.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {int(version)}")


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
        create_schema(conn, SCHEMA)
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


