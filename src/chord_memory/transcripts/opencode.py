"""OpenCode sessions: the JSON storage folder (before 1.2) and the SQLite database (1.2 on).

OpenCode keeps its data in ``$XDG_DATA_HOME/opencode`` (``~/.local/share/opencode``):

- before 1.2, JSON files under ``storage/``: ``session/<projectID>/<sessionID>.json`` (the
  session), ``message/<sessionID>/<messageID>.json`` and ``part/<messageID>/<partID>.json``;
  a session's path is its session file;
- from 1.2, ``opencode.db`` (``opencode-<channel>.db`` off the stable channels, or
  ``$OPENCODE_DB``) with the same messages and parts as rows of ``message`` and ``part``, and
  in 2.x rows of ``session_message``; a session's path is ``<database>#<sessionID>``.

A session is a list of messages (``UNIT = "messages"``): ``end_offset`` counts the messages
read. A prompt is the text parts of a user message that OpenCode did not write itself
(``synthetic`` and ``ignored`` parts, plugin-marked parts and the wrappers in ``HARNESS`` are
left out); a turn's reply is the last text of the last assistant message with text before the
next prompt; an assistant ``summary`` message (a compaction) is history. Tool calls, reasoning,
files and sub-agent sessions (``parentID``) never become a turn. See docs/transcripts.md.
"""
from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import sqlite3
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from chord_memory.paths import open_regular
from chord_memory.transcripts import Session, Turn, jsonl
from chord_memory.transcripts.discover import same_dir
from chord_memory.transcripts.typed import CUT, DROP, Harness, Rule, Voice

KIND = "opencode"
UNIT = "messages"

# Text OpenCode (or a plugin) puts in user-role text parts without marking them synthetic:
# older releases did not mark them; command templates and plugin notices are never marked.
HARNESS = Harness((
    Rule("system reminder", "<system-reminder>", CUT, "</system-reminder>"),
    Rule("plugin slash command", "<auto-slash-command>", CUT, "</auto-slash-command>"),
    Rule("attached file read", "Called the Read tool with the following input:", DROP),
    Rule("attached folder list", "Called the list tool with the following input:", DROP),
    Rule("attached file contents", "<file>", DROP),
    Rule("attached file contents", "<path>", DROP),
    Rule("attached file error", "Read tool failed to read", DROP),
    Rule("MCP resource", "Reading MCP resource:", DROP),
    Rule("shell command", "The following tool was executed by the user", DROP),
    Rule("sub-agent result", "Summarize the task tool output above and continue with your task.", DROP),
    Rule("agent mention", "Use the above message and context to generate a prompt and call the task", DROP),
    Rule("compaction", "Continue if you have next steps, or stop and ask for clarification", DROP),
    Rule("compaction", "The previous request exceeded the provider's size limit", DROP),
    Rule("stripped attachment", "[Attached ", DROP),
    Rule("tool attachment", "Attached image(s) from tool result:", DROP),
    Rule("/init template", "Please analyze this codebase and create an AGENTS.md file", DROP),
    Rule("/init template", "Create or update `AGENTS.md` for this repository.", DROP),
    Rule("/review template", "You are a code reviewer. Your job is to review code changes", DROP),
    Rule("background task", "<task id=", DROP),
    Rule("plugin notice", "[BACKGROUND TASK COMPLETED]", DROP),
    Rule("plugin notice", "[ALL BACKGROUND TASKS COMPLETE]", DROP),
    Rule("plugin notice", "[SYSTEM DIRECTIVE:", DROP),
    Rule("plugin notice", "[SYSTEM REMINDER - TODO CONTINUATION]", DROP),
))
# A text part carrying one of these was written by a plugin acting for the agent
# (oh-my-opencode and its forks append it to the prompts they send): not typed.
_INTERNAL_MARK = re.compile(r"<!--\s*[A-Z][A-Z0-9_]*_INTERNAL_INITIATOR\s*-->")
_INVISIBLE_MARK = "\u2063\u2060\u200b\u200c\u200d\u2063\u2060\u200b\u200c\u200d"

