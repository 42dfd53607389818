"""The ledger of processed sessions and the journal of an apply in progress.

Both are JSON files in `<git-common-dir>/chord-memory/`, written atomically.
The ledger says, per transcript, up to which byte it was processed, with a
hash of the bytes before that point so a rewritten file is read again from the
start. The journal holds a planned apply until it is done, so a run killed
half-way is finished by the next one instead of leaving orphans.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
from typing import Any

from chord_memory import atomic, paths

HEAD_BYTES = 4096


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


def head_hash(path: str, upto: int) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read(min(upto, HEAD_BYTES))).hexdigest()[:16]


class Ledger:
    def __init__(self, root: str) -> None:
        self.path = _file(root, "ledger.json")
        self.data = _load(self.path)

    def start_offset(self, kind: str, path: str) -> int:
        """Where processing of this transcript resumes (0 when unknown or rewritten)."""
        entry = self.data.get(f"{kind}:{path}")
        if not isinstance(entry, dict):
            return 0
        offset = entry.get("offset", 0)
        try:
            if not isinstance(offset, int) or os.path.getsize(path) < offset:
                return 0
            if head_hash(path, offset) != entry.get("head"):
                return 0
        except OSError:
            return 0
        return offset

    def done(self, kind: str, path: str, session_id: str, offset: int) -> None:
        self.data[f"{kind}:{path}"] = {
            "session": session_id, "offset": offset, "head": head_hash(path, offset),
        }
        _save(self.path, self.data)


def journal_path(root: str) -> str:
    return _file(root, "journal.json")


def load_journal(root: str) -> dict[str, Any] | None:
    data = _load(journal_path(root))
    return data or None


def save_journal(root: str, data: dict[str, Any]) -> None:
    _save(journal_path(root), data)


def clear_journal(root: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(journal_path(root))
