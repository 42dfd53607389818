"""Bringing the recall database up to date: by content hash, incrementally, one transaction.

Each update holds sqlite's write lock (BEGIN IMMEDIATE) for its whole run, so
two processes never index at once and a reader (WAL) sees the database either
before or after an update, never half of one. A record's row and its FTS
entry are written together; a record that does not load is kept without an
FTS entry (so it is never returned) and read again at the next update.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

from chord_memory import paths, records
from chord_memory.recall import entries, schema
from chord_memory.recall.options import Options

if TYPE_CHECKING:  # the connection comes from schema.connect; sqlite3's module is not needed
    import sqlite3

_FIELDS = "type, source, status, actor, summary, conclusion, why, how"
MANY = 64  # from this many records to read, the shared parse cache pays for its load


def _memory_md(conn: sqlite3.Connection, root: str, meta: dict[str, object]) -> str:
    """Bring the entries table to MEMORY.md; the problem to report (an unusable region)."""
    from chord_memory import memory_md

    data: bytes | None = None
    problem = ""
    try:
        data = memory_md.read(root)
    except memory_md.Unreadable as e:
        problem = str(e)
    return entries.update(conn, data, meta) or problem


def _delete(conn: sqlite3.Connection, name: str) -> None:
    row = conn.execute(f"SELECT rid, loads, {_FIELDS} FROM records WHERE name = ?", (name,)).fetchone()
    if row is None:
        return
    if row[1]:
        conn.execute("INSERT INTO fts(fts, rowid, summary, conclusion, why, how) "
                     "VALUES ('delete', ?, ?, ?, ?, ?)", (row[0], *row[6:10]))
    conn.execute("DELETE FROM records WHERE rid = ?", (row[0],))


def _listing(root: str) -> str:
    """The records folder's file names joined by '/' (which no name holds), in the folder's order.

    Equal to the stored listing: no record was added or removed. A link among
    the names is never read (paths.read_record refuses it).
    """
    try:
        return "/".join(os.listdir(os.path.join(root, paths.RECORDS_DIR)))
    except OSError:
        return ""


def _names(files: set[str]) -> set[str]:
    """Record names among file names (temporary `.chord-*.tmp` files and dot files are not)."""
    return {n[:-3] for n in files if n.endswith(".md") and not n.startswith(".")}


class _Loader:
    """Which records load: the shared parse cache for many, a direct parse for a few."""

    def __init__(self, root: str, opts: Options, count: int) -> None:
        from chord_memory import loaded

        self.limits = records.Limits(*opts.limits)
        self.results = loaded.Results(root, self.limits) if count >= MANY else None

    def record(self, name: str, data: bytes, sha: str) -> records.Record | None:
        from chord_memory import loaded

        got = self.results.get(name, data, sha) if self.results else loaded.compute(name, data, self.limits)
        return loaded.record(got)


def _index(conn: sqlite3.Connection, root: str, names: list[str], opts: Options,
           everything: bool = False) -> int:
    """(Re)index the named records from their files; the newest mtime among those that do not load.

    `everything`: these are all the records, so the shared parse cache may keep exactly them.
    """
    from chord_memory.recall import blob_sha

    loader = _Loader(root, opts, len(names))
    newest = 0
    for name in names:
        st = schema.stat(os.path.join(root, paths.record_path(name)))
        data = paths.read_record(root, name)
        if st is None or data is None:
            _delete(conn, name)
            continue
        sha = blob_sha(data)
        row = conn.execute("SELECT sha FROM records WHERE name = ?", (name,)).fetchone()
        if row is not None and row[0] == sha:
            conn.execute("UPDATE records SET size = ?, mtime_ns = ? WHERE name = ?",
                         (st.st_size, st.st_mtime_ns, name))
        else:
            _delete(conn, name)
            _insert(conn, name, sha, data, st, loader.record(name, data, sha))
        if not conn.execute("SELECT loads FROM records WHERE name = ?", (name,)).fetchone()[0]:
            newest = max(newest, st.st_mtime_ns)
    if loader.results is not None and everything:
        loader.results.save()
    return newest


def _insert(conn: sqlite3.Connection, name: str, sha: str, data: bytes, st: os.stat_result,
            rec: records.Record | None) -> None:
    fields: tuple[str | None, ...] = (None,) * 8
    if rec is not None:
        # Indexed and printed scrubbed: a record edited by hand is recalled before `check`
        # refuses its secret at commit time, and recall's output goes into an agent's prompt.
        from chord_memory.secrets import scrub_each

        fields = (rec.type, rec.source, rec.status, rec.actor,
                  *scrub_each([rec.summary, rec.conclusion, rec.why, rec.how]))
    cur = conn.execute(
        f"INSERT INTO records(name, sha, data, size, mtime_ns, loads, {_FIELDS}) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (name, sha, data, st.st_size, st.st_mtime_ns, int(rec is not None), *fields))
    if rec is not None:
        conn.execute("INSERT INTO fts(rowid, summary, conclusion, why, how) VALUES (?, ?, ?, ?, ?)",
                     (cur.lastrowid, *fields[4:]))


def _set(conn: sqlite3.Connection, **values: object) -> None:
    conn.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", values.items())


def _stamp(root: str) -> int | None:
    """The file system's "now": the mtime of a file written now (git's racy-clean rule).

    A file whose mtime is older than the stamp and unchanged at the next look was
    not written since, whatever the timestamp granularity; one as new as the
    stamp may have been, so the next recall looks at contents again.
    """
    db = schema.db_path(root)
    if db == ":memory:":
        return None
    path = os.path.join(os.path.dirname(db), "recall.stamp")
    try:
        with open(path, "wb") as f:
            f.write(b"x")
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def bring_up_to_date(conn: sqlite3.Connection, root: str, key: bytes, opts: Options) -> None:
    with schema.writing(conn):
        meta = schema.read_meta(conn)
        if schema.is_fresh(conn, root, key, meta):
            return  # another process brought it up to date while this one waited
        stamp = _stamp(root)
        fp, newest = schema.fingerprint(root)  # before reading: a later change shows next time
        limits = " ".join(map(str, opts.limits))
        if meta.get("limits") != limits:  # whether a record loads depends on them
            conn.execute("DELETE FROM records")
            conn.execute("INSERT INTO fts(fts) VALUES ('delete-all')")
            conn.execute("DELETE FROM state WHERE key = 'listing'")
        problem = _memory_md(conn, root, meta)
        listing = _listing(root)
        row = conn.execute("SELECT value FROM state WHERE key = 'listing'").fetchone()
        if row is None or listing != row[0] or meta.get("pending"):
            old = set(row[0].split("/")) if row else {f"{n}.md" for (n,) in
                                                       conn.execute("SELECT name FROM records")}
            new = set(listing.split("/"))
            for name in _names(old - new):
                _delete(conn, name)
            again = {n for (n,) in conn.execute("SELECT name FROM records WHERE loads = 0")
                     if f"{n}.md" in new}  # did not load last time: read them again
            todo = sorted(_names(new - old) | again)
            newest = max(newest, _index(conn, root, todo, opts, everything=not old))
        count = conn.execute("SELECT count(*) FROM records WHERE loads = 0").fetchone()[0]
        conn.execute("INSERT OR REPLACE INTO state(key, value) VALUES ('listing', ?)", (listing,))
        _set(conn, config=key, options=opts.pack(), limits=limits, fingerprint=fp, problem=problem,
             stable=int(stamp is not None and newest < stamp), pending=count)


def refresh(conn: sqlite3.Connection, root: str, names: list[str], opts: Options) -> None:
    """Index these records again from their files (they were edited in place)."""
    with schema.writing(conn):
        _index(conn, root, names, opts)
        count = conn.execute("SELECT count(*) FROM records WHERE loads = 0").fetchone()[0]
        _set(conn, pending=count)
