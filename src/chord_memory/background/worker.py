"""The background extraction worker the git hooks start: ``python -m chord_memory.background.worker``.

Not a `chord-memory` command (nobody runs it by hand; `chord-memory extract` is
the run a person or a script starts). It takes the lock, works through the
pending triggers (waiting out the debounce, pre-commit's stash window and git
sequences in progress), and before it releases the lock it checks for triggers
that came in meanwhile and runs again. Nothing pending means nothing to do. Its
report goes to the log and the status file (docs/hooks.md).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from chord_memory import paths
from chord_memory.errors import UserError

if TYPE_CHECKING:
    from chord_memory.background.queue import Mark

PATIENCE = 0.3  # a trigger's lock probe holds the lock for microseconds; wait that out
SEQUENCE_WAIT = 5.0  # how long a worker waits for a rebase, merge... to finish


class Failed(Exception):
    """A run the file system failed (a read-only or full disk, a file where a folder must be):
    its MEMORY-FAIL is written and, as after a crash, its claim stays for the next queue."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the worker for the repository of the current directory (the hook's work tree)."""
    from chord_memory import crashlog, errors

    del argv
    root = None
    try:
        root = paths.find_root()
        state = paths.state_dir(root)
        return 0 if state is None else work(state)
    except KeyboardInterrupt:
        return 130
    except Failed as e:
        print(f"chord-memory worker: {e}", file=sys.stderr)
        return errors.FINDINGS
    except OSError as e:  # outside a run: the lock or the state folder unusable, a full disk
        reason = errors.os_error(e)
        if root is not None:
            from chord_memory import status

            status.fail(root, reason)
        print(f"chord-memory worker: {reason}", file=sys.stderr)
        return errors.FINDINGS
    except Exception as e:  # its output goes to the log: one line there, the traceback in the crash log
        path = crashlog.log_crash()
        print(f"chord-memory worker: unexpected failure ({type(e).__name__}); details are in {path}",
              file=sys.stderr)
        return errors.CRASH


def work(state: str) -> int:
    """Work through the pending triggers; check again after releasing the lock (no lost wake-up)."""
    from chord_memory import lock
    from chord_memory.background import queue

    deferred: dict[str, int] = {}
    while True:
        with lock.held(state, PATIENCE) as mine:
            if not mine:
                return 0  # the holder checks the pending files before and after it releases
            drain(state, deferred)
        if not queue.waiting(state, deferred):
            return 0


def drain(state: str, deferred: dict[str, int]) -> None:
    """While holding the lock: one run per work tree with pending triggers, until none is left."""
    from chord_memory import status
    from chord_memory.background import queue

    while True:
        todo = queue.waiting(state, deferred)
        if not todo:
            return
        key = todo[0]
        mark = queue.settle(state, key, queue.debounce())
        git_dir = paths.git_dir(mark.root) if mark else None
        if mark is None or git_dir is None:
            queue.claim(state, key)
            queue.release(state, key)  # unreadable, or its work tree is gone
            continue
        busy = wait_quiet_git(git_dir)
        if busy:
            deferred[key] = queue.stamp(state, key)
            status.log(mark.root, f"deferred: a {busy} is in progress; its last event triggers")
            continue
        claimed = queue.claim(state, key) or mark
        queue.barrier()
        run_claimed(claimed)
        queue.release(state, key)


def wait_quiet_git(git_dir: str) -> str | None:
    """Wait for a running git command (index.lock) and a sequence to end; what still runs."""
    import time

    from chord_memory.background import queue
    from chord_memory.gitio import in_progress

    deadline = time.monotonic() + queue.WAIT_MAX
    while os.path.exists(os.path.join(git_dir, "index.lock")) and time.monotonic() < deadline:
        time.sleep(0.05)
    deadline = time.monotonic() + SEQUENCE_WAIT
    while in_progress(git_dir) and time.monotonic() < deadline:
        time.sleep(0.1)
    return in_progress(git_dir)



def run_claimed(mark: Mark) -> None:
    """One run for the triggers of one work tree; its outcome goes to the status and the log."""
    from chord_memory import config, crashlog, errors, status
    from chord_memory.background import queue
    from chord_memory.extract import run as pipeline

    root = mark.root
    try:
        cfg = config.load(root)
    except UserError as e:
        status.fail(root, str(e))
        return
    if not cfg.memory.enabled:
        return
    events = ", ".join(f"{e} x{mark.events.count(e)}" for e in dict.fromkeys(mark.events))
    try:
        status.log(root, f"run: {len(mark.events)} trigger(s) ({events})")
        state = paths.state_dir(root)
        outcome = pipeline.run(root, cfg, ended=queue.ended(state) if state else None)
    except UserError as e:
        status.fail(root, str(e))
        return
    except OSError as e:  # a failed run like any other, not a crash (no traceback to keep)
        reason = errors.os_error(e)
        status.fail(root, reason)
        raise Failed(reason) from None  # the claim stays: the next trigger runs it again
    except Exception as e:
        status.fail(root, crashlog.crash_reason(e))
        raise  # the claim stays: the next trigger runs it again
    try:
        if not outcome.deferred:
            status.write(root, True)
        status.log(root, f"run done: {outcome.sessions} session(s), {len(outcome.written)} file(s) "
                   f"written, {outcome.ops} index change(s)")
    except OSError:
        pass  # the run is done; a state folder that cannot be written is what `status` reports


if __name__ == "__main__":
    raise SystemExit(main())
