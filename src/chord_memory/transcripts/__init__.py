"""Transcript readers: one module a source format, one normalized Session out.

A session keeps only what the user said, the assistant's completed replies and
compaction summaries (role ``history``). Tool calls, tool results, thinking,
meta lines and side chains never reach a ``Turn``. See docs/transcripts.md.
"""
from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

from chord_memory.transcripts.discover import claude_code_project_dir, discover

if TYPE_CHECKING:
    from chord_memory.transcripts.jsonl import Scan

# kind (as `memory.sessions` names it) -> the module that reads it
_MODULES = {
    "chord": "chord",
    "claude-code": "claude_code",
    "codex": "codex",
    "gemini-cli": "gemini_cli",
    "aider": "aider",
    "opencode": "opencode",
    "copilot-cli": "copilot_cli",
    "cursor": "cursor",
}
KINDS = tuple(_MODULES)


class Turn(NamedTuple):
    role: str  # "user" | "assistant" | "history" (history = compaction summary)
    text: str
    line: int  # 1-based line number in the transcript the text came from


class Session(NamedTuple):
    kind: str  # one of KINDS
    id: str  # the session id from the file (fallback: file stem)
    path: str
    cwd: str | None  # project directory the session ran in, when the format says
    turns: list[Turn]
    start_offset: int  # where reading started (see end_offset)
    end_offset: int  # where the next read starts: a byte offset just past the last complete
    #                  line, or for formats kept as whole documents a count of messages read
    skipped: int  # malformed / oversized / unknown lines or messages skipped


def session(kind: str, path: str, session_id: str | None, cwd: str | None, turns: list[Turn],
            start_offset: int, scan: Scan) -> Session:
    """What a reader returns: the file's stem stands in for an id the file does not give."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return Session(kind, session_id or stem, path, cwd, turns, start_offset, scan.end_offset,
                   scan.skipped)


def reader(kind: str) -> ModuleType:
    """The module that reads transcripts of ``kind``."""
    name = _MODULES.get(kind)
    if name is None:
        raise ValueError(f"unknown transcript kind {kind!r}: expected one of {', '.join(KINDS)}")
    return __import__(f"chord_memory.transcripts.{name}", fromlist=["read"])


def read_session(kind: str, path: str, start_offset: int = 0) -> Session:
    """Read ``path`` from ``start_offset`` into one normalized Session.

    Whatever the format, the turns come out as text every reader of ours accepts
    (control characters and lone surrogates replaced: chord_memory.text), and the
    id is scrubbed of secrets: it can be a file name, and it ends up in records.
    """
    got: Session = reader(kind).read(path, start_offset)
    from chord_memory.text import clean

    turns = [t if t.text == (text := clean(t.text)) else Turn(t.role, text, t.line) for t in got.turns]
    return got._replace(id=_safe_id(got.id), turns=turns)


def _safe_id(session_id: str) -> str:
    """The id scrubbed whole and piece by piece: a file name glues a token to its other
    words (`notes-ghp_...`), where a scanner of prose looks for a word boundary."""
    import re

    from chord_memory.secrets import scrub
    from chord_memory.text import clean

    whole = scrub(clean(session_id))[0]
    return re.sub(r"[^\s\-./:]+", lambda m: scrub(m.group(0))[0], whole)


def checkpoint(kind: str, path: str, offset: int) -> str | None:
    """What must be unchanged for a read from ``offset`` to go on where the last one stopped.

    Byte-offset formats: the file is at least ``offset`` long and its first bytes
    are the same. Whole-document formats say themselves (their first message's id,
    say). None: the file cannot be read, so a later read starts over.
    """
    own = getattr(reader(kind), "checkpoint", None)
    if own is not None:
        return own(path, offset)  # type: ignore[no-any-return]
    from chord_memory.transcripts import jsonl

    return jsonl.checkpoint(path, offset)


def stamp(kind: str, path: str) -> tuple[float, int]:
    """(last change time, a size that grows with the session): freezing and "anything new?".

    A single file's mtime and size, unless the format keeps a session in many
    files (OpenCode), which says itself. Raises OSError when it is gone.
    """
    own = getattr(reader(kind), "stamp", None)
    if own is not None:
        return own(path)  # type: ignore[no-any-return]
    st = os.stat(path)
    return st.st_mtime, st.st_size


def counts_bytes(kind: str) -> bool:
    """Whether ``end_offset`` is a byte offset (else a count of messages)."""
    return getattr(reader(kind), "UNIT", "bytes") == "bytes"


__all__ = [
    "KINDS",
    "Session",
    "Turn",
    "checkpoint",
    "claude_code_project_dir",
    "counts_bytes",
    "discover",
    "read_session",
    "reader",
    "stamp",
]
