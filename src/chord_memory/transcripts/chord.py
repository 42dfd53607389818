"""This tool's own transcript format, for any agent to write (docs/transcripts.md).

    {"v": 1, "type": "session", "id": "...", "cwd": "/abs/project"}    first line
    {"type": "message", "role": "user", "text": "..."}
    {"type": "message", "role": "assistant", "text": "...", "complete": true}
    {"type": "summary", "text": "..."}                                  compaction

An assistant message with ``"complete": false`` is a partial one and is left out.
Other types and roles are skipped and counted; unknown fields are ignored.
"""
from __future__ import annotations

from typing import Any

from chord_memory.transcripts import Session, Turn, jsonl, session

KIND = "chord"


def read(path: str, start_offset: int = 0) -> Session:
    state = _State()
    if start_offset:
        header = jsonl.first_object(path)
        if header is not None:
            state.header(header)
    scan = jsonl.scan(path, start_offset, state.handle)
    return session(KIND, path, state.id, state.cwd, state.turns, start_offset, scan)


class _State:
    def __init__(self) -> None:
        self.id: str | None = None
        self.cwd: str | None = None
        self.seen_header = False
        self.turns: list[Turn] = []

    def header(self, obj: dict[str, Any]) -> bool:
        if obj.get("type") != "session":
            return False
        if not self.seen_header:
            self.seen_header = True
            self.id = jsonl.text_of(obj.get("id"))
            self.cwd = jsonl.text_of(obj.get("cwd"))
        return True

    def handle(self, number: int, obj: dict[str, Any]) -> bool:
        kind, text = obj.get("type"), obj.get("text")
        if kind == "session":
            return self.header(obj)
        if kind not in ("message", "summary") or not isinstance(text, str):
            return False
        role = "history" if kind == "summary" else obj.get("role")
        if role not in ("user", "assistant", "history"):
            return False
        if role == "assistant" and obj.get("complete", True) is False:
            return True
        if text.strip():
            self.turns.append(Turn(str(role), text, number))
        return True