_MAX = jsonl.MAX_LINE_BYTES
_HEAD = 4096  # how much of a part file is read to learn its type
_TYPE = re.compile(rb'"type"\s*:\s*"([A-Za-z-]{1,40})"')
# Part types whose content is never read: known by type alone (tool output is most bytes).
_SHALLOW = frozenset({"tool", "reasoning", "step-finish", "patch", "snapshot", "file", "agent",
                      "subtask", "compaction", "retry"})
_BREAKS = ("tool", "step-start", "tool-invocation")  # a reply's text is what follows the last of these
_CONVERSATION = ("user", "assistant", "compaction")  # session_message types of 2.x


class _Part(NamedTuple):
    type: str
    text: str
    plain: bool  # neither synthetic nor ignored


class _Message(NamedTuple):
    id: str
    kind: str  # user | assistant | history | other | bad
    complete: bool
    payload: Any  # where the parts are, or the parts themselves


class _Meta(NamedTuple):
    id: str
    cwd: str | None
    parent: str | None
    revert: str | None = None  # undone from this message on (until the next prompt removes them)


# -- the two stores ---------------------------------------------------------------------------


class _Store:
    meta: _Meta
    skipped: int

    def messages(self) -> list[_Message]:
        raise NotImplementedError

    def parts(self, message: _Message) -> list[_Part]:
        raise NotImplementedError

    def close(self) -> None:
        pass


class _JsonStore(_Store):
    """``storage/session/<projectID>/<id>.json`` and the message and part folders beside it
    (or, before 0.4, ``storage/session/info/<id>.json`` with ``session/message`` and
    ``session/part``)."""

    def __init__(self, path: str) -> None:
        self.skipped = 0
        data = _read_file(path)  # OSError when it cannot be opened
        info = jsonl.parse(data) if data is not None else None
        session = info is not None and _is_session_info(info)
        if not session:
            self.skipped += 1
        # a broken session file still names its messages; a message, part or project file none
        self.readable = session or info is None
        info = info if session and info is not None else {}
        self.message_dir, self.part_dir = _json_layout(path)
        stem = os.path.splitext(os.path.basename(path))[0]
        cwd = jsonl.text_of(info.get("directory")) or _project_worktree(path, info)
        self.meta = _Meta(jsonl.text_of(info.get("id")) or stem, cwd, jsonl.text_of(info.get("parentID")),
                          _revert(info.get("revert")))

    def messages(self) -> list[_Message]:
        if not self.readable:
            return []
        out = []
        for name in _json_names(self.message_dir):
            mid = name[:-5]
            data = _read_file(os.path.join(self.message_dir, name), missing_ok=True)
            obj = jsonl.parse(data) if data is not None else None
            out.append(_v1_message(mid, obj, self.part_dir))
        return out

    def parts(self, message: _Message) -> list[_Part]:
        if isinstance(message.payload, list):  # 0.0.x: the parts are inside the message
            return message.payload
        folder = message.payload
        out: list[_Part] = []
        for name in _json_names(folder):
            part = self._part_file(os.path.join(folder, name))
            if part is not None:
                out.append(part)
        return out

    def _part_file(self, path: str) -> _Part | None:
        try:
            with open_regular(path) as f:
                head = f.read(_HEAD)
                found = _TYPE.search(head)
                kind = found.group(1).decode() if found else ""
                if kind in _SHALLOW:
                    return _Part(kind, "", False)  # known by its type: its content is not read
                size = os.fstat(f.fileno()).st_size
                if size > _MAX:
                    self.skipped += 1
                    return None
                data = head + f.read()
        except OSError:
            return None  # deleted since it was listed
        part = _v1_part(jsonl.parse(data))
        if part is None:
            self.skipped += 1
        return part


