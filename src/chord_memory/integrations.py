"""Agent-side hooks: what `summary --format claude-code` reads and prints (and
`recall --format claude-code`, `hook session-end`: agents/prompt.py, agents/session_end.py).

Claude Code runs a `SessionStart` hook command with a JSON object on stdin:

    {"session_id": "…", "transcript_path": "…", "cwd": "/path/to/project",
     "hook_event_name": "SessionStart", "source": "startup"}   # or resume, clear, compact

and adds `hookSpecificOutput.additionalContext` of the JSON the command prints
to the new session's context:

    {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "…"}}

A hook must never stop a session from starting, so input that is missing or
not JSON is treated as "no details" rather than an error. See docs/integrations.md.
"""
from __future__ import annotations

import json
import os

TYPE_CHECKING = False  # typing costs 3 ms to import, on every prompt; mypy treats this name as True
if TYPE_CHECKING:
    from typing import Any

EVENTS = ("SessionStart", "UserPromptSubmit")  # the events whose output may add context


MAX_INPUT = 1 << 20  # bytes of a hook's stdin read at most
STDIN_WAIT = 1.0     # seconds to wait for a hook's JSON; an agent may never close stdin


def read_stdin(wait: float = STDIN_WAIT) -> str:
    """The hook's stdin: up to EOF, a whole JSON value, MAX_INPUT bytes, or `wait` seconds
    without a byte, whichever comes first (never a hang on a pipe left open)."""
    import select
    import sys

    try:
        if sys.stdin is None or sys.stdin.isatty():
            return ""
        fd = sys.stdin.fileno()
    except (OSError, ValueError):
        return ""
    chunks: list[bytes] = []
    size = 0
    while size < MAX_INPUT:
        try:
            if not select.select([fd], [], [], wait)[0]:
                break
            chunk = os.read(fd, 65536)
        except (OSError, ValueError):
            break
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if chunk.rstrip().endswith(b"}") and hook_input(b"".join(chunks).decode("utf-8", "replace")):
            break  # the whole object has come
    return b"".join(chunks)[:MAX_INPUT].decode("utf-8", "replace")


def hook_input(text: str) -> dict[str, Any]:
    """The hook's JSON object, or {} when stdin held nothing usable."""
    try:
        data = json.loads(text) if text.strip() else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def project_dir(data: dict[str, Any]) -> str | None:
    """The folder the agent works in, when the hook said so and it exists."""
    cwd = data.get("cwd")
    return cwd if isinstance(cwd, str) and os.path.isdir(cwd) else None


def claude_code_output(data: dict[str, Any], context: str, default: str = "SessionStart") -> str:
    """The JSON that adds `context` to the session ('' when there is nothing to add)."""
    if not context:
        return ""
    event = data.get("hook_event_name")
    out = {"hookSpecificOutput": {
        "hookEventName": event if event in EVENTS else default,
        "additionalContext": context,
    }}
    return json.dumps(out, ensure_ascii=False) + "\n"
