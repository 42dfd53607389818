"""`extractor: model`: any OpenAI-compatible chat endpoint, a pool tried in order.

    prompt.py       the versioned prompt (package data) and the bounded, scrubbed request
    client.py       one endpoint: dialects, retries with back-off, timeouts, a capped body (httpx, async)
    parse.py        reply text -> a strictly validated Reply
    claims.py       who said what: a record's source and status checked against the user's turns
    pool.py         endpoints in order: dialect fallback, resampling on the next model
    busy.py         waiting for this project's sessions to go quiet; preemption
    consolidate.py  the pass over the index alone when it no longer fits the budget
    extractor.py    what the pipeline (extract/run.py) calls

Importing this package is cheap: httpx is imported only when a call is made.
"""
from __future__ import annotations

from typing import NamedTuple

PROMPT_VERSION = "v1"


class Timing(NamedTuple):
    """Every wait of the model path, in seconds; tests shrink them."""

    active_window: float = 60.0    # a transcript appended to within this is an active session
    wait_max: float = 300.0        # how long a run waits for the sessions to go quiet, then skips
    wait_poll: float = 2.0         # how often it looks while waiting
    watch_poll: float = 0.25       # how often transcripts are looked at while a call is in flight
    tries: int = 3                 # attempts per endpoint and dialect on 429, 5xx, lost connections
    backoff: float = 1.0           # first pause between attempts; doubles each time
    retry_after_cap: float = 30.0  # the longest pause, whatever Retry-After asks for


DEFAULT = Timing()


class Deferred(Exception):
    """The model may not be called now (a session of this project is active); retry later."""


__all__ = ["DEFAULT", "PROMPT_VERSION", "Deferred", "Timing"]
