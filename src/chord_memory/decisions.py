"""Promoting learnings to decisions, rejecting them, revoking decisions: always with who did it.

A promotion writes a `type: decision` record (records are never edited, so
the record carries who promoted it in `actor`) and puts its line at the top of
the index. Who promoted decides what the record claims:

- `--by human`: `actor: human`, `source: user` (a person decided it, which is
  what `source: user` means), `status: stated`;
- `memory.autoPromote`: `actor: auto`, `source: assistant` (an inference from
  sessions that nobody confirmed), `status: stated`. It is never recorded as
  human, and like every assistant entry extraction may retire it.

Revoking removes the decision's line from the index (the record file stays as
provenance) and appends the revocation, with who and when, to the learning.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from chord_memory import atomic, learnings, paths, records
from chord_memory.errors import UserError
from chord_memory.extract.plan import normalize
from chord_memory.learnings import Learning
from chord_memory.text import REDACTED


class Rules(NamedTuple):
    min_sightings: int
    max_per_run: int
    auto: bool
    limits: records.Limits


def rules(root: str) -> Rules:
    from chord_memory import config

    memory = config.load(root).memory
    lim = memory.limits
    return Rules(memory.recurrence.minSightings, memory.recurrence.maxPerRun,
                 memory.autoPromote.enabled,
                 records.Limits(lim.summary_chars, lim.statement_chars, lim.record_bytes))


def _summary(lesson: str, limit: int) -> str:
    if len(lesson) <= limit:
        return lesson
    return lesson[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def decision(lr: Learning, by: str, created: str, limits: records.Limits) -> records.Record:
    """The decision record a promotion writes (not yet checked against the limits).

    Every text is scrubbed of secrets: the learning file may have been edited by hand.
    """
    from chord_memory.extract.plan import new_id
    from chord_memory.secrets import scrub

    lesson = scrub(lr.lesson)[0]
    days = sorted(s["at"][:10] for s in lr.sightings) or [created[:10]]
    who = "a person (--by human)" if by == "human" else "automatic promotion (memory.autoPromote)"
    summary = _summary(lesson, limits.summary_chars)
    return records.Record(
        new_id(summary, lesson, created), "decision", "user" if by == "human" else "assistant",
        "stated", by, created, f"learning:{lr.key}", None, summary, lesson,
        scrub(f"The lesson was seen in {lr.sessions} distinct sessions ({days[0]} to {days[-1]}) and "
              f"promoted by {who} on {created[:10]}.")[0],
        "Follow it as a project decision. If it no longer holds, revoke it: "
        f"`chord-memory learnings revoke --ids {lr.key} --by human`.",
    )


def _refusal(rec: records.Record, text: str, limits: records.Limits, known: set[str]) -> str | None:
    from chord_memory import durable

    if not re.search(r"[^\W_]", REDACTED.sub("", rec.conclusion)):
        return "the lesson is nothing but a secret once scrubbed; edit `lesson` in the file or reject it"
    if len(rec.conclusion) > limits.statement_chars:
        return f"the lesson is over {limits.statement_chars} characters (memory.limits.statement_chars)"
    if len(text.encode()) > limits.record_bytes:
        return f"the record would be over {limits.record_bytes} bytes (memory.limits.record_bytes)"
    if normalize(rec.conclusion) in known:
        return "a record with the same conclusion exists already"
    found = durable.scan("", rec.text)
    if found:
        return f"the lesson holds machine-specific text ({found[0].code}); edit `lesson` in the file"
    return None


def _region_problem(root: str) -> str | None:
    """Why MEMORY.md's region cannot take a new line, checked before any file is written."""
    from chord_memory import memory_md

    return memory_md.problem(root)


def promote(root: str, key: str, by: str, limits: records.Limits, known: set[str]) -> str:
    """Write the decision record, index it, mark the learning promoted; the record id."""
    from chord_memory import index, memory_md

    lr = learnings.find(root, key)
    if lr.status == "promoted":
        raise UserError(f"{lr.key} is promoted already (record {lr.record}); revoke it first", 1)
    rec = decision(lr, by, learnings.now(), limits)
    text = records.render(rec)
    reason = _refusal(rec, text, limits, known) or _region_problem(root)
    if reason:
        raise UserError(f"{lr.key} was not promoted: {reason}", 1)
    atomic.create_exclusive(f"{root}/{paths.record_path(rec.id)}", text.encode())
    memory_md.update(root, [memory_md.Add(index.Entry("decision", rec.summary, rec.id, 0))])
    learnings.change(root, lr.key, lambda old: learnings.act(
        old or lr, "promote", by, "promoted", record=rec.id)._replace(record=rec.id))
    known.add(normalize(rec.conclusion))
    return rec.id


def reject(root: str, key: str, by: str) -> Learning:
    lr = learnings.find(root, key)
    if lr.status == "promoted":
        raise UserError(f"{lr.key} is a promoted decision (record {lr.record}); revoke it instead", 1)
    return learnings.change(root, lr.key, lambda old: learnings.act(old or lr, "reject", by, "rejected")) \
        or lr


def revoke(root: str, ident: str, by: str) -> Learning:
    """Take a promoted decision's line out of the index; its record file stays."""
    from chord_memory import memory_md

    lr = learnings.find(root, ident)
    if lr.status != "promoted" or not lr.record:
        raise UserError(f"{lr.key} is {lr.status}, not a promoted decision; "
                        "`learnings reject` turns down an open learning", 1)
    memory_md.update(root, [memory_md.Remove(lr.record)])
    record = lr.record
    return learnings.change(root, lr.key, lambda old: learnings.act(
        old or lr, "revoke", by, "revoked", record=record)) or lr


def known_conclusions(root: str, limits: records.Limits) -> set[str]:
    from chord_memory.extract.plan import load_memory

    return set(load_memory(root, limits).conclusions)


def auto_promote(root: str) -> list[str]:
    """After an extraction run: promote up to maxPerRun ready learnings, with `actor: auto`.

    Does nothing unless `memory.autoPromote.enabled`. A learning that cannot be
    promoted (a duplicate, over a limit) is skipped and does not use the cap.
    """
    from chord_memory import status

    r = rules(root)
    if not r.auto or r.max_per_run <= 0:
        return []
    try:
        every = learnings.load_all(root)
    except UserError as e:  # one bad file must not fail the extraction run that called us
        status.log(root, f"autoPromote skipped: {e}")
        return []
    known = known_conclusions(root, r.limits)
    done: list[str] = []
    for lr in learnings.ready(every, r.min_sightings):
        if len(done) >= r.max_per_run:
            break
        try:
            done.append(promote(root, lr.key, "auto", r.limits, known))
        except UserError as e:
            status.log(root, f"autoPromote skipped: {e}")
    if done:
        status.log(root, f"autoPromote: promoted {', '.join(done)} (actor: auto)")
    return done
