"""GitHub Copilot CLI session events: ``~/.copilot/session-state/<id>/events.jsonl``.

Every line is one event ``{"type", "data", "id", "timestamp", "parentId"}`` (older
releases wrote the same events to ``session-state/<id>.jsonl``). A prompt is a
``user.message`` of the main agent whose ``data.source`` is unset: its ``content``
is what was typed (``transformedContent``, the prompt with what Copilot adds, is
never read). Events of a sub-agent carry ``agentId`` (older releases:
``data.parentToolCallId``) and never become a turn. The reply recorded for a
prompt is the last ``assistant.message`` with text before the next prompt;
``session.compaction_complete.summaryContent`` is history. Tool calls, tool
output, reasoning, hooks and the system prompt are dropped. See
docs/transcripts.md.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from chord_memory.paths import open_regular
from chord_memory.transcripts import Session, Turn, jsonl, session
from chord_memory.transcripts.discover import same_dir
from chord_memory.transcripts.typed import CUT, DROP, Harness, Rule, Voice

KIND = "copilot-cli"

# What Copilot puts into user.message content itself (transformedContent is never read).
HARNESS = Harness((
    Rule("skill context", "<skill-context", DROP),  # a skill's SKILL.md, sent as a user message
    Rule("system notification", "<system_notification", DROP),  # background task / agent done
    Rule("shell command", "!", DROP),  # `!cmd` shell mode: a command, not a request
    Rule("system reminder", "<system_reminder>", CUT, "</system_reminder>"),
    Rule("current datetime", "<current_datetime>", CUT, "</current_datetime>"),
    Rule("tagged files", "<tagged_files>", CUT, "</tagged_files>"),  # attached file list
    Rule("extension context", "<extension_context", CUT, "</extension_context>"),
    Rule("pasted text marker", "[Paste #", CUT, "]"),  # `[Paste #1 - 133 lines]`
    Rule("image marker", "[📷", CUT, "]"),
))

EVENTS = "events.jsonl"
WORKSPACE = "workspace.yaml"
SESSION_STATE = "session-state"
# Event namespaces Copilot writes (140+ types, more each release): understood, and
# dropped unless handled below. A line of any other type is skipped and counted.
_NAMESPACES = (
    "session.", "assistant.", "user.", "tool.", "tool_search.", "subagent.", "hook.", "skill.",
    "system.", "user_input.", "permission.", "elicitation.", "sampling.", "mcp.", "external_tool.",
    "command.", "commands.", "auto_mode_switch.", "session_limits_exhausted.", "pending_messages.",
    "model.", "capabilities.", "exit_plan_mode.", "factory.", "canvas.", "extensions.", "ui.",
    "custom.",
)
_TYPES = ("abort", "result")
# Lines that are most of a session's bytes and never a turn: dropped before json.loads.
_BULK_HEADS = (
    b'{"type":"tool.',
    b'{"type":"hook.',
    b'{"type":"session.binary_asset"',
    b'{"type":"system.message"',
    b'{"type":"assistant.reasoning',
    b'{"type":"assistant.message_delta"',
    b'{"type":"assistant.streaming_delta"',
)
_HUMAN_SOURCES = ("", "user")  # any other `source` (system, skill-*, agent-*, ...) is Copilot's
_PROBE_LINES = 200
_PROBE_BYTES = 16 * 1024 * 1024
_PROBE_LINE_BYTES = 1024 * 1024
_HEAD_BYTES = 4096
_WORKSPACE_BYTES = 64 * 1024


class Header(NamedTuple):
    id: str | None  # session.start's sessionId
    cwd: str | None  # the first context.cwd (session.start, else session.resume), else workspace.yaml
    git_root: str | None
    spawned: bool  # a session Copilot started itself (detachedFromSpawningParentSessionId)


def read(path: str, start_offset: int = 0) -> Session:
    header = _header(path)
    state = _State()
    if start_offset:
        _prime(path, start_offset, state.voice)
    scan = jsonl.scan(path, start_offset, state.handle, _is_bulk)
    return session(KIND, path, header.id or _name_id(path), header.cwd, state.finish(), start_offset,
                   scan)


def discover(project_root: str, home: str, env: Mapping[str, str]) -> Iterable[str]:
    """This project's sessions under every folder Copilot has kept them in."""
    seen: set[str] = set()
    for base in _roots(home, env):
        for path in _sessions(os.path.join(base, SESSION_STATE)):
            real = os.path.realpath(path)
            if real in seen:
                continue
            seen.add(real)
            header = _header(path)
            if not header.spawned and _ours(header, project_root):
                yield path


def belongs(path: str, project_root: str) -> bool:
    """A session of ``project_root``; one that names no directory at all is accepted. The other
    files of a session folder (workspace.yaml, session.db, plan.md, ...) are not sessions."""
    folder, name = os.path.split(path)
    if name != EVENTS and os.path.isfile(os.path.join(folder, EVENTS)):
        return False
    header = _header(path)
    if header.spawned:
        return False
    if header.cwd is None and header.git_root is None:
        return True
    return _ours(header, project_root)


