"""Gemini CLI chat recordings: ``~/.gemini/tmp/<project>/chats/session-*.json[l]``.

Two layouts, told apart by the file's first line:

- up to 0.38: one JSON document, ``{"sessionId", "projectHash", ..., "messages": [...]}``,
  rewritten whole on every save (pretty-printed). It is streamed: the ``messages`` array is
  walked element by element (strings skipped by search, brackets counted) and each element
  of at most ``jsonl.MAX_LINE_BYTES`` is parsed on its own; bigger ones are read past.
- from 0.39: JSON Lines, appended to: a metadata line, then one line per message written
  again (same ``id``) each time it is updated, ``{"$set": {...}}`` metadata updates (whose
  ``messages`` rebuild the history after compression) and ``{"$rewindTo": id}``.

``end_offset`` counts messages (array elements) of a document and lines of a JSONL file.
A message of type ``user`` is a prompt unless it carries a tool response or holds only text
Gemini CLI writes itself (``HARNESS``); the reply of a turn is the last ``gemini`` message
with text before the next prompt. See docs/transcripts.md.
"""
from __future__ import annotations

import glob
import hashlib
import json
import os
import re
from collections.abc import Generator, Iterable, Iterator, Mapping
from typing import IO, Any, NamedTuple

from chord_memory.paths import open_regular
from chord_memory.transcripts import Session, Turn, jsonl, session
from chord_memory.transcripts.discover import same_dir
from chord_memory.transcripts.typed import AFTER, CUT, DROP, Harness, Rule, Voice

KIND = "gemini-cli"
UNIT = "messages"

# Text Gemini CLI puts into user messages itself. The @-reference and hook spans are cut
# out of a prompt; the other messages are Gemini's own (see docs/transcripts.md).
HARNESS = Harness((
    Rule("@ file contents", "--- Content from referenced files ---", CUT, "--- End of content ---"),
    Rule("hook context", "<hook_context>", CUT, "</hook_context>"),
    Rule("session context", "<session_context>", DROP),
    Rule("setup context", "This is the Gemini CLI. We are setting up the context for our chat.", DROP),
    Rule("directory context", "I'm currently working in the ", DROP),
    Rule("workspace directories", "- **Workspace Directories:**", DROP),
    Rule("IDE context", "Here is the user's editor context", DROP),
    Rule("IDE context update", "Here is a summary of changes in the user's editor context", DROP),
    Rule("shell mode", "I ran the following shell command:", DROP),
    Rule("next-speaker check", "Please continue.", AFTER, "\n"),
    Rule("loop recovery", "System: Potential loop detected.", DROP),
    Rule("nudge", "[System: ", DROP),
    Rule("/init prompt", "You are an AI agent that brings the power of Gemini directly into the terminal.",
         DROP),
))

_TYPES = ("user", "gemini", "info", "error", "warning")
_SNAPSHOT = "<state_snapshot>"
_MAX = jsonl.MAX_LINE_BYTES
_CHUNK = 1024 * 1024
_HEAD = 4096
_QUOTE, _BACKSLASH = 0x22, 0x5C
_WS = re.compile(rb"[ \t\r\n]*")
_BRACKET = re.compile(rb'["\[\]{}]')
_ATOM = re.compile(rb"[^,\]}\s]*")
_ID = re.compile(rb'"id"\s*:\s*"((?:[^"\\]|\\.)*)"')
_HASH = re.compile(r"[0-9a-f]{64}")
# A JSONL message line as Gemini CLI writes it (JSON.stringify keeps this key order).
_LINE_HEAD = re.compile(rb'\{"id":"((?:[^"\\]|\\.)*)","timestamp":"[^"]*","type":"([a-z]+)",')
_TOOL_RESPONSE = b'"content":[{"functionResponse":'
# The top-level toolCalls key of a message (outside strings a quote is never escaped): Gemini
# writes it after id, type and content, so what comes before it is all a reader needs.
_TOOL_CALLS = re.compile(rb',\s*"toolCalls"\s*:\s*\[\s*(\]?)')
_KEEP_HEAD = 1024 * 1024  # of an element too big to keep: enough to find its content


# -- reading ---------------------------------------------------------------------------------


def read(path: str, start_offset: int = 0) -> Session:
    with open_regular(path) as f:
        layout = _layout(f)
        f.seek(0)
        state = _State(start_offset)
        if layout == "jsonl":
            _read_jsonl(f, state)
        elif layout == "document":
            _read_document(f, state)
        turns, end = state.finish()
    return session(KIND, path, state.id, None, turns, start_offset, jsonl.Scan(end, state.skipped))


