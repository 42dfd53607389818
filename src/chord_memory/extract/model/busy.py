"""Busy and preemption (docs/extraction.md, "Busy sessions and preemption"), for runs on the main pool.

A session of this project is active while its transcript was appended to
within the active window (a minute). Before a call, the run waits for every
session to go quiet, and gives up (Deferred: nothing sent, retried by a later
run) after `wait_max`. While a call is in flight the transcripts are looked at
again and again; a new message, or a new session, cancels the call (Deferred).
The transcripts are the ones the pipeline reads (extract/sources.find).
With a dedicated pool none of this applies.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TypeVar

from chord_memory.config import SessionSource
from chord_memory.extract.model import Deferred, Timing

T = TypeVar("T")
Snapshot = dict[str, tuple[int, int]]  # transcript -> (size, mtime in ns)
Look = Callable[[], Snapshot]


def snapshot(root: str, sessions: list[SessionSource] | None, env: Mapping[str, str]) -> Snapshot:
    from chord_memory.extract import sources

    out: Snapshot = {}
    for _, path in sources.find(root, sessions, env):
        try:
            st = os.stat(path)
        except OSError:
            continue
        out[path] = (st.st_size, st.st_mtime_ns)
    return out


def active(snap: Snapshot, now: float, window: float) -> int:
    """How many sessions were appended to within the window."""
    return sum(1 for _, mtime in snap.values() if now - mtime / 1e9 < window)


def wait_idle(look: Look, timing: Timing, log: Callable[[str], None]) -> None:
    """Return once no session is active; raise Deferred when that takes over `wait_max`."""
    deadline = time.monotonic() + timing.wait_max
    said = False
    while busy := active(look(), time.time(), timing.active_window):
        left = deadline - time.monotonic()
        if left <= 0:
            raise Deferred(f"{busy} session(s) of this project active; the model on the main pool "
                           "is called only while they are quiet (or set memory.model_pool)")
        if not said:
            log(f"{busy} session(s) of this project active; waiting up to {timing.wait_max:g} s")
            said = True
        time.sleep(min(timing.wait_poll, left))


def changed(before: Snapshot, now: Snapshot) -> bool:
    """A transcript grew or was touched, or a new one appeared."""
    return any(before.get(path) != st for path, st in now.items())


async def preemptible(call: Awaitable[T], look: Look | None, poll: float) -> T:
    """The call's result; cancelled with Deferred as soon as a transcript changes."""
    task = asyncio.ensure_future(call)
    try:
        if look is None:
            return await task
        before = look()
        while True:
            done, _ = await asyncio.wait({task}, timeout=poll)
            if done:
                return task.result()
            if changed(before, look()):
                raise Deferred("a new message in a session of this project cancelled the model "
                               "call; it is retried on the next run")
    finally:
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