# -- where the sessions are -----------------------------------------------------------------


def _roots(home: str, env: Mapping[str, str]) -> list[str]:
    """``$COPILOT_HOME``, ``~/.copilot``, and the ``.copilot`` folders older releases made under
    ``$XDG_STATE_HOME`` / ``$XDG_CONFIG_HOME`` (later releases move them back to ``~/.copilot``)."""
    roots = [env.get("COPILOT_HOME") or "", os.path.join(home, ".copilot")]
    for var in ("XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        if env.get(var):
            roots.append(os.path.join(env[var], ".copilot"))
    return [r for r in dict.fromkeys(roots) if r]


def _sessions(state: str) -> Iterator[str]:
    """``<id>/events.jsonl`` folders and the flat ``<id>.jsonl`` files of older releases."""
    try:
        entries = sorted(os.scandir(state), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_dir():
                events = os.path.join(entry.path, EVENTS)
                if os.path.isfile(events):
                    yield events
            elif entry.name.endswith(".jsonl") and entry.is_file():
                yield entry.path
        except OSError:
            continue


def _ours(header: Header, project_root: str) -> bool:
    return any(d is not None and same_dir(d, project_root) for d in (header.cwd, header.git_root))


def _name_id(path: str) -> str | None:
    """The session folder's name for ``<id>/events.jsonl`` (the file stem otherwise)."""
    if os.path.basename(path) == EVENTS:
        return os.path.basename(os.path.dirname(os.path.abspath(path))) or None
    return None


# -- the header: id and cwd from the first lines ----------------------------------------------


def _header(path: str) -> Header:
    session_id: str | None = None
    cwd: str | None = None
    git_root: str | None = None
    spawned = False
    try:
        with open_regular(path) as f:
            for line in jsonl.iter_lines(f, 0, 1):
                if line.number > _PROBE_LINES or line.end > _PROBE_BYTES or not line.complete:
                    break
                if line.data is None or len(line.data) > _PROBE_LINE_BYTES:
                    continue
                head = line.data[:_HEAD_BYTES]
                if b'"session.start"' not in head and b'"session.resume"' not in head:
                    continue
                obj = jsonl.parse(line.data)
                if obj is None or obj.get("type") not in ("session.start", "session.resume"):
                    continue
                data = obj.get("data")
                if not isinstance(data, dict):
                    continue
                if obj["type"] == "session.start" and session_id is None:
                    session_id = jsonl.text_of(data.get("sessionId"))
                    spawned = jsonl.text_of(data.get("detachedFromSpawningParentSessionId")) is not None
                context = data.get("context")
                if cwd is None and isinstance(context, dict) and jsonl.text_of(context.get("cwd")):
                    cwd = context["cwd"]
                    git_root = jsonl.text_of(context.get("gitRoot"))
                if session_id is not None and cwd is not None:
                    break
    except OSError:
        pass
    if cwd is None and os.path.basename(path) == EVENTS:
        fields = _workspace(os.path.join(os.path.dirname(path), WORKSPACE))
        cwd, git_root = fields.get("cwd"), fields.get("git_root")
        session_id = session_id or fields.get("id")
    return Header(session_id, cwd, git_root, spawned)


def _workspace(path: str) -> dict[str, str]:
    """The top-level ``id``, ``cwd`` and ``git_root`` of a workspace.yaml, read as plain
    ``key: value`` lines from its first 64 KiB (no YAML parser on an untrusted file)."""
    found: dict[str, str] = {}
    try:
        with open_regular(path) as f:
            text = f.read(_WORKSPACE_BYTES).decode("utf-8", "replace")
    except OSError:
        return found
    for raw in text.splitlines():
        key, sep, value = raw.partition(":")
        if not sep or key not in ("id", "cwd", "git_root") or key in found:
            continue
        parsed = _scalar(value.strip())
        if parsed:
            found[key] = parsed
    return found


def _scalar(value: str) -> str | None:
    """A YAML flow scalar: plain, 'single' or "double" quoted."""
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    if len(value) >= 2 and value[0] == value[-1] == '"':
        try:
            decoded = json.loads(value)
        except ValueError:
            return value[1:-1]
        return decoded if isinstance(decoded, str) else None
    return value or None


# -- reading --------------------------------------------------------------------------------


def _is_bulk(data: bytes) -> bool:
    return data.startswith(_BULK_HEADS)


def _prime(path: str, start_offset: int, voice: Voice) -> None:
    """Feed what the assistant wrote before ``start_offset`` to the echo filter."""
    try:
        with open_regular(path) as f:
            for line in jsonl.iter_lines(f, 0, 1):
                if line.end > start_offset or not line.complete:
                    return
                if line.data is None or _is_bulk(line.data):
                    continue
                head = line.data[:_HEAD_BYTES]
                if b'"assistant.message"' not in head and b'"session.task_complete"' not in head:
                    continue
                obj = jsonl.parse(line.data)
                if obj is None or not isinstance(obj.get("data"), dict):
                    continue
                text = _assistant_text(str(obj.get("type")), obj["data"])
                if text is not None:
                    voice.assistant(text)
    except OSError:
        return


def _assistant_text(kind: str, data: dict[str, Any]) -> str | None:
    if kind == "assistant.message":
        return jsonl.text_of(data.get("content"))
    if kind == "session.task_complete":
        return jsonl.text_of(data.get("summary"))
    return None


class _Reply:
    """The assistant message with text seen last in the current turn."""

    def __init__(self, line: int, text: str, api_call: str | None) -> None:
        self.line = line
        self.parts = [text]
        self.api_call = api_call


class _State:
    def __init__(self) -> None:
        self.voice = Voice(HARNESS)
        self.turns: list[Turn] = []
        self.reply: _Reply | None = None

    def handle(self, number: int, obj: dict[str, Any]) -> bool:
        kind = obj.get("type")
        if not isinstance(kind, str) or not (kind in _TYPES or kind.startswith(_NAMESPACES)):
            return False
        data = obj.get("data")
        if kind == "user.message":
            return self._user(number, obj, data)
        if kind in ("assistant.message", "session.task_complete"):
            return self._assistant(number, obj, kind, data)
        if kind in ("session.compaction_complete", "session.handoff"):
            self._history(number, obj, kind, data)
        return True

    def _user(self, number: int, obj: dict[str, Any], data: object) -> bool:
        if not isinstance(data, dict) or not isinstance(data.get("content"), str):
            return False
        if not _typed_by_person(obj, data):
            if _starts_a_run(obj, data):
                self._flush()  # the run before it is over: its last text was the reply
            return True
        text = self.voice.user([data["content"]])
        if text is None:
            if not data["content"].strip() and data.get("attachments"):
                self._flush()  # an image or file sent without words: a prompt, nothing typed
            return True  # nothing typed: not a prompt, and the turn goes on
        if data.get("delivery") != "steering":  # a steering message joins the running turn
            self._flush()
        self.turns.append(Turn("user", text, number))
        return True

    def _assistant(self, number: int, obj: dict[str, Any], kind: str, data: object) -> bool:
        if not isinstance(data, dict):
            return kind != "assistant.message"
        text = _assistant_text(kind, data)
        if text is None:
            return True  # tool requests only: the reply so far stands
        self.voice.assistant(text)
        if _sub_agent(obj, data):
            return True
        api_call = jsonl.text_of(data.get("apiCallId"))
        chunk = data.get("chunkIndex")
        reply = self.reply
        if (reply is not None and api_call is not None and reply.api_call == api_call
                and isinstance(chunk, int) and chunk > 0):
            reply.parts.append(text)  # one model response split at reasoning boundaries
        else:
            self.reply = _Reply(number, text, api_call)
        return True

    def _history(self, number: int, obj: dict[str, Any], kind: str, data: object) -> None:
        if not isinstance(data, dict) or _sub_agent(obj, data) or data.get("success") is False:
            return
        text = jsonl.text_of(data.get("summaryContent" if kind == "session.compaction_complete"
                                      else "summary"))
        if text is not None:
            self.turns.append(Turn("history", text, number))

    def _flush(self) -> None:
        if self.reply is not None:
            self.turns.append(Turn("assistant", "\n\n".join(self.reply.parts), self.reply.line))
            self.reply = None

    def finish(self) -> list[Turn]:
        self._flush()
        return sorted(self.turns, key=lambda turn: turn.line)


def _sub_agent(obj: dict[str, Any], data: dict[str, Any]) -> bool:
    """An event of a sub-agent: ``agentId`` (current) or ``data.parentToolCallId`` (older)."""
    return jsonl.text_of(obj.get("agentId")) is not None or \
        jsonl.text_of(data.get("parentToolCallId")) is not None


def _starts_a_run(obj: dict[str, Any], data: dict[str, Any]) -> bool:
    """A message Copilot sends to the main agent that starts a run of its own (a notification,
    an autopilot continuation, another agent's prompt), rather than text inside the running
    one (a skill's instructions, a sub-agent's prompt, steering)."""
    source = data.get("source")
    skill = isinstance(source, str) and source.lower().startswith("skill-")
    return not (_sub_agent(obj, data) or skill or data.get("delivery") == "steering")


def _typed_by_person(obj: dict[str, Any], data: dict[str, Any]) -> bool:
    """A user.message the person sent, not one Copilot wrote (skill text, notifications,
    autopilot continuations, inter-agent and cross-session prompts, shell mode)."""
    if _sub_agent(obj, data):
        return False
    source = data.get("source")
    if source is not None and (not isinstance(source, str) or source.strip().lower() not in _HUMAN_SOURCES):
        return False
    if data.get("isAutopilotContinuation") is True or data.get("crossSession"):
        return False
    return data.get("agentMode") != "shell"
