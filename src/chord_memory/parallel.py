"""Cold caches on every core: a fresh clone's first `check` parses every record once.

Results are pure functions of their arguments, so a large batch of cache misses
is spread over worker processes. The workers are forked: they start with the
parent's modules and with the batch itself, so only indexes travel to them
and only results come back. A small batch, or a machine with one core, runs in
this process.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")
MIN_BATCH = 400  # below this, starting workers costs more than it saves

# The batch being mapped, for the forked workers to read; set only around one map.
_BATCH: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def _one(i: int) -> Any:
    assert _BATCH is not None
    func, items = _BATCH
    return func(items[i])


def map_cold(func: Callable[[T], R], items: Sequence[T]) -> list[R]:
    global _BATCH
    workers = min(os.cpu_count() or 1, 8)
    if len(items) < MIN_BATCH or workers < 2 or not hasattr(os, "fork"):
        return [func(item) for item in items]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    _BATCH = (func, items)
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            chunk = max(16, len(items) // (workers * 4))
            return list(pool.map(_one, range(len(items)), chunksize=chunk))
    finally:
        _BATCH = None