class _DbStore(_Store):
    """One session of ``opencode.db``: rows of ``message`` and ``part`` (1.x) or of
    ``session_message`` (2.x; a 1.x database has that table too, with only switch events)."""

    def __init__(self, db: str, sid: str) -> None:
        self.skipped = 0
        self.con = _connect(db)
        try:
            self.tables = _tables(self.con)
            row = _session_row(self.con, self.tables, sid)
            if row is None:
                self.skipped += 1
            self.meta = _row_meta(self.con, self.tables, sid, row or {})
            self.v2 = "session_message" in self.tables and _has_rows(
                self.con, "SELECT 1 FROM session_message WHERE session_id = ? AND type IN (?, ?, ?) LIMIT 1",
                (sid, *_CONVERSATION))
            self.order = _v2_order(self.con) if self.v2 else "time_created, id"
        except sqlite3.Error as e:
            self.con.close()
            raise OSError(f"{db}: {e}") from e
        self.sid = sid

    def messages(self) -> list[_Message]:
        try:
            if self.v2:
                return self._v2_messages()
            if "message" not in self.tables:
                return []
            rows = self.con.execute(
                "SELECT id, CASE WHEN length(data) <= ? THEN data END FROM message WHERE session_id = ? "
                f"ORDER BY {self.order}", (_MAX, self.sid))
            return [_v1_message(str(mid), _parse_text(data), lambda m: m) for mid, data in rows]
        except sqlite3.Error as e:
            raise OSError(str(e)) from e

    def _v2_messages(self) -> list[_Message]:
        rows = self.con.execute(
            "SELECT id, type, CASE WHEN length(data) <= ? THEN data END FROM session_message "
            f"WHERE session_id = ? ORDER BY {self.order}", (_MAX, self.sid))
        return [_v2_message(str(mid), kind, _parse_text(data)) for mid, kind, data in rows]

    def parts(self, message: _Message) -> list[_Part]:
        if isinstance(message.payload, list):
            return message.payload
        if "part" not in self.tables:
            return []
        try:
            rows = self.con.execute(
                "SELECT id, length(data), substr(data, 1, 200) FROM part WHERE message_id = ? ORDER BY id",
                (message.payload,)).fetchall()
            out: list[_Part] = []
            for pid, size, head in rows:
                found = _TYPE.search(head.encode("utf-8", "replace")) if isinstance(head, str) else None
                kind = found.group(1).decode() if found else ""
                if kind in _SHALLOW:
                    out.append(_Part(kind, "", False))
                    continue
                if not isinstance(size, int) or size > _MAX:
                    self.skipped += 1
                    continue
                got = self.con.execute("SELECT data FROM part WHERE id = ?", (pid,)).fetchone()
                part = _v1_part(_parse_text(got[0] if got else None))
                if part is None:
                    self.skipped += 1
                else:
                    out.append(part)
            return out
        except sqlite3.Error as e:
            raise OSError(str(e)) from e

    def close(self) -> None:
        self.con.close()


def _open(path: str) -> _Store:
    db, sid = _split(path)
    if db is not None:
        return _DbStore(db, sid)
    return _JsonStore(path)


def _split(path: str) -> tuple[str | None, str]:
    """(database, session id) for ``<database>#<id>``; (None, path) for a session file."""
    if os.path.isfile(path) or "#" not in path:
        return None, path
    db, _, sid = path.rpartition("#")
    return db, sid


# -- reading ----------------------------------------------------------------------------------


def read(path: str, start_offset: int = 0) -> Session:
    store = _open(path)
    try:
        messages = store.messages()
        end = _end(messages, store.meta.revert)
        state = _State(start_offset)
        # a resumed read parses what it read before too (for the echo filter), counting nothing
        for index, message in enumerate(messages[:end] if start_offset < end else [], 1):
            counted = store.skipped
            if message.kind == "bad":
                store.skipped += 1
            elif message.kind != "other":
                parts = store.parts(message)
                if index == end and message.kind == "user" and not parts:
                    end -= 1  # its parts are still being written: read it next time
                    break
                state.message(index, message.kind, parts)
            if index <= start_offset:
                store.skipped = counted
    finally:
        store.close()
    meta = store.meta
    return Session(KIND, meta.id, path, meta.cwd, state.finish(), start_offset,
                   max(start_offset, end), store.skipped)


