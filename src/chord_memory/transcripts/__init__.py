"""Transcript readers: one module a source format, one normalized Session out.

A session keeps only what the user said, the assistant's completed replies and
compaction summaries (role ``history``). Tool calls, tool results, thinking,
meta lines and side chains never reach a ``Turn``. See docs/transcripts.md.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, NamedTuple

from chord_memory.transcripts.discover import claude_code_project_dir, discover

if TYPE_CHECKING:
    from chord_memory.transcripts.jsonl import Scan

KINDS = ("chord", "claude-code", "codex")


class Turn(NamedTuple):
    role: str  # "user" | "assistant" | "history" (history = compaction summary)
    text: str
    line: int  # 1-based line number in the transcript the text came from


class Session(NamedTuple):
    kind: str  # "chord" | "claude-code" | "codex"
    id: str  # the session id from the file (fallback: file stem)
    path: str
    cwd: str | None  # project directory the session ran in, when the format says
    turns: list[Turn]
    start_offset: int  # byte offset reading started at
    end_offset: int  # just past the last complete line read (a partial last line is left)
    skipped: int  # malformed / oversized / unknown lines skipped


def session(kind: str, path: str, session_id: str | None, cwd: str | None, turns: list[Turn],
            start_offset: int, scan: Scan) -> Session:
    """What a reader returns: the file's stem stands in for an id the file does not give."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return Session(kind, session_id or stem, path, cwd, turns, start_offset, scan.end_offset,
                   scan.skipped)


def read_session(kind: str, path: str, start_offset: int = 0) -> Session:
    """Read ``path`` from ``start_offset`` into one normalized Session."""
    if kind == "chord":
        from chord_memory.transcripts import chord

        return chord.read(path, start_offset)
    if kind == "claude-code":
        from chord_memory.transcripts import claude_code

        return claude_code.read(path, start_offset)
    if kind == "codex":
        from chord_memory.transcripts import codex

        return codex.read(path, start_offset)
    raise ValueError(f"unknown transcript kind {kind!r}: expected one of {', '.join(KINDS)}")


__all__ = [
    "KINDS",
    "Session",
    "Turn",
    "claude_code_project_dir",
    "discover",
    "read_session",
]
