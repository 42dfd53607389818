"""The ledger of processed sessions and the journal of an apply in progress.

Both are JSON files in `<git-common-dir>/chord-memory/`, written atomically.
The ledger says, per transcript, where processing stopped (a byte offset, or a
count of messages for formats kept as whole documents), with a checkpoint of
what lies before that point (transcripts.checkpoint) so a rewritten file is read
again from the start, and the stamp the transcript had then, so an unchanged
one is not read again. The journal holds a planned apply until it is done, so a run killed
half-way is finished by the next one instead of leaving orphans.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
from typing import Any

from chord_memory import atomic, paths


def _file(root: str, name: str) -> str:
    state = paths.state_dir(root)
    if state is None:
        from chord_memory.errors import UserError

        raise UserError("extraction needs a git repository (its state lives in .git)")
    return os.path.join(state, name)


def _load(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(path: str, data: dict[str, Any]) -> None:
    atomic.write(path, json.dumps(data, indent=1, sort_keys=True).encode())


def _key(kind: str, path: str) -> str:
    """A ledger key names the transcript by a digest of its path: a file name can hold a
    secret (a token pasted into a session's name), and the ledger is a file of ours too."""
    digest = hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return f"{kind}:{digest}"


class Ledger:
    def __init__(self, root: str) -> None:
        self.path = _file(root, "ledger.json")
        self.data = _load(self.path)

    def _entry(self, kind: str, path: str) -> object:
        """The entry of a transcript (the plain path was the key before 0.2)."""
        return self.data.get(_key(kind, path), self.data.get(f"{kind}:{path}"))

    def start_offset(self, kind: str, path: str) -> int:
        """Where processing of this transcript resumes (0 when unknown or rewritten)."""
        from chord_memory.transcripts import checkpoint

        entry = self._entry(kind, path)
        if not isinstance(entry, dict):
            return 0
        offset = entry.get("offset", 0)
        if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
            return 0
        if checkpoint(kind, path, offset) != entry.get("head"):
            return 0
        return offset

    def unchanged(self, kind: str, path: str, stamp: tuple[float, int]) -> bool:
        """Whether the transcript is as it was when it was last processed."""
        entry = self._entry(kind, path)
        return isinstance(entry, dict) and entry.get("stamp") == list(stamp)

    def done(self, kind: str, path: str, session_id: str, offset: int,
             stamp: tuple[float, int] | None = None) -> None:
        from chord_memory.transcripts import checkpoint

        entry: dict[str, Any] = {"session": session_id, "offset": offset,
                                 "head": checkpoint(kind, path, offset)}
        if stamp is not None:
            entry["stamp"] = list(stamp)
        self.data.pop(f"{kind}:{path}", None)
        self.data[_key(kind, path)] = entry
        _save(self.path, self.data)


def journal_path(root: str) -> str:
    return _file(root, "journal.json")


def load_journal(root: str) -> dict[str, Any] | None:
    data = _load(journal_path(root))
    return data or None


def save_journal(root: str, data: dict[str, Any]) -> None:
    _save(journal_path(root), data)


def set_journal_aside(root: str) -> str:
    """Move a journal that cannot be finished out of the way; where it went (for the log)."""
    import time

    aside = f"{journal_path(root)}.bad-{time.strftime('%Y%m%dT%H%M%S')}"
    os.replace(journal_path(root), aside)
    return os.path.basename(aside)


def clear_journal(root: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(journal_path(root))
