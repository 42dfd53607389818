"""Consolidation: when the index no longer fits `memory.injection_budget`, one call over it alone.

The call sees the bounded AGENTS.md guidance and the index, never a
transcript. Of its reply only two things are kept: retiring an entry, and a
record that merges entries by superseding one of them; both only for entries
the assistant reported. Entries stated by the user (source user or required)
are kept whatever the model says. The digest of the index last consolidated
is kept in the state folder, so an index that stays over the budget (say,
because the user stated it all) is not sent again until it changes.
"""
from __future__ import annotations

import hashlib
import json
import os

from chord_memory import atomic, paths, summary
from chord_memory.extract import plan
from chord_memory.extract.reply import Reply

STATE_FILE = "consolidated.json"


def size(mem: plan.Memory) -> int:
    """Characters of the summary if every entry were shown (preamble included; extraction is
    on whenever this runs, so its note too)."""
    return summary.full_size([e.render() for e in mem.entries], extracting=True)


def _digest(mem: plan.Memory) -> str:
    text = "\n".join(e.render() for e in mem.entries)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _state(root: str) -> str | None:
    folder = paths.state_dir(root)
    return os.path.join(folder, STATE_FILE) if folder else None


def needed(root: str, mem: plan.Memory, budget: int) -> bool:
    """Over the budget, and not this very index consolidated before."""
    if size(mem) <= budget:
        return False
    return _last(root) != _digest(mem)


def _last(root: str) -> str | None:
    path = _state(root)
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    last = data.get("index") if isinstance(data, dict) else None
    return last if isinstance(last, str) else None


def remember(root: str, mem: plan.Memory) -> None:
    """Record that this index was consolidated (call it with the index after applying)."""
    path = _state(root)
    if path is not None:
        atomic.write(path, json.dumps({"index": _digest(mem)}).encode())


def allowed(reply: Reply, mem: plan.Memory) -> tuple[Reply, list[str]]:
    """Only retiring and superseding of assistant-reported entries; the rest is skipped."""
    indexed = {e.id for e in mem.entries}

    def assistant_entry(rid: str) -> bool:
        rec = mem.records.get(rid)
        return rid in indexed and rec is not None and rec.source == "assistant"

    skipped: list[str] = []
    records = []
    for r in reply.records:
        if r.supersedes and assistant_entry(r.supersedes):
            records.append(r.model_copy(update={"source": "assistant", "status": "inferred"}))
        else:
            skipped.append(f"consolidation record {r.summary[:60]!r}: a merge must supersede an "
                           "entry the assistant reported")
    retire = []
    for t in reply.retire:
        if assistant_entry(t.id):
            retire.append(t)
        else:
            skipped.append(f"consolidation retire {t.id}: kept (not an assistant-reported entry)")
    return Reply(records=records, retire=retire), skipped