def _end(messages: list[_Message], revert: str | None = None) -> int:
    """How many messages may be consumed: not an unfinished assistant message at the end
    (nor what follows it), unless a later assistant message finished (it was abandoned); not
    the messages a pending undo withdrew (the next prompt deletes them, a redo restores them)."""
    if revert is not None:
        undone = next((i for i, m in enumerate(messages) if m.id == revert), None)
        if undone is not None:
            messages = messages[:undone]
    done = max((i for i, m in enumerate(messages) if m.kind in ("assistant", "history") and m.complete),
               default=-1)
    for i in range(done + 1, len(messages)):
        if messages[i].kind in ("assistant", "history") and not messages[i].complete:
            return i
    return len(messages)


class _State:
    def __init__(self, start: int) -> None:
        self.start = start
        self.voice = Voice(HARNESS)
        self.turns: list[Turn] = []
        self.pending: Turn | None = None  # the last assistant text of the current turn
        self.last_prompt: str | None = None
        self.compacted = False  # a summary since the last prompt

    def _add(self, turn: Turn) -> None:
        if turn.line > self.start:
            self.turns.append(turn)

    def message(self, index: int, kind: str, parts: list[_Part]) -> None:
        if kind == "user":
            blocks = [p.text for p in parts if p.type == "text" and p.plain and not _internal(p.text)]
            text = self.voice.user(blocks) if blocks else None
            if text is None:
                return  # not something the user typed: the turn goes on
            if self.compacted and text == self.last_prompt:
                self.compacted = False
                return  # the prompt OpenCode sends again after compacting: not said twice
            self._flush()
            self.last_prompt, self.compacted = text, False
            self._add(Turn("user", text, index))
            return
        texts = [p.text for p in parts if p.type == "text" and p.text.strip()]
        for text in texts:
            self.voice.assistant(text)
        if kind == "history":
            if texts:
                self.compacted = True
                self._add(Turn("history", "\n\n".join(t.strip() for t in texts), index))
            return
        reply = _reply(parts)
        if reply:
            self.pending = Turn("assistant", reply, index)

    def _flush(self) -> None:
        if self.pending is not None:
            self._add(self.pending)
            self.pending = None

    def finish(self) -> list[Turn]:
        self._flush()
        return sorted(self.turns, key=lambda turn: turn.line)


def _reply(parts: list[_Part]) -> str:
    """The text after the last tool call or step that has text after it."""
    groups: list[list[str]] = [[]]
    for part in parts:
        if part.type in _BREAKS:
            groups.append([])
        elif part.type == "text" and part.plain and part.text.strip():
            groups[-1].append(part.text.strip())
    for group in reversed(groups):
        if group:
            return "\n\n".join(group)
    return ""


def _internal(text: str) -> bool:
    """A part a plugin wrote and marked as its own."""
    if _INVISIBLE_MARK in text:
        return True
    return "INTERNAL_INITIATOR" in text and _INTERNAL_MARK.search(text) is not None


# -- message and part shapes ------------------------------------------------------------------


def _v1_message(mid: str, obj: dict[str, Any] | None, where: Callable[[str], Any]) -> _Message:
    """A message file or ``message`` row: ``role``, ``time.completed``, ``finish``, ``summary``."""
    if obj is None:
        return _Message(mid, "bad", True, None)
    role = obj.get("role")
    inline = obj.get("parts")  # 0.0.x kept the parts in the message
    payload: Any = where(mid)
    if isinstance(inline, list):
        payload = [p for p in map(_v1_part, inline) if p is not None]
    if role == "user":
        return _Message(mid, "user", True, payload)
    if role != "assistant":
        return _Message(mid, "bad", True, None)
    meta = _dict(obj.get("metadata"))
    assistant = _dict(meta.get("assistant"))
    summary = obj.get("summary") is True or assistant.get("summary") is True
    complete = (_finished(obj.get("time")) or _finished(meta.get("time"))
                or bool(jsonl.text_of(obj.get("finish"))) or obj.get("error") is not None
                or meta.get("error") is not None)
    return _Message(mid, "history" if summary else "assistant", complete, payload)