def _layout(f: IO[bytes]) -> str:
    """``jsonl`` when the first line is a JSON object of its own without ``messages``."""
    first = f.readline(_MAX + 1)
    if not first.strip():
        return "empty" if not f.read(1) else "document"
    obj = jsonl.parse(first) if first.endswith(b"\n") or len(first) <= _MAX else None
    return "jsonl" if obj is not None and "messages" not in obj else "document"


class _Msg(NamedTuple):
    key: str  # the message id ("" when it has none)
    type: str  # user | gemini | info | error | warning
    line: int  # 1-based: the element of a document, the first line of a JSONL message
    text: str  # its text parts, joined (thoughts left out)
    display: str | None  # user: what the prompt box showed, when Gemini kept it apart
    tools: bool  # gemini: it calls tools; user: it carries a tool response
    rebuilt: bool  # first seen in a history rebuild ($set.messages): Gemini's, never a prompt


def _load(data: bytes, whole: bool = True) -> dict[str, Any] | None:
    """A message record parsed up to its ``toolCalls`` (left unread: tool output is most of a
    session's bytes); the whole of it when it has none and ``whole`` says it is all there."""
    calls = _TOOL_CALLS.search(data)
    if calls is None:
        return jsonl.parse(data) if whole else None
    obj = jsonl.parse(data[:calls.start()] + b"}")
    if obj is None or "type" not in obj:
        return jsonl.parse(data) if whole else None  # not laid out as Gemini CLI writes it
    obj["toolCalls"] = [] if calls.group(1) else [None]
    return obj


def _message(obj: dict[str, Any], line: int, rebuilt: bool = False) -> _Msg | None:
    """The parts of a message record that matter, or None when it is not one."""
    kind, key = obj.get("type"), obj.get("id")
    if kind not in _TYPES or not isinstance(key, str):
        return None
    text, calls = _parts(obj.get("content"))
    tool_calls = obj.get("toolCalls")
    tools = calls or (kind == "gemini" and isinstance(tool_calls, list) and bool(tool_calls))
    display = None
    if kind == "user" and obj.get("displayContent") is not None:
        display = _parts(obj.get("displayContent"))[0]
    return _Msg(key, str(kind), line, text, display, tools, rebuilt)


def _parts(content: object) -> tuple[str, bool]:
    """(the text of a PartListUnion without thoughts, whether it holds a function call/response)."""
    if isinstance(content, str):
        return content, False
    parts = content if isinstance(content, list) else [content] if isinstance(content, dict) else []
    texts, calls = [], False
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict):
            calls = calls or "functionCall" in part or "functionResponse" in part
            text = part.get("text")
            if isinstance(text, str) and not part.get("thought"):
                texts.append(text)
    return "".join(texts), calls


class _State:
    """Messages in the order they appeared; turns are made from them at the end."""

    def __init__(self, start: int) -> None:
        self.start = start
        self.id: str | None = None
        self.skipped = 0
        self.seen: set[str] = set()
        self.voice = Voice(HARNESS)
        self.messages: list[_Msg] = []  # first seen in this read (after start)
        self.last = -1  # index in messages of the last one not from a history rebuild
        self.end = start  # units consumed so far

    @property
    def last_key(self) -> str | None:
        return self.messages[self.last].key if self.last >= 0 else None

    def before(self, msg: _Msg) -> None:
        """A message before ``start``: read already, but what the assistant said still counts."""
        if msg.key:
            self.seen.add(msg.key)
        if msg.type == "gemini":
            self.voice.assistant(msg.text)

    def add(self, msg: _Msg) -> None:
        if msg.key and msg.key in self.seen:
            # Written again: only whether the last message calls tools can change.
            if msg.key == self.last_key and msg.tools:
                self.messages[self.last] = self.messages[self.last]._replace(tools=True)
            return
        if msg.key:
            self.seen.add(msg.key)
        self.messages.append(msg)
        if not msg.rebuilt:
            self.last = len(self.messages) - 1

    def finish(self) -> tuple[list[Turn], int]:
        """The turns, and the units consumed. A turn still going on at the end (its last
        messages call tools, carry tool responses or have no text yet) is left, from the first
        of those messages on, for the next read: it then sees the turn whole."""
        messages, end, stop = self.messages, self.end, None
        for msg in reversed(messages):
            if msg.rebuilt:
                continue
            if not _unfinished(msg):
                break
            stop = msg.line
        if stop is not None:
            end = stop - 1
            messages = [m for m in messages if m.line < stop]
        return _turns(messages, self.voice), max(end, self.start)


