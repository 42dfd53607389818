"""What the pipeline (extract/run.py) calls when `memory.extractor` is `model`."""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from chord_memory.config import Config, Endpoint
from chord_memory.errors import UserError
from chord_memory.extract import plan
from chord_memory.extract.model import PROMPT_VERSION, Timing, busy, claims, consolidate, pool, prompt
from chord_memory.extract.reply import Reply
from chord_memory.transcripts import Session


def resolve(cfg: Config) -> tuple[str, list[Endpoint], bool]:
    """(pool name, its endpoints, dedicated?). `model_pool: null` means the pool `main`."""
    name = cfg.memory.model_pool or "main"
    endpoints = cfg.memory.pools.get(name)
    if not endpoints:
        where = "memory.model_pool names" if cfg.memory.model_pool else "memory.model_pool is null, so"
        raise UserError(f"memory.extractor is model, but {where} pool {name!r}, which memory.pools "
                        "does not define (or is empty); add it to .chord/config.yaml")
    return name, endpoints, name != "main"


def origin(kind: str, session_id: str) -> str:
    """A record's `session`: where it came from and which prompt made it."""
    return f"{kind}:{session_id} prompt:{PROMPT_VERSION}"


class ModelExtractor:
    def __init__(self, root: str, cfg: Config, env: Mapping[str, str], guidance: str,
                 timing: Timing, log: Callable[[str], None]) -> None:
        self.pool_name, self.endpoints, self.dedicated = resolve(cfg)
        self.root, self.cfg, self.env, self.guidance = root, cfg, env, guidance
        self.timing, self.log = timing, log
        self.skipped: list[str] = []  # the records the last reply lost to claims.checked, one line each

    def reply(self, session: Session, mem: plan.Memory) -> Reply:
        """The model's reply for one session (an empty one when it holds no text).

        Its records are checked against what the user typed in the session
        (claims.py) before the reply leaves the model package: a record the
        user's words do not carry is left out (a line in `self.skipped` and the
        log), and the model's `verified` becomes `stated`.
        """
        self.skipped = []
        turns = [(t.role, t.text) for t in session.turns if t.text.strip()]
        if not turns:
            return Reply()
        summary_chars = self.cfg.memory.limits.summary_chars
        got = self._call(prompt.extraction(self.guidance, mem, turns, summary_chars))
        said = [(role, prompt.clean(text)) for role, text in turns]
        kept, self.skipped, lowered = claims.checked(got, said)
        for line in self.skipped:
            self.log(f"skipped {line}")
        for line in lowered:
            self.log(line)
        return kept

    def consolidation(self, mem: plan.Memory) -> tuple[Reply, list[str]]:
        """Retire and merge over the index alone; what the model may not do is skipped."""
        budget = self.cfg.memory.injection_budget
        build = prompt.consolidation(self.guidance, mem, budget, consolidate.size(mem),
                                     self.cfg.memory.limits.summary_chars)
        return consolidate.allowed(self._call(build), mem)

    def _look(self) -> busy.Snapshot:
        return busy.snapshot(self.root, self.cfg.memory.sessions, self.env)

    def _call(self, build: prompt.Build) -> Reply:
        look = None if self.dedicated else self._look
        if look is not None:
            busy.wait_idle(look, self.timing, self.log)
        ask = pool.ask(self.endpoints, build, self.env, self.timing, self.log, self.pool_name)
        return run_in_thread(busy.preemptible(ask, look, self.timing.watch_poll))


def run_in_thread(coro: Coroutine[Any, Any, Reply]) -> Reply:
    """asyncio.run(coro) on a thread of its own, its exception re-raised here.

    A caller that already runs an event loop can still call the pipeline, and
    the caller's thread keeps its tracing intact (anyio's task switching upsets
    coverage's tracer in the thread that runs the loop). The thread is a daemon:
    an interrupted run does not wait for a call in flight.
    """
    out: list[Reply] = []
    err: list[BaseException] = []

    def work() -> None:
        try:
            out.append(asyncio.run(coro))
        except BaseException as e:  # handed to the caller's thread as it is
            err.append(e)

    worker = threading.Thread(target=work, name="chord-memory-model", daemon=True)
    worker.start()
    worker.join()
    if err:
        raise err[0]
    return out[0]
