"""Codex CLI rollout JSONL: ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl``.

Two layouts. Today's: every line is ``{"timestamp", "type", "payload"}``;
``session_meta`` names the session and its ``cwd``. The older one (2025, before
``session_meta``): a bare header ``{"id", "timestamp", "instructions"}``, then
``{"record_type": "state"}`` markers and bare items; its cwd is only in the
``<environment_context>`` Codex sends as a user message.

User messages are the prompts, without what Codex wraps around or injects into
them (``HARNESS``) and without what repeats the assistant's earlier words. A
turn's reply is its last assistant message; ``task_complete.last_agent_message``
stands in when there is none, or replaces it when it says something the message
does not (Plan Mode's message, which holds the ``<proposed_plan>``, is kept
whole). ``compacted`` is history. Tool calls, their output and reasoning are
dropped. See docs/transcripts.md.
"""
from __future__ import annotations

import re
from typing import Any

from chord_memory.paths import open_regular
from chord_memory.transcripts import Session, Turn, jsonl, session
from chord_memory.transcripts.typed import AFTER, DROP, HEAD, Harness, Rule, Voice

KIND = "codex"

_KNOWN = ("session_meta", "response_item", "event_msg", "turn_context", "compacted")
# Line types that carry nothing for extraction: dropped, not counted.
_AUXILIARY = ("world_state", "inter_agent_communication_metadata")
# Items of the older layout, written bare (today they are response_item payloads).
_ITEMS = ("message", "reasoning", "function_call", "function_call_output", "custom_tool_call",
          "custom_tool_call_output", "local_shell_call", "web_search_call", "tool_search_call",
          "image_generation_call", "compaction")
_IDE_REQUEST = "## My request for Codex:"
# What Codex wraps around or injects into user-role text (docs/transcripts.md).
HARNESS = Harness((
    Rule("environment", "<environment_context", DROP),
    Rule("user instructions", "<user_instructions", DROP),
    Rule("AGENTS.md", "# AGENTS.md instructions", DROP),
    Rule("instructions", "<INSTRUCTIONS>", DROP),
    Rule("interrupted turn", "<turn_aborted", DROP),
    Rule("shell command (!)", "<user_shell_command", DROP),
    Rule("skills", "<skills_instructions", DROP),
    Rule("skill", "<skill>", DROP),
    Rule("context update", "<context_update", DROP),
    Rule("sub-agent notification", "<subagent_notification", DROP),
    Rule("hook prompt", "<hook_prompt", DROP),
    Rule("internal context", "<codex_internal_context", DROP),
    Rule("plugin suggestions", "<recommended_plugins", DROP),
    Rule("permissions", "<permissions instructions", DROP),
    Rule("image marker", "<image", DROP),
    Rule("image marker", "</image", DROP),
    Rule("custom prompt file", "---\ndescription:", DROP),
    Rule("IDE context", "# Context from my IDE setup:", AFTER, _IDE_REQUEST),
    Rule("IDE: mentioned files", "# Files mentioned by the user:", AFTER, _IDE_REQUEST),
    Rule("implement the plan (button)", "PLEASE IMPLEMENT THIS PLAN:", HEAD),
))
_TEXT_BLOCKS = ("input_text", "output_text", "text")
_COMPLETE_EVENTS = ("task_complete", "turn_complete")
_HEAD_BYTES = 4096
_TOOL_HEADS = (
    b'"type":"response_item","payload":{"type":"function_call_output"',
    b'"type":"response_item","payload":{"type":"custom_tool_call_output"',
    b'{"type":"function_call_output"',
    b'{"type":"custom_tool_call_output"',
)
_CWD = re.compile(r"<cwd>\s*(.*?)\s*</cwd>", re.DOTALL)
_PROBE_LINES = 50  # how far into an older rollout the environment context is looked for
_SPACE = re.compile(r"\s+")


def read(path: str, start_offset: int = 0) -> Session:
    state = _State(jsonl.first_object(path))
    scan = jsonl.scan(path, start_offset, state.handle, _is_tool_output,
                      prime=(_is_context, state.prime))
    return session(KIND, path, state.id, state.cwd, state.finish(), start_offset, scan)


def meta(path: str) -> dict[str, Any] | None:
    """What a rollout says of itself: today's ``session_meta`` payload, or for the older
    layout its header with the cwd of its first environment context. None: not a rollout."""
    header = jsonl.first_object(path)
    if header is None:
        return None
    payload = header.get("payload")
    if header.get("type") == "session_meta" and isinstance(payload, dict):
        return payload
    if not _bare_header(header):
        return None
    found = dict(header)
    try:
        with open_regular(path) as f:
            for line in jsonl.iter_lines(f, 0, 1):
                if line.number > _PROBE_LINES or not line.complete:
                    break
                obj = jsonl.parse(line.data) if line.data is not None else None
                cwd = _context_cwd(obj) if obj is not None else None
                if cwd is not None:
                    found["cwd"] = cwd
                    break
    except OSError:
        return None
    return found


def _bare_header(obj: dict[str, Any]) -> bool:
    return "type" not in obj and "record_type" not in obj and isinstance(obj.get("id"), str)