def _unfinished(msg: _Msg) -> bool:
    if msg.type == "gemini":
        return msg.tools or not msg.text.strip()
    return msg.type == "user" and msg.tools


def _turns(messages: Iterable[_Msg], voice: Voice) -> list[Turn]:
    turns: list[Turn] = []
    reply: Turn | None = None
    for msg in messages:
        if msg.type == "gemini":
            voice.assistant(msg.text)
            if msg.text.strip() and not msg.rebuilt:
                reply = Turn("assistant", msg.text.strip(), msg.line)
        elif msg.type == "user":
            at = msg.text.find(_SNAPSHOT)
            if at >= 0 and (msg.rebuilt or not msg.text[:at].strip()):
                turns.append(Turn("history", msg.text[at:].strip(), msg.line))  # a compression
                continue
            if msg.rebuilt:
                continue
            text = _prompt(msg, voice)
            if text is not None:
                if reply is not None:
                    turns.append(reply)
                    reply = None
                turns.append(Turn("user", text, msg.line))
    if reply is not None:
        turns.append(reply)
    return sorted(turns, key=lambda turn: turn.line)


def _prompt(msg: _Msg, voice: Voice) -> str | None:
    """What the user typed into one user message, or None when it is not a prompt."""
    if msg.tools:
        return None  # a tool response, recorded as a user message since 0.50
    typed = voice.user([msg.text])
    if typed is None or msg.display is None or not msg.display.lstrip().startswith("/"):
        return typed
    # A slash command that submitted a prompt: the prompt is the command's template, the
    # command line is what was typed. Kept as "/name arguments"; a bare command is not a prompt.
    command = msg.display.strip()
    return voice.user([command]) if len(command.split(None, 1)) > 1 else None


# -- JSON Lines (0.39 on) ----------------------------------------------------------------------


def _read_jsonl(f: IO[bytes], state: _State) -> None:
    for line in jsonl.iter_lines(f, 0, 1):
        prefix = line.number <= state.start
        if not line.complete:
            state.skipped += not prefix  # a write in progress: read again next time
            return
        if not prefix:
            state.end = line.number
        if line.data is None:
            state.skipped += not prefix  # longer than MAX_LINE_BYTES: read past
        elif line.data.strip() and not _jsonl_line(line.number, line.data, state, prefix):
            state.skipped += not prefix


def _jsonl_line(number: int, data: bytes, state: _State, prefix: bool) -> bool:
    """One line of a JSONL recording; False when it is not one Gemini CLI writes."""
    head = _LINE_HEAD.match(data)
    if head is not None:
        key = head.group(1).decode("utf-8", "replace")
        if key in state.seen and key != state.last_key:
            return True  # an earlier message written again (tool results, tokens): nothing new
        tail = data[head.end():head.end() + len(_TOOL_RESPONSE)]
        if head.group(2) == b"user" and tail == _TOOL_RESPONSE:
            reply = _Msg(key, "user", number, "", None, True, False)  # never a prompt
            (state.before if prefix else state.add)(reply)
            return True
    obj = _load(data) if head is not None else jsonl.parse(data)
    if obj is None:
        return False
    if "id" in obj:
        msg = _message(obj, number)
        if msg is None:
            return False
        (state.before if prefix else state.add)(msg)
        return True
    update = obj.get("$set")
    if isinstance(update, dict):
        rebuilt = update.get("messages")
        for item in rebuilt if isinstance(rebuilt, list) else ():
            msg = _message(item, number, rebuilt=True) if isinstance(item, dict) else None
            if msg is not None and msg.key not in state.seen:
                (state.before if prefix else state.add)(msg)
        return True
    if isinstance(obj.get("$rewindTo"), str):
        return True  # the rewound messages were said all the same: they are kept
    if isinstance(obj.get("sessionId"), str) and isinstance(obj.get("projectHash"), str):
        if state.id is None:
            state.id = jsonl.text_of(obj["sessionId"])
        return True
    return False


# -- one JSON document (up to 0.38) ---------------------------------------------------------------