def _finished(time: object) -> bool:
    completed = time.get("completed") if isinstance(time, dict) else None
    return isinstance(completed, (int, float)) and not isinstance(completed, bool)


def _v1_part(obj: object) -> _Part | None:
    """A part: ``type``, ``text`` for text parts, and the ``synthetic`` / ``ignored`` flags."""
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        return None
    plain = obj.get("synthetic") is not True and obj.get("ignored") is not True
    return _Part(obj["type"], _str(obj.get("text")), plain)


def _v2_message(mid: str, kind: object, data: dict[str, Any] | None) -> _Message:
    """A ``session_message`` row of 2.x: ``type`` says what it is, ``data`` holds the rest."""
    if data is None:
        return _Message(mid, "bad", True, None)
    if kind == "user":
        return _Message(mid, "user", True, [_Part("text", _str(data.get("text")), True)])
    if kind == "compaction":
        return _Message(mid, "history", True, [_Part("text", _str(data.get("summary")), True)])
    if kind != "assistant":
        return _Message(mid, "other", True, None)  # synthetic, shell, switches: not said
    content = data.get("content")
    parts = [p for p in map(_v1_part, content) if p is not None] if isinstance(content, list) else []
    complete = (_finished(data.get("time")) or bool(jsonl.text_of(data.get("finish")))
                or data.get("error") is not None)
    return _Message(mid, "assistant", complete, parts)


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _is_session_info(info: dict[str, Any]) -> bool:
    if "role" in info or "messageID" in info or not isinstance(info.get("id"), str):
        return False
    return info["id"].startswith("ses") or any(k in info for k in ("projectID", "directory", "title"))


# -- files ------------------------------------------------------------------------------------


def _read_file(path: str, missing_ok: bool = False) -> bytes | None:
    """The bytes of a JSON file, or None when it is bigger than ``_MAX`` (not read)."""
    try:
        with open_regular(path) as f:
            if os.fstat(f.fileno()).st_size > _MAX:
                return None
            return f.read(_MAX + 1)
    except OSError:
        if missing_ok:
            return None
        raise


def _json_names(folder: str) -> list[str]:
    """The ``*.json`` files of a folder, in id order (ids sort by creation time)."""
    try:
        return sorted(n for n in os.listdir(folder) if n.endswith(".json") and not n.startswith("."))
    except OSError:
        return []


def _json_layout(path: str) -> tuple[str, Callable[[str], str]]:
    """(the session's message folder, a message's part folder) for a session file."""
    sid = os.path.splitext(os.path.basename(path))[0]
    folder = os.path.dirname(os.path.abspath(path))
    top = os.path.dirname(folder)  # storage/session
    if os.path.basename(folder) == "info" and os.path.basename(top) == "session":
        return os.path.join(top, "message", sid), lambda mid: os.path.join(top, "part", sid, mid)
    storage = os.path.dirname(top)
    return os.path.join(storage, "message", sid), lambda mid: os.path.join(storage, "part", mid)


def _project_worktree(path: str, info: dict[str, Any]) -> str | None:
    """For a session file naming no directory: its project's worktree, else the ``path.cwd``
    its assistant messages name."""
    project = jsonl.text_of(info.get("projectID"))
    if project is not None and project != "global" and os.sep not in project:
        storage = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(path))))
        data = _read_file(os.path.join(storage, "project", project + ".json"), missing_ok=True)
        obj = jsonl.parse(data) if data is not None else None
        worktree = jsonl.text_of(obj.get("worktree")) if obj is not None else None
        if worktree is not None and worktree != "/":
            return worktree
    if not info:
        return None
    folder, _ = _json_layout(path)
    for name in _json_names(folder)[:50]:
        data = _read_file(os.path.join(folder, name), missing_ok=True)
        obj = jsonl.parse(data) if data is not None and len(data) < 1024 * 1024 else None
        where = obj.get("path") if obj is not None else None
        if isinstance(where, dict):
            cwd = jsonl.text_of(where.get("cwd")) or jsonl.text_of(where.get("root"))
            if cwd is not None:
                return cwd
    return None


