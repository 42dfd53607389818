"""One extraction run over the frozen, unprocessed sessions of this project.

    transcript -> session -> extractor (rules, or the model pool) -> Reply -> plan -> apply -> ledger

A session whose extraction fails (a UserError) or is deferred (the model may
not be called now) is not applied and not marked done: a later run reads it
again. With `extractor: model`, an index over the injection budget gets one
consolidation call at the end of the run.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from chord_memory import paths
from chord_memory.config import Config
from chord_memory.errors import UserError
from chord_memory.extract import apply, plan, sources, state
from chord_memory.extract.model import Deferred, Timing
from chord_memory.extract.reply import Reply

if TYPE_CHECKING:
    from chord_memory.extract.model.extractor import ModelExtractor
    from chord_memory.records import Limits
    from chord_memory.transcripts import Session, Turn

AGENTS_MAX = 16384

Extract = Callable[[str, "Session", plan.Memory], tuple[Reply, str]]  # -> (reply, record origin)


class Outcome(NamedTuple):
    sessions: int          # sessions read in this run
    written: list[str]     # files created
    ops: int               # index operations
    skipped: list[str]     # what was not done and why
    plans: list[plan.Plan]
    deferred: bool = False  # the model may not be called now; a later run goes on (not a success)


def _agents_guidance(root: str) -> str:
    """Bounded AGENTS.md text: what the rules already say is not memory."""
    try:
        with paths.open_regular(os.path.join(root, "AGENTS.md")) as f:
            return f.read(AGENTS_MAX).decode("utf-8", "replace")
    except OSError:
        return ""


def user_texts(turns: Iterable[Turn]) -> list[str]:
    """What the user typed, scrubbed of secrets: what no rule keeps (pasted logs, code) is left
    out before the scrubber reads it, and the other roles' turns are not read at all."""
    from chord_memory.extract.sentences import scrubbed, typed

    return [scrubbed(text) for text in (typed(t.text) for t in turns if t.role == "user") if text.strip()]


def extract_reply(cfg: Config, texts: list[str], session_id: str, known: str) -> Reply:
    from chord_memory.extract import rules

    return rules.extract(texts, session_id, cfg.memory.limits.summary_chars, known)


def _rules(cfg: Config, known: str) -> Extract:
    def extract(kind: str, session: Session, mem: plan.Memory) -> tuple[Reply, str]:
        return extract_reply(cfg, user_texts(session.turns), session.id, known), f"{kind}:{session.id}"

    return extract


def _model(model: ModelExtractor) -> Extract:
    from chord_memory.extract.model.extractor import origin

    def extract(kind: str, session: Session, mem: plan.Memory) -> tuple[Reply, str]:
        return model.reply(session, mem), origin(kind, session.id)

    return extract


def _model_extractor(root: str, cfg: Config, env: Mapping[str, str], known: str,
                     timing: Timing | None) -> ModelExtractor | None:
    """The model extractor when `memory.extractor` is `model` (httpx is imported only then)."""
    if cfg.memory.extractor != "model":
        return None
    from chord_memory import status
    from chord_memory.extract import model as model_pkg
    from chord_memory.extract.model.extractor import ModelExtractor

    return ModelExtractor(root, cfg, env, known, timing or model_pkg.DEFAULT,
                          lambda msg: status.log(root, msg))


def _apply(root: str, p: plan.Plan, out: Outcome, dry_run: bool) -> Outcome:
    out.plans.append(p)
    out.skipped.extend(p.skipped)
    if dry_run:
        return out
    apply.apply(root, p)
    out.written.extend(rel for rel, _ in p.creates)
    return out._replace(ops=out.ops + len(p.ops))


