"""Cold caches on every core: a fresh clone's first `check` parses every record once.

Results are pure functions of their arguments, so a large batch of cache misses
is spread over worker processes (forked: they start with the parent's imports);
a small one, or a machine with one core, runs in this process.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")
MIN_BATCH = 400  # below this, starting workers costs more than it saves


def map_cold(func: Callable[[T], R], items: Sequence[T]) -> list[R]:
    workers = min(os.cpu_count() or 1, 8)
    if len(items) < MIN_BATCH or workers < 2 or not hasattr(os, "fork"):
        return [func(item) for item in items]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return list(pool.map(func, items, chunksize=max(16, len(items) // (workers * 4))))