def _read_document(f: IO[bytes], state: _State) -> None:
    doc = _Document(f)
    for element in doc.elements():
        prefix = element.number <= state.start
        if not element.complete:
            state.skipped += not prefix  # cut short: being written, read again later
            break
        if not prefix:
            state.end = element.number
        if element.data is None:
            # Too big to keep (counted), but a message's content comes before its tool calls.
            state.skipped += not prefix
            obj = _load(element.head, whole=False)
        else:
            obj = _load(element.data)
        msg = _message(obj, element.number) if obj is not None else None
        if msg is None:
            state.skipped += not prefix and element.data is not None
        elif prefix:
            state.before(msg)
        else:
            state.add(msg)
    state.id = jsonl.text_of(doc.header.get("sessionId"))
    if not doc.found and doc.started:
        state.skipped += 1  # JSON, or something else, that is not a chat recording


class _Element(NamedTuple):
    number: int  # 1-based index in the messages array
    data: bytes | None  # None: longer than MAX_LINE_BYTES, read past without keeping it
    complete: bool  # False: the text ended inside it
    head: bytes = b""  # when data is None: its first _KEEP_HEAD bytes


class _Document:
    """A chat recording as one JSON document, read in chunks: its top-level string fields and,
    one at a time, the elements of its ``messages`` array. Memory is bounded by the largest
    element kept (MAX_LINE_BYTES), whatever the size of the file."""

    def __init__(self, f: IO[bytes], header_only: bool = False) -> None:
        self.f = f
        self.header_only = header_only
        self.buf = bytearray()
        self.pos = 0  # the next byte to look at, in buf
        self.keep: int | None = None  # where the value being captured starts, in buf
        self.head = b""  # the start of a captured value that grew too big to keep
        self.eof = False
        self.header: dict[str, str] = {}
        self.started = False  # the text has something in it
        self.found = False  # a messages array was found

    def _more(self) -> bool:
        """Read the next chunk, dropping what is behind ``pos`` (or the value being kept)."""
        if self.eof:
            return False
        cut = self.pos if self.keep is None else self.keep
        if cut:
            del self.buf[:cut]
            self.pos -= cut
            if self.keep is not None:
                self.keep = 0
        chunk = self.f.read(_CHUNK)
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        if self.keep is not None and len(self.buf) - self.keep > _MAX:
            self.head = bytes(self.buf[self.keep:self.keep + _KEEP_HEAD])
            self.keep = None  # too big to keep: read past it
        return True

    def _peek(self) -> int | None:
        """The next byte that is not white space (not consumed), or None at the end."""
        while True:
            match = _WS.match(self.buf, self.pos)
            self.pos = match.end() if match else self.pos
            if self.pos < len(self.buf):
                self.started = True
                return self.buf[self.pos]
            if not self._more():
                return None

    def _string(self) -> bool:
        """Past the string whose opening quote is at ``pos``; False when the text ends in it."""
        floor = self.pos + 1  # its first byte: backslashes are counted back to here
        i = floor
        while True:
            j = self.buf.find(b'"', i)
            if j < 0:
                end = len(self.buf)
                while end > floor and self.buf[end - 1] == _BACKSLASH:
                    end -= 1  # keep a trailing run of backslashes: it may escape the next quote
                self.pos = end
                if not self._more():
                    return False
                floor = max(floor - (end - self.pos), 0)
                i = self.pos
                continue
            k = j - 1
            while k >= floor and self.buf[k] == _BACKSLASH:
                k -= 1
            if (j - 1 - k) % 2 == 0:
                self.pos = j + 1
                return True
            i = j + 1

    def _value(self) -> bool:
        """Past one JSON value starting at ``pos``; False when the text ends inside it."""
        c = self._peek()
        if c is None:
            return False
        if c == _QUOTE:
            return self._string()
        if c not in b"[{":
            while True:
                match = _ATOM.match(self.buf, self.pos)
                self.pos = match.end() if match else self.pos
                if self.pos < len(self.buf) or not self._more():
                    return True
        depth = 0
        while True:
            match = _BRACKET.search(self.buf, self.pos)
            if match is None:
                self.pos = len(self.buf)
                if not self._more():
                    return False
                continue
            self.pos = match.start()
            c = self.buf[self.pos]
            if c == _QUOTE:
                if not self._string():
                    return False
                continue
            self.pos += 1
            depth += 1 if c in b"[{" else -1
            if depth == 0:
                return True

    def _capture(self) -> tuple[bytes | None, bool]:
        """The bytes of the value at ``pos`` (None past MAX_LINE_BYTES), and whether it is whole."""
        self.keep, self.head = self.pos, b""
        whole = self._value()
        data = bytes(self.buf[self.keep:self.pos]) if self.keep is not None and whole else None
        self.keep = None
        return data, whole

    def elements(self) -> Iterator[_Element]:
        if self._peek() != ord("{"):
            return
        self.pos += 1
        while self._peek() == _QUOTE:
            raw, whole = self._capture()
            key = _decode(raw)
            if not whole or self._peek() != ord(":"):
                return
            self.pos += 1
            c = self._peek()
            if key == "messages" and c == ord("["):
                self.found = True
                if self.header_only:
                    return
                closed = yield from self._array()
                if not closed:
                    return
            elif c == _QUOTE:
                raw, whole = self._capture()
                value = _decode(raw)
                if not whole:
                    return
                if key is not None and isinstance(value, str):
                    self.header.setdefault(key, value)
            elif not self._value():
                return
            if self._peek() != ord(","):
                return
            self.pos += 1

    def _array(self) -> Generator[_Element, None, bool]:
        """The elements of the array whose ``[`` is at ``pos``. Returns whether it closed."""
        self.pos += 1
        if self._peek() == ord("]"):
            self.pos += 1
            return True
        number = 0
        while True:
            if self._peek() is None:
                return False
            number += 1
            data, whole = self._capture()
            yield _Element(number, data, whole, self.head)
            if not whole:
                return False
            c = self._peek()
            if c == ord("]"):
                self.pos += 1
                return True
            if c != ord(","):
                return False
            self.pos += 1


