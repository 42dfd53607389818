"""Claude Code session JSONL: ``~/.claude/projects/<encoded cwd>/<session id>.jsonl``.

A real prompt is a ``user`` line whose ``message.content`` is a string or text
blocks, with no ``tool_result`` block and none of ``isMeta``,
``isCompactSummary`` or ``isSidechain``. The reply recorded for a prompt is the
last assistant message with text before the next real prompt; one API message
can span several lines sharing ``message.id``. ``isCompactSummary`` lines and
``summary`` lines (kept only when their ``leafUuid`` is a line of this read)
become history; a ``queued_command`` attachment (typed while the agent worked)
is a prompt that joins the running turn. See docs/transcripts.md.
"""
from __future__ import annotations

import re
from typing import Any

from chord_memory.transcripts import Session, Turn, jsonl, session

KIND = "claude-code"

# Line types Claude Code writes that carry nothing for extraction: dropped, not counted.
_AUXILIARY = (
    "system",
    "file-history-snapshot",
    "queue-operation",
    "progress",
    "permission-mode",
    "custom-title",
    "agent-name",
    "last-prompt",
    "tag",
    "pr-link",
)
# User text that Claude Code injects or echoes, not something the user said.
_INJECTED_PREFIXES = (
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "<system-reminder>",
    "[Request interrupted by user",
)
_COMMAND_NAME = re.compile(r"<command-name>(.*?)</command-name>", re.DOTALL)
_COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.DOTALL)
# A user line whose head carries this, with a tool_result as its first block, is a
# tool result: dropped before json.loads (the bulk of a transcript is these lines).
_TOOL_RESULT_HEADS = (
    b'"message":{"role":"user","content":[{"tool_use_id":',
    b'"message":{"role":"user","content":[{"type":"tool_result"',
)
_HEAD_BYTES = 4096
_PROBE_LINES = 200  # how far into a file first_cwd looks
_PROBE_LINE_BYTES = 1024 * 1024  # longer lines are tool output: not parsed
_PROBE_BYTES = 16 * 1024 * 1024


def read(path: str, start_offset: int = 0) -> Session:
    state = _State()
    if start_offset:
        state.cwd = first_cwd(path)  # the same cwd whether read whole or resumed
    scan = jsonl.scan(path, start_offset, state.handle, _is_tool_result)
    # The file name is the id: lines copied by --resume can carry an older sessionId.
    return session(KIND, path, None, state.cwd, state.finish(), start_offset, scan)


def first_cwd(path: str) -> str | None:
    """The first ``cwd`` among a Claude Code file's first lines."""
    try:
        with open(path, "rb") as f:
            for line in jsonl.iter_lines(f, 0, 1):
                if line.number > _PROBE_LINES or line.end > _PROBE_BYTES or not line.complete:
                    return None
                if line.data is None or len(line.data) > _PROBE_LINE_BYTES:
                    continue
                obj = jsonl.parse(line.data)
                cwd = jsonl.text_of(obj.get("cwd")) if obj is not None else None
                if cwd is not None:
                    return cwd
    except OSError:
        return None
    return None


def _is_tool_result(data: bytes) -> bool:
    """A cheap, conservative test: the line is a user line carrying a tool result."""
    head = data[:_HEAD_BYTES]
    return b'"type":"user"' in head and any(h in head for h in _TOOL_RESULT_HEADS)


class _Reply:
    """The assistant message with text seen last in the current turn."""

    def __init__(self, message_id: str, line: int, parts: list[str]) -> None:
        self.message_id = message_id
        self.line = line
        self.parts = parts