# -- the database -----------------------------------------------------------------------------


def _connect(db: str) -> sqlite3.Connection:
    """A read-only connection (OpenCode may be writing: never lock it)."""
    if not os.path.isfile(db):
        raise FileNotFoundError(db)
    uri = "file:" + urllib.parse.quote(os.path.abspath(db)) + "?mode=ro"
    try:
        return sqlite3.connect(uri, uri=True, timeout=2.0)
    except sqlite3.Error as e:
        raise OSError(f"{db}: {e}") from e


def _tables(con: sqlite3.Connection) -> set[str]:
    return {str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _columns(con: sqlite3.Connection, table: str) -> set[str]:
    return {str(r[1]) for r in con.execute(f"PRAGMA table_info({table})")}


def _has_rows(con: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> bool:
    return con.execute(sql, args).fetchone() is not None


def _v2_order(con: sqlite3.Connection) -> str:
    return "seq, id" if "seq" in _columns(con, "session_message") else "time_created, id"


def _session_tables(tables: set[str]) -> list[str]:
    """2.x sessions first: a session found in both is a 2.x one."""
    return [t for t in ("session_v2", "session") if t in tables]


def _session_row(con: sqlite3.Connection, tables: set[str], sid: str) -> dict[str, Any] | None:
    for table in _session_tables(tables):
        cur = con.execute(f"SELECT * FROM {table} WHERE id = ?", (sid,))
        row = cur.fetchone()
        if row is not None:
            return dict(zip([d[0] for d in cur.description], row, strict=True))
    return None


def _row_meta(con: sqlite3.Connection, tables: set[str], sid: str, row: dict[str, Any]) -> _Meta:
    cwd = jsonl.text_of(row.get("directory"))
    project = row.get("project_id")
    known = "project" in tables and "worktree" in _columns(con, "project")
    if cwd is None and isinstance(project, str) and known:
        got = con.execute("SELECT worktree FROM project WHERE id = ?", (project,)).fetchone()
        worktree = jsonl.text_of(got[0]) if got else None
        cwd = worktree if worktree != "/" else None
    revert = row.get("revert")
    return _Meta(sid, cwd, jsonl.text_of(row.get("parent_id")),
                 _revert(_parse_text(revert) if isinstance(revert, str) else None))


def _revert(value: object) -> str | None:
    """The message a pending undo starts at (``session.revert.messageID``)."""
    return jsonl.text_of(value.get("messageID")) if isinstance(value, dict) else None


def _parse_text(data: object) -> dict[str, Any] | None:
    if isinstance(data, bytes):
        return jsonl.parse(data)
    if not isinstance(data, str):
        return None
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def _db_sessions(db: str) -> Iterator[tuple[str, str | None, str | None]]:
    """(id, directory, parent id) of every session in a database, 2.x rows first."""
    try:
        con = _connect(db)
    except OSError:
        return
    try:
        tables = _tables(con)
        worktrees: dict[str, str] = {}
        if "project" in tables and {"id", "worktree"} <= _columns(con, "project"):
            worktrees = {str(i): w for i, w in con.execute("SELECT id, worktree FROM project")
                         if isinstance(w, str) and w != "/"}
        seen: set[str] = set()
        for table in _session_tables(tables):
            cols = _columns(con, table)
            pick = [c if c in cols else "NULL" for c in ("id", "directory", "parent_id", "project_id")]
            for sid, directory, parent, project in con.execute(f"SELECT {', '.join(pick)} FROM {table}"):
                if not isinstance(sid, str) or sid in seen:
                    continue
                seen.add(sid)
                cwd = jsonl.text_of(directory) or worktrees.get(str(project))
                yield sid, cwd, jsonl.text_of(parent)
    except sqlite3.Error:
        return
    finally:
        con.close()


def _is_sqlite(path: str) -> bool:
    try:
        with open_regular(path) as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


# -- resuming and freezing --------------------------------------------------------------------


def checkpoint(path: str, offset: int) -> str | None:
    """The session id, its first message's id and the id of the last message read: a resumed
    read starts over when messages before ``offset`` changed (a revert removes messages)."""
    try:
        ids = _message_ids(path)
    except OSError:
        return None
    if offset > len(ids):
        return None
    last = ids[offset - 1] if offset > 0 else ""
    key = "\0".join((path, ids[0] if ids else "", last))
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:16]


def _message_ids(path: str) -> list[str]:
    db, sid = _split(path)
    if db is None:
        if not os.path.isfile(path):
            raise FileNotFoundError(path)
        folder, _ = _json_layout(path)
        return [n[:-5] for n in _json_names(folder)]
    store = _DbStore(db, sid)
    try:
        if store.v2:
            sql = f"SELECT id FROM session_message WHERE session_id = ? ORDER BY {store.order}"
        elif "message" in store.tables:
            sql = f"SELECT id FROM message WHERE session_id = ? ORDER BY {store.order}"
        else:
            return []
        return [str(r[0]) for r in store.con.execute(sql, (sid,))]
    except sqlite3.Error as e:
        raise OSError(str(e)) from e
    finally:
        store.close()


def stamp(path: str) -> tuple[float, int]:
    """(newest change, size): a session file's messages and parts are files of their own;
    in a database, its rows' ``time_updated`` and their number."""
    db, sid = _split(path)
    if db is None:
        return _json_stamp(path)
    con = _connect(db)
    try:
        tables = _tables(con)
        newest, count = 0.0, 0
        queries: list[tuple[str, str]] = [(t, "session_id") for t in ("message", "part", "session_message")
                                          if t in tables]
        queries += [(t, "id") for t in _session_tables(tables)]
        for table, key in queries:
            if not {"time_updated", key} <= _columns(con, table):
                continue
            got = con.execute(f"SELECT max(time_updated), count(*) FROM {table} WHERE {key} = ?",
                              (sid,)).fetchone()
            if got and isinstance(got[0], (int, float)):
                newest = max(newest, got[0] / 1000.0)
            count += int(got[1]) if got and isinstance(got[1], int) else 0
    except sqlite3.Error as e:
        raise OSError(str(e)) from e
    finally:
        con.close()
    return (newest or os.stat(db).st_mtime), count


def _json_stamp(path: str) -> tuple[float, int]:
    st = os.stat(path)
    newest, size = st.st_mtime, st.st_size
    message_dir, part_dir = _json_layout(path)
    newest = max(newest, _mtime(message_dir))
    for name in _json_names(message_dir):
        newest, size = _add_stat(os.path.join(message_dir, name), newest, size)
        parts = part_dir(name[:-5])
        newest = max(newest, _mtime(parts))
        for part in _json_names(parts):
            newest, size = _add_stat(os.path.join(parts, part), newest, size)
    return newest, size


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


def _add_stat(path: str, newest: float, size: int) -> tuple[float, int]:
    try:
        st = os.stat(path)
    except OSError:
        return newest, size
    return max(newest, st.st_mtime), size + st.st_size


# -- finding sessions -------------------------------------------------------------------------


def data_dir(home: str, env: Mapping[str, str]) -> str:
    """OpenCode's data folder: ``$XDG_DATA_HOME/opencode``, by default ``~/.local/share/opencode``
    (on macOS and Windows too: OpenCode uses the XDG layout everywhere)."""
    base = env.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    return os.path.join(base, "opencode")


def _databases(data: str, env: Mapping[str, str]) -> list[str]:
    found = set(glob.glob(os.path.join(glob.escape(data), "opencode*.db")))
    custom = env.get("OPENCODE_DB")
    if custom and custom != ":memory:":
        found.add(custom if os.path.isabs(custom) else os.path.join(data, custom))
    # the stable channel's database first: a session copied into another is read from it
    return sorted((p for p in found if os.path.isfile(p)),
                  key=lambda p: (os.path.basename(p) != "opencode.db", p))


def discover(project_root: str, home: str, env: Mapping[str, str]) -> Iterable[str]:
    data = data_dir(home, env)
    return _sessions(project_root, _databases(data, env), _json_files(data))


def _json_files(data: str) -> list[str]:
    """The session files of a data folder: ``storage/session/<projectID>/*.json``, then those
    of the per-project layout before 0.4 (``project/<name>/storage/session/info/*.json``)."""
    base = glob.escape(data)
    files = sorted(glob.glob(os.path.join(base, "storage", "session", "*", "*.json")))
    old = os.path.join(base, "project", "*", "storage", "session", "info", "*.json")
    return files + sorted(glob.glob(old))


def _sessions(project_root: str, dbs: list[str], files: list[str]) -> Iterator[str]:
    """This project's top-level sessions in the databases, then the session files not also in
    a database (OpenCode copies its JSON sessions into the database and leaves the files)."""
    seen: set[str] = set()
    for db in dbs:
        for sid, cwd, parent in _db_sessions(db):
            if parent is None and cwd is not None and same_dir(cwd, project_root) and sid not in seen:
                seen.add(sid)
                yield f"{db}#{sid}"
    for path in files:
        sid = os.path.splitext(os.path.basename(path))[0]
        if sid not in seen and belongs(path, project_root):
            seen.add(sid)
            yield path


def expand(match: str, project_root: str) -> Iterable[str]:
    """The sessions a globbed path holds: an OpenCode data folder's (databases and storage), a
    ``storage`` or ``storage/session`` folder's session files, a database's sessions, a session
    file itself; nothing for a message, part or other file."""
    if os.path.isdir(match):
        folder = os.path.normpath(match)
        name = os.path.basename(folder)
        if name == "storage":
            return list(_sessions(project_root, [], sorted(
                glob.glob(os.path.join(glob.escape(folder), "session", "*", "*.json")))))
        if name == "session":
            return list(_sessions(project_root, [], sorted(
                glob.glob(os.path.join(glob.escape(folder), "*", "*.json")))))
        return list(_sessions(project_root, _databases(folder, {}), _json_files(folder)))
    if not os.path.isfile(match):
        return []
    if _is_sqlite(match):
        return list(_sessions(project_root, [match], []))
    return [match] if _session_file_place(match) else []


def _session_file_place(path: str) -> bool:
    """``.../session/<projectID>/<id>.json`` or ``.../session/info/<id>.json``."""
    folder = os.path.dirname(os.path.abspath(path))
    return path.endswith(".json") and os.path.basename(os.path.dirname(folder)) == "session"


def belongs(path: str, project_root: str) -> bool:
    """A top-level session of this project: its directory (or, when it names none, its
    project's worktree) is ``project_root``; one that names no directory at all is accepted."""
    try:
        db, sid = _split(path)
        if db is None:
            data = _read_file(path)
            info = jsonl.parse(data) if data is not None else None
            if info is None or not _is_session_info(info):
                return False
            meta = _Meta(sid, jsonl.text_of(info.get("directory")) or _project_worktree(path, info),
                         jsonl.text_of(info.get("parentID")))
        else:
            store = _DbStore(db, sid)
            try:
                meta = store.meta
                if store.skipped:
                    return False  # the database does not hold it
            finally:
                store.close()
    except OSError:
        return False
    if meta.parent is not None:
        return False
    return meta.cwd is None or same_dir(meta.cwd, project_root)