def _decode(raw: bytes | None) -> Any:
    try:
        return json.loads(raw.decode("utf-8", "replace")) if raw is not None else None
    except (ValueError, RecursionError):
        return None


# -- resuming ------------------------------------------------------------------------------------


def checkpoint(path: str, offset: int) -> str | None:
    """A digest of what a read from ``offset`` relies on: the session id and first message (or
    first line) and the message (or line) just before ``offset``; None when the file has fewer
    than ``offset`` of them (rewound, rewritten) or cannot be read."""
    digest = hashlib.sha256()
    try:
        with open_regular(path) as f:
            layout = _layout(f)
            f.seek(0)
            digest.update(layout.encode())
            marks = _jsonl_marks(f, offset) if layout == "jsonl" else _document_marks(f, offset)
    except OSError:
        return None
    if marks is None:
        return None
    for mark in marks:
        digest.update(mark + b"\0")
    return digest.hexdigest()[:16]


def _jsonl_marks(f: IO[bytes], offset: int) -> list[bytes] | None:
    marks: list[bytes] = []
    for line in jsonl.iter_lines(f, 0, 1):
        if not line.complete:
            break
        if line.number in (1, offset):
            marks.append((line.data or b"-")[:_HEAD])
        if line.number >= offset:
            return marks
    return marks if offset == 0 else None


def _document_marks(f: IO[bytes], offset: int) -> list[bytes] | None:
    doc = _Document(f)
    marks: list[bytes] = []
    for element in doc.elements():
        if not element.complete:
            break
        if element.number in (1, offset):
            found = _ID.search(element.data[:_HEAD]) if element.data is not None else None
            marks.append(found.group(1) if found else b"-")
        if element.number >= offset:
            return [doc.header.get("sessionId", "").encode(), *marks]
    return [doc.header.get("sessionId", "").encode()] if offset == 0 else None


# -- finding this project's sessions --------------------------------------------------------------


def discover(project_root: str, home: str, env: Mapping[str, str]) -> Iterable[str]:
    """``session-*.json`` and ``session-*.jsonl`` in the ``chats`` folder of each of this
    project's temp folders: ``<gemini dir>/tmp/<sha256 of the project root>`` (up to 0.29) and
    ``<gemini dir>/tmp/<short name>`` (0.30 on: ``projects.json`` and ``.project_root`` say
    which). Sub-agent sessions, in ``chats/<parent session id>/``, are not read. A session kept
    twice (a ``.json`` continued as ``.jsonl``, a hash folder copied to its short name) is
    returned once, in its newest form."""
    best: dict[str, tuple[tuple[bool, bool], str]] = {}
    for gemini_dir in _gemini_dirs(home, env):
        for folder, hashed in _project_folders(project_root, gemini_dir):
            chats = glob.escape(os.path.join(folder, "chats"))
            for path in glob.glob(os.path.join(chats, "session-*.json*")):
                stem, ext = os.path.splitext(os.path.basename(path))
                if ext not in (".json", ".jsonl") or not os.path.isfile(path):
                    continue
                rank = (ext == ".jsonl", not hashed)
                if (stem not in best or rank > best[stem][0]) and belongs(path, project_root):
                    best[stem] = (rank, path)
    return sorted(path for _, path in best.values())