class _State:
    def __init__(self) -> None:
        self.cwd: str | None = None
        self.turns: list[Turn] = []
        self.reply: _Reply | None = None
        self.uuids: set[str] = set()
        self.summaries: list[tuple[str | None, Turn]] = []

    def handle(self, number: int, obj: dict[str, Any]) -> bool:
        kind = obj.get("type")
        if isinstance(obj.get("uuid"), str):
            self.uuids.add(obj["uuid"])
        if self.cwd is None and jsonl.text_of(obj.get("cwd")):
            self.cwd = obj["cwd"]
        if kind == "user":
            return self._user(number, obj)
        if kind == "assistant":
            return self._assistant(number, obj)
        if kind == "summary":
            return self._summary(number, obj)
        if kind == "attachment":
            return self._attachment(number, obj)
        return kind in _AUXILIARY

    def _user(self, number: int, obj: dict[str, Any]) -> bool:
        message = obj.get("message")
        if not isinstance(message, dict):
            return False
        if obj.get("isSidechain") is True:
            return True
        text = _user_text(message.get("content"))
        if text is not None and obj.get("isCompactSummary") is True:
            self.turns.append(Turn("history", text, number))
            return True
        if text is None or obj.get("isMeta") is True:
            return True
        self._flush()
        self.turns.append(Turn("user", text, number))
        return True

    def _assistant(self, number: int, obj: dict[str, Any]) -> bool:
        message = obj.get("message")
        if not isinstance(message, dict):
            return False
        if obj.get("isSidechain") is True or obj.get("isApiErrorMessage") is True:
            return True
        if message.get("model") == "<synthetic>":
            return True
        parts = _assistant_texts(message.get("content"))
        if not parts:
            return True  # thinking or tool_use only: the reply so far stands
        message_id = message.get("id") if isinstance(message.get("id"), str) else None
        reply = self.reply
        if reply is not None and message_id is not None and reply.message_id == message_id:
            reply.parts.extend(p for p in parts if p not in reply.parts)
        else:
            self.reply = _Reply(message_id or f"line-{number}", number, parts)
        return True

    def _attachment(self, number: int, obj: dict[str, Any]) -> bool:
        """A prompt typed while the agent worked: Claude Code folds it into the turn."""
        attachment = obj.get("attachment")
        if not isinstance(attachment, dict):
            return True  # other attachments (hook output, file state) say nothing
        origin = attachment.get("origin")
        human = not isinstance(origin, dict) or origin.get("kind") == "human"
        queued = attachment.get("type") == "queued_command"
        prompt = queued and attachment.get("commandMode") == "prompt" and human
        if prompt and not (obj.get("isMeta") or attachment.get("isMeta")):
            text = _user_text(attachment.get("prompt"))
            if text is not None:
                self.turns.append(Turn("user", text, number))
        return True

    def _summary(self, number: int, obj: dict[str, Any]) -> bool:
        text = jsonl.text_of(obj.get("summary"))
        if text is None:
            return False
        leaf = obj.get("leafUuid")
        turn = Turn("history", text, number)
        self.summaries.append((leaf if isinstance(leaf, str) else None, turn))
        return True

    def _flush(self) -> None:
        if self.reply is not None:
            self.turns.append(Turn("assistant", "\n\n".join(self.reply.parts), self.reply.line))
            self.reply = None

    def finish(self) -> list[Turn]:
        """The turns in file order; ``summary`` lines of other sessions left out."""
        self._flush()
        kept = [turn for leaf, turn in self.summaries if leaf is None or leaf in self.uuids]
        return sorted(self.turns + kept, key=lambda turn: turn.line)


def _user_text(content: object) -> str | None:
    """The prompt's text, or None when the line is not something the user said."""
    if isinstance(content, str):
        return _said(content)
    if not isinstance(content, list):
        return None
    texts: list[str] = []
    for block in content:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "tool_result":
            return None
        text = _said(block.get("text")) if block.get("type") == "text" else None
        if text is not None:
            texts.append(text)
    return "\n\n".join(texts) or None


def _said(text: object) -> str | None:
    """What the user typed: injected text dropped, a slash command as ``/name args``."""
    if not isinstance(text, str) or not text.strip():
        return None
    stripped = text.lstrip()
    if stripped.startswith(_INJECTED_PREFIXES):
        return None
    name = _COMMAND_NAME.search(text) if stripped.startswith("<command-") else None
    if name is None:
        return text
    args = _COMMAND_ARGS.search(text)
    if args is None or not args.group(1).strip():
        return None  # a bare command (/compact, /model) says nothing to remember
    return f"{name.group(1).strip()} {args.group(1).strip()}"


def _assistant_texts(content: object) -> list[str]:
    if isinstance(content, str):
        return [content] if jsonl.text_of(content) else []
    return jsonl.text_blocks(content, ("text",))