def _context_cwd(item: dict[str, Any]) -> str | None:
    """The ``<cwd>`` of an ``<environment_context>`` user message (older rollouts)."""
    if item.get("type") == "response_item" and isinstance(item.get("payload"), dict):
        item = item["payload"]
    if item.get("type") != "message" or item.get("role") != "user":
        return None
    for text in jsonl.text_blocks(item.get("content"), _TEXT_BLOCKS):
        if text.lstrip().startswith("<environment_context"):
            found = _CWD.search(text)
            if found and found.group(1):
                return found.group(1)
    return None


def _is_tool_output(data: bytes) -> bool:
    """A cheap test: a tool's output, dropped before json.loads."""
    head = data[:_HEAD_BYTES]
    return any(h in head for h in _TOOL_HEADS)


def _is_context(data: bytes) -> bool:
    """Before a resumed read's start, only assistant text and the environment are needed."""
    head = data[:_HEAD_BYTES]
    wanted = (b'"assistant"' in head or b"task_complete" in head or b"<environment_context" in head
              or b"session_meta" in head)
    return wanted and not _is_tool_output(data)


def _has_image(content: object) -> bool:
    return isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") in ("input_image", "image") for b in content)


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


class _State:
    def __init__(self, header: dict[str, Any] | None) -> None:
        self.id: str | None = None
        self.cwd: str | None = None
        self.seen_meta = False
        self.bare = header is not None and _bare_header(header)
        self.turns: list[Turn] = []
        self.pending: Turn | None = None  # the last assistant message of the current turn
        self.voice = Voice(HARNESS)
        if header is not None:
            self.meta(header)

    def meta(self, obj: dict[str, Any]) -> None:
        """Take id and cwd from the first ``session_meta`` line (or the older header)."""
        payload = obj.get("payload")
        if self.seen_meta:
            return
        if obj.get("type") == "session_meta" and isinstance(payload, dict):
            self.seen_meta = True
            self.id = jsonl.text_of(payload.get("id"))
            self.cwd = jsonl.text_of(payload.get("cwd"))
        elif _bare_header(obj):
            self.seen_meta = True
            self.id = jsonl.text_of(obj.get("id"))

    def prime(self, number: int, obj: dict[str, Any]) -> bool:
        """A line before a resumed read's start: the assistant's words and the cwd only."""
        item = self._item(obj)
        if item is not None and item.get("type") == "message":
            if item.get("role") == "assistant":
                self.voice.assistant("\n\n".join(jsonl.text_blocks(item.get("content"), _TEXT_BLOCKS)))
            elif self.cwd is None:
                self.cwd = _context_cwd(item)
        elif obj.get("type") == "event_msg" and isinstance(obj.get("payload"), dict):
            self.voice.assistant(jsonl.text_of(obj["payload"].get("last_agent_message")) or "")
        return True

    def _item(self, obj: dict[str, Any]) -> dict[str, Any] | None:
        """The item a line carries: a response_item's payload, or a bare older item."""
        payload = obj.get("payload")
        if obj.get("type") == "response_item":
            return payload if isinstance(payload, dict) else None
        if self.bare and "payload" not in obj and obj.get("type") in _ITEMS:
            return obj
        return None

    def handle(self, number: int, obj: dict[str, Any]) -> bool:
        kind, payload = obj.get("type"), obj.get("payload")
        if "record_type" in obj or (self.bare and number == 1 and _bare_header(obj)):
            return True  # the older layout's state markers and header
        item = self._item(obj)
        if item is not None:
            if item.get("type") == "message":
                self._message(number, item)
            return True
        if kind in _AUXILIARY:
            return True
        if kind not in _KNOWN or not isinstance(payload, dict):
            return False
        if kind == "session_meta":
            self.meta(obj)
        elif kind == "event_msg" and payload.get("type") in _COMPLETE_EVENTS:
            self._complete(number, payload)
        elif kind == "compacted":
            text = jsonl.text_of(payload.get("message"))
            if text is not None:
                self.turns.append(Turn("history", text, number))
        return True

    def _message(self, number: int, item: dict[str, Any]) -> None:
        role = item.get("role")
        texts = jsonl.text_blocks(item.get("content"), _TEXT_BLOCKS)
        if role == "user":
            if self.cwd is None:
                self.cwd = _context_cwd(item)
            text = self.voice.user(texts)
            if text is None and _has_image(item.get("content")):
                text = ""  # an image sent without words: a turn, with nothing to extract
            if text is not None:
                self._flush()
                self.turns.append(Turn("user", text, number))
        elif role == "assistant" and texts:
            text = "\n\n".join(texts)
            self.voice.assistant(text)
            self.pending = Turn("assistant", text, number)

    def _complete(self, number: int, payload: dict[str, Any]) -> None:
        text = jsonl.text_of(payload.get("last_agent_message"))
        pending = self.pending
        if text is None or (pending is not None and _norm(text)[:200] in _norm(pending.text)):
            self._flush()  # the message says it all (in Plan Mode, more: the proposed plan)
            return
        self.voice.assistant(text)
        self.turns.append(Turn("assistant", text, number))
        self.pending = None

    def _flush(self) -> None:
        if self.pending is not None:
            self.turns.append(self.pending)
            self.pending = None

    def finish(self) -> list[Turn]:
        """The turns in file order (a reply can be placed after a later summary)."""
        self._flush()
        return sorted(self.turns, key=lambda turn: turn.line)