def belongs(path: str, project_root: str) -> bool:
    """A main session (not a sub-agent's) whose ``projectHash`` is this project's; a file that
    names no project is taken by its folder, and accepted when that says nothing either."""
    if _sub_agent_path(path):
        return False
    header = _header(path)
    if header.get("kind") == "subagent":
        return False
    project_hash = header.get("projectHash")
    if project_hash:
        return project_hash in _hashes(project_root)
    chats = os.path.dirname(os.path.abspath(path))
    if os.path.basename(chats) != "chats":
        return True
    folder = os.path.dirname(chats)
    if _HASH.fullmatch(os.path.basename(folder)):
        return os.path.basename(folder) in _hashes(project_root)
    owner = _owner(folder)
    return owner is None or same_dir(owner, project_root)


def _gemini_dirs(home: str, env: Mapping[str, str]) -> list[str]:
    """``~/.gemini`` (``GEMINI_CLI_HOME`` stands for the home), and ``~/.cache/.gemini`` where
    Gemini CLI keeps its state under macOS's sandbox-exec."""
    base = env.get("GEMINI_CLI_HOME") or home
    return [os.path.join(base, ".gemini"), os.path.join(base, ".cache", ".gemini")]


def _hashes(project_root: str) -> set[str]:
    """The folder names Gemini CLI up to 0.29 gives this project: SHA-256 of its root path."""
    roots = {os.path.abspath(project_root), os.path.realpath(project_root)}
    return {hashlib.sha256(root.encode("utf-8", "surrogateescape")).hexdigest() for root in roots}


def _project_folders(project_root: str, gemini_dir: str) -> list[tuple[str, bool]]:
    """This project's temp folders under ``gemini_dir``, each with whether it is a hash one."""
    tmp = os.path.join(gemini_dir, "tmp")
    found = {os.path.join(tmp, name): True for name in _hashes(project_root)}
    registry = _json_file(os.path.join(gemini_dir, "projects.json"))
    projects = registry.get("projects") if isinstance(registry, dict) else None
    for root, name in projects.items() if isinstance(projects, dict) else ():
        if _safe_name(name) and isinstance(root, str) and same_dir(root, project_root):
            owner = _owner(os.path.join(tmp, name))
            if owner is None or same_dir(owner, project_root):
                found[os.path.join(tmp, name)] = False
    try:
        names = os.listdir(tmp)
    except OSError:
        names = []
    for name in names:
        owner = _owner(os.path.join(tmp, name))
        if owner is not None and same_dir(owner, project_root):
            found[os.path.join(tmp, name)] = False
    return [(folder, hashed) for folder, hashed in sorted(found.items()) if os.path.isdir(folder)]


def _safe_name(name: object) -> bool:
    return isinstance(name, str) and name not in ("", ".", "..") and "/" not in name and "\\" not in name


def _owner(folder: str) -> str | None:
    """The project root a short-name temp folder names in its ``.project_root`` marker."""
    try:
        with open_regular(os.path.join(folder, ".project_root")) as f:
            text = f.read(_HEAD).decode("utf-8", "replace").strip()
    except OSError:
        return None
    return text or None


def _json_file(path: str) -> Any:
    try:
        with open_regular(path) as f:
            return _decode(f.read(_MAX))
    except OSError:
        return None


def _sub_agent_path(path: str) -> bool:
    """``chats/<parent session id>/<id>.jsonl``: where sub-agents' sessions are kept."""
    parent = os.path.dirname(os.path.abspath(path))
    return os.path.basename(parent) != "chats" and os.path.basename(os.path.dirname(parent)) == "chats"


def _header(path: str) -> dict[str, str]:
    """The session's string metadata: a JSONL file's first line, a document's fields before
    ``messages``. Empty when unreadable."""
    try:
        with open_regular(path) as f:
            layout = _layout(f)
            f.seek(0)
            if layout == "jsonl":
                first = jsonl.parse(f.readline(_MAX + 1)) or {}
                return {k: v for k, v in first.items() if isinstance(v, str)}
            doc = _Document(f, header_only=True)
            for _ in doc.elements():
                pass
            return doc.header
    except OSError:
        return {}
