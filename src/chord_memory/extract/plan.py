"""From a validated reply to a plan: the exact files to create and index operations.

Planning reads the current memory and decides everything; applying (apply.py)
only carries the plan out. Every text that will be written is scrubbed of
secrets here, and candidates that break a rule of docs/extraction.md are skipped
with a reason: an exact or near duplicate of any record ever written (indexed,
orphaned or retired: the same statement in other words is one record),
machine-specific text, a size limit, retiring or promoting what
may not be.
"""
from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING, NamedTuple

from chord_memory import durable, index, paths, records
from chord_memory.extract.reply import NewRecord, Reply
from chord_memory.memory_md import Add, Remove, Replace

if TYPE_CHECKING:
    from chord_memory.memory_md import Op


class Memory(NamedTuple):
    """What planning needs to know of the current memory."""

    entries: list[index.Entry]
    records: dict[str, records.Record]  # every record file that loads, indexed or not
    conclusions: set[str]               # normalized conclusions of every record file

    def near(self) -> list[frozenset[str]]:
        """The content words of every conclusion, for the near-duplicate test."""
        from chord_memory.extract import similar

        return [similar.words(c) for c in self.conclusions]


class Plan(NamedTuple):
    creates: list[tuple[str, str]]      # (root-relative path, text) of new files
    ops: list[Op]                       # what happens to MEMORY.md's index, in order
    skipped: list[str]                  # one line each: what was not done and why
    learnings: list[dict[str, str]]

    @property
    def empty(self) -> bool:
        return not self.creates and not self.ops


def normalize(text: str) -> str:
    return " ".join(text.lower().split()).rstrip(".")


def load_memory(root: str, limits: records.Limits) -> Memory:
    from chord_memory import loaded, snapshot

    snap = snapshot.from_worktree(root)
    entries: list[index.Entry] = []
    if snap.memory_md is not None and snap.memory_md.data is not None:
        idx = index.read(snap.memory_md.data)[0]
        entries = idx.entries if idx is not None else []
    results = loaded.Results(root, limits)
    good: dict[str, records.Record] = {}
    conclusions: set[str] = set()
    for name, f in snap.records.items():
        if f.data is None or f.sha is None:
            continue
        record = loaded.record(results.get(name, f.data, f.sha))
        if record is not None:
            good[name] = record
            conclusions.add(normalize(record.conclusion))
        else:
            m = re.search(r"^## Conclusion\s*\n(.*?)(?:^## |\Z)", f.data.decode("utf-8", "replace"),
                          re.M | re.S)
            if m:
                conclusions.add(normalize(m.group(1)))
    results.save()
    return Memory(entries, good, conclusions)


def new_id(summary: str, conclusion: str, created: str) -> str:
    slug = "-".join(re.findall(r"[a-z0-9]+", summary.lower()))[:40].strip("-") or "memory"
    digest = hashlib.sha256(normalize(conclusion).encode()).hexdigest()[:6]
    return f"{created[:10].replace('-', '')}-{slug}-{digest}"


def _safe(text: str) -> str:
    """Text fit to be written: scrubbed of secrets, without control characters or lone
    surrogates (our own readers refuse a file with a NUL in it)."""
    from chord_memory.extract.sentences import scrubbed
    from chord_memory.text import clean

    return scrubbed(clean(text))


def _scrubbed(rec: NewRecord) -> NewRecord:
    fields = {k: _safe(v) if isinstance(v, str) else v for k, v in rec.model_dump().items()}
    return NewRecord.model_validate(fields)


def _machine_specific(rec: NewRecord) -> str | None:
    text = "\n".join((rec.summary, rec.conclusion, rec.why, rec.how_to_apply))
    found = durable.scan("", text)
    return found[0].code if found else None


def _record_file(rec: NewRecord, rid: str, created: str, session: str) -> str:
    return records.render(records.Record(
        rid, rec.type, rec.source, rec.status, "auto", created, session, rec.supersedes,
        rec.summary, rec.conclusion, rec.why, rec.how_to_apply,
    ))


def _plan_records(reply: Reply, mem: Memory, limits: records.Limits, created: str, session: str,
                  plan: Plan) -> None:
    from chord_memory.extract import similar

    seen = set(mem.conclusions)
    near = mem.near() if reply.records else []
    for raw in reply.records:
        rec = _scrubbed(raw)
        what = f"record {rec.summary[:60]!r}"
        norm = normalize(rec.conclusion)
        reason = None
        if norm in seen:
            reason = "an exact duplicate of an existing record"
        elif not rec.supersedes and similar.duplicate(rec.conclusion, near):
            reason = "the same as an existing record in other words"
        elif code := _machine_specific(rec):
            reason = f"machine-specific text ({code}) does not belong in memory"
        elif len(rec.summary) > limits.summary_chars:
            reason = f"summary over {limits.summary_chars} characters"
        elif len(rec.conclusion) > limits.statement_chars:
            reason = f"conclusion over {limits.statement_chars} characters"
        elif rec.supersedes and rec.supersedes not in mem.records:
            reason = f"supersedes {rec.supersedes}, which is not a record"
        if reason is None:
            rid = new_id(rec.summary, rec.conclusion, created)
            text = _record_file(rec, rid, created, session)
            if len(text.encode()) > limits.record_bytes:
                reason = f"the record would be over {limits.record_bytes} bytes"
        if reason is not None:
            plan.skipped.append(f"{what}: {reason}")
            continue
        seen.add(norm)
        near.append(similar.words(rec.conclusion))
        plan.creates.append((paths.record_path(rid), text))
        entry = index.Entry(rec.type, rec.summary, rid, 0)
        plan.ops.append(Replace(rec.supersedes, entry) if rec.supersedes else Add(entry))


def _plan_retire_and_promote(reply: Reply, mem: Memory, created: str, plan: Plan) -> None:
    indexed = {e.id for e in mem.entries}
    for r in reply.retire:
        rec = mem.records.get(r.id)
        if r.id not in indexed:
            plan.skipped.append(f"retire {r.id}: not in the index")
        elif rec is None or rec.source != "assistant":
            plan.skipped.append(f"retire {r.id}: only assistant-reported entries are retired")
        else:
            plan.ops.append(Remove(r.id))
    for p in reply.promotions:
        rec = mem.records.get(p.id)
        if rec is None:
            plan.skipped.append(f"promote {p.id}: not a record")
            continue
        target = p.target if p.path is None else f"{p.target} ({p.path})"
        text = (
            f"---\nid: {p.id}\ntarget: {p.target}\npath: {p.path or 'null'}\ncreated: {created}\n"
            f"reason: {_yaml_line(_safe(p.reason))}\n---\n"
            f"Suggested for {target}. Review the draft, move what you agree with, then run "
            f"`chord-memory promotions accept {p.id}` or `reject {p.id}`.\n\n"
            f"## Draft\n{_safe(p.draft)}\n"
        )
        plan.creates.append((f"{paths.PROMOTIONS_DIR}/{p.id}.md", text))
        if rec.source != "user" and p.id in indexed:
            plan.ops.append(Remove(p.id))


def _yaml_line(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def make(reply: Reply, mem: Memory, limits: records.Limits, *, created: str, session: str) -> Plan:
    session = _safe(session)  # an origin names a session id, which can be a file name
    plan = Plan([], [], [], [dict(lr.model_dump()) for lr in reply.learnings])
    _plan_records(reply, mem, limits, created, session, plan)
    _plan_retire_and_promote(reply, mem, created, plan)
    return plan