def _consolidate(root: str, model: ModelExtractor, limits: Limits, created: str,
                 out: Outcome) -> Outcome:
    """One call over the index alone when it no longer fits the injection budget."""
    from chord_memory import status
    from chord_memory.extract.model import PROMPT_VERSION, consolidate

    mem = plan.load_memory(root, limits)
    if not consolidate.needed(root, mem, model.cfg.memory.injection_budget):
        return out
    before = consolidate.size(mem)
    try:
        reply, refused = model.consolidation(mem)
    except Deferred as e:
        out.skipped.append(f"consolidation: {e}")
        return out._replace(deferred=True)
    out.skipped.extend(refused)
    p = plan.make(reply, mem, limits, created=created, session=f"consolidation prompt:{PROMPT_VERSION}")
    out = _apply(root, p, out, dry_run=False)
    after = plan.load_memory(root, limits)
    consolidate.remember(root, after)
    status.log(root, f"consolidation: index {before} -> {consolidate.size(after)} characters "
               f"(budget {model.cfg.memory.injection_budget}), {len(p.ops)} index changes")
    return out


def _ended(ended: Mapping[str, float] | None, path: str, changed: float) -> bool:
    """Whether the session ended and its transcript has not changed since (not resumed)."""
    at = ended.get(os.path.realpath(path)) if ended else None
    return at is not None and changed <= at


def run(root: str, cfg: Config, *, dry_run: bool = False, now: float | None = None,
        env: Mapping[str, str] | None = None, timing: Timing | None = None,
        ended: Mapping[str, float] | None = None) -> Outcome:
    """`ended`: {transcript's real path: when its session ended} (background/queue.py): such a
    transcript, unchanged since, is read without waiting for `memory.freeze_after`."""
    from chord_memory import records, status, transcripts

    env = os.environ if env is None else env
    now = time.time() if now is None else now
    if not dry_run:
        for name in apply.sweep(root):
            status.log(root, f"a killed run left a copy of MEMORY.md; it is kept as recovered/{name}")
        if apply.finish_journal(root):
            status.log(root, "finished the apply a previous run left in the journal")
    ledger = state.Ledger(root)
    lim = cfg.memory.limits
    limits = records.Limits(lim.summary_chars, lim.statement_chars, lim.record_bytes)
    known = _agents_guidance(root)
    created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))
    model = _model_extractor(root, cfg, env, known, timing)
    extract = _rules(cfg, known) if model is None else _model(model)
    out = Outcome(0, [], 0, [], [])
    problems: list[str] = []
    found = sources.find(root, cfg.memory.sessions, env, problems)
    for problem in problems:
        out.skipped.append(problem)
        if not dry_run:
            status.log(root, problem)
    for kind, path in found:
        try:
            stamp = transcripts.stamp(kind, path)
        except OSError:
            continue
        if now - stamp[0] < cfg.memory.freeze_after and not _ended(ended, path, stamp[0]):
            continue  # not frozen: the session may still be going on
        if ledger.unchanged(kind, path, stamp):
            continue
        offset = ledger.start_offset(kind, path)
        if transcripts.counts_bytes(kind) and stamp[1] <= offset:
            continue
        try:
            session = transcripts.read_session(kind, path, offset)
        except OSError:
            continue  # gone or unreadable since it was found; a later run tries again
        mem = plan.load_memory(root, limits)
        try:
            reply, origin = extract(kind, session, mem)
        except Deferred as e:
            out.skipped.append(f"{kind}:{session.id}: {e}")
            status.log(root, f"{kind}:{session.id}: deferred: {e}")
            return out._replace(deferred=True)
        p = plan.make(reply, mem, limits, created=created, session=origin)
        if model is not None:
            p.skipped[:0] = model.skipped  # records the user's words did not carry (claims.py)
        out = _apply(root, p, out._replace(sessions=out.sessions + 1), dry_run)
        if dry_run:
            continue
        ledger.done(kind, path, session.id, session.end_offset, stamp)
        if p.learnings:
            from chord_memory import learnings

            try:
                learnings.record_sightings(root, origin, p.learnings)
            except UserError as e:  # a learning file broken by hand: the records are written
                status.log(root, f"{origin}: sightings not counted: {e}")
        status.log(root, f"{origin}: {len(p.creates)} files, {len(p.ops)} index changes, "
                   f"{len(p.skipped)} skipped, {session.skipped} transcript lines skipped")
    if model is not None and not dry_run:
        out = _consolidate(root, model, limits, created, out)
    if not dry_run:
        from chord_memory import decisions

        decisions.auto_promote(root)
    return out
