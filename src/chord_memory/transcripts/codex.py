"""Codex CLI rollout JSONL: ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl``.

Every line is ``{"timestamp", "type", "payload"}``. ``session_meta`` names the
session and its ``cwd``; ``response_item`` messages with role ``user`` are the
prompts (context Codex injects, such as ``<environment_context>``, left out);
``event_msg`` ``task_complete.last_agent_message`` is a turn's reply, and the
last ``response_item`` assistant message stands in for a turn that has none;
``compacted`` is history. Tool calls, their output and reasoning are dropped.
See docs/transcripts.md.
"""
from __future__ import annotations

from typing import Any

from chord_memory.transcripts import Session, Turn, jsonl, session

KIND = "codex"

_KNOWN = ("session_meta", "response_item", "event_msg", "turn_context", "compacted")
# User-role text Codex writes itself: instructions, environment, shell commands run with "!".
_CONTEXTUAL_PREFIXES = (
    "<environment_context",
    "<user_instructions",
    "# agents.md instructions",
    "<instructions>",
    "<turn_aborted",
    "<user_shell_command",
    "<skills_instructions",
    "<skill>",
    "<context_update",
    "<subagent_notification",
    "<hook_prompt",
    "<codex_internal_context",
    "<recommended_plugins",
    "<permissions instructions",
)
_TEXT_BLOCKS = ("input_text", "output_text", "text")
_COMPLETE_EVENTS = ("task_complete", "turn_complete")
_HEAD_BYTES = 4096
_TOOL_HEADS = (
    b'"type":"response_item","payload":{"type":"function_call_output"',
    b'"type":"response_item","payload":{"type":"custom_tool_call_output"',
)


def read(path: str, start_offset: int = 0) -> Session:
    state = _State()
    if start_offset:
        header = jsonl.first_object(path)
        if header is not None:
            state.meta(header)
    scan = jsonl.scan(path, start_offset, state.handle, _is_tool_output)
    return session(KIND, path, state.id, state.cwd, state.finish(), start_offset, scan)


def _is_tool_output(data: bytes) -> bool:
    """A cheap test: a tool's output, dropped before json.loads."""
    head = data[:_HEAD_BYTES]
    return any(h in head for h in _TOOL_HEADS)


class _State:
    def __init__(self) -> None:
        self.id: str | None = None
        self.cwd: str | None = None
        self.seen_meta = False
        self.turns: list[Turn] = []
        self.pending: Turn | None = None  # the last assistant message of the current turn

    def meta(self, obj: dict[str, Any]) -> None:
        """Take id and cwd from the first ``session_meta`` line."""
        payload = obj.get("payload")
        if not self.seen_meta and obj.get("type") == "session_meta" and isinstance(payload, dict):
            self.seen_meta = True
            self.id = jsonl.text_of(payload.get("id"))
            self.cwd = jsonl.text_of(payload.get("cwd"))

    def handle(self, number: int, obj: dict[str, Any]) -> bool:
        kind, payload = obj.get("type"), obj.get("payload")
        if kind not in _KNOWN:
            return False
        if not isinstance(payload, dict):
            return False
        if kind == "session_meta":
            self.meta(obj)
        elif kind == "response_item" and payload.get("type") == "message":
            self._message(number, payload)
        elif kind == "event_msg" and payload.get("type") in _COMPLETE_EVENTS:
            self._complete(number, payload)
        elif kind == "compacted":
            text = jsonl.text_of(payload.get("message"))
            if text is not None:
                self.turns.append(Turn("history", text, number))
        return True

    def _message(self, number: int, payload: dict[str, Any]) -> None:
        role = payload.get("role")
        texts = jsonl.text_blocks(payload.get("content"), _TEXT_BLOCKS)
        if role == "user":
            texts = [t for t in texts if not _contextual(t)]
            if texts:
                self._flush()
                self.turns.append(Turn("user", "\n\n".join(texts), number))
        elif role == "assistant" and texts:
            self.pending = Turn("assistant", "\n\n".join(texts), number)

    def _complete(self, number: int, payload: dict[str, Any]) -> None:
        text = jsonl.text_of(payload.get("last_agent_message"))
        if text is not None:
            self.turns.append(Turn("assistant", text, number))
            self.pending = None
        else:
            self._flush()

    def _flush(self) -> None:
        if self.pending is not None:
            self.turns.append(self.pending)
            self.pending = None

    def finish(self) -> list[Turn]:
        """The turns in file order (a reply can be placed after a later summary)."""
        self._flush()
        return sorted(self.turns, key=lambda turn: turn.line)


def _contextual(text: str) -> bool:
    return text.lstrip()[:40].lower().startswith(_CONTEXTUAL_PREFIXES)
