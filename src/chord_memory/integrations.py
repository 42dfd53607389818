"""Agent-side hooks: what `summary --format claude-code` reads and prints.

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
from typing import Any

EVENTS = ("SessionStart", "UserPromptSubmit")  # the events whose output may add context


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


def claude_code_output(data: dict[str, Any], context: str) -> str:
    """The JSON that adds `context` to the session ('' when there is nothing to add)."""
    if not context:
        return ""
    event = data.get("hook_event_name")
    out = {"hookSpecificOutput": {
        "hookEventName": event if event in EVENTS else "SessionStart",
        "additionalContext": context,
    }}
    return json.dumps(out, ensure_ascii=False) + "\n"
