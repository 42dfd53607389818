"""chord-memory extract [--foreground] [--dry-run]: extraction over frozen, unprocessed sessions.

Both forms run in this process; neither detaches (the git hooks are the
background path: `chord-memory hook` forks the worker, see docs/hooks.md).

- `extract` runs once now, for this work tree, and prints what it wrote. It
  also satisfies this work tree's pending triggers. If a worker holds the lock,
  it leaves a trigger (remembered, never lost) and returns.
- `extract --foreground` is the worker the hooks start: it takes the lock,
  works through the pending triggers (waiting out the debounce, pre-commit's
  stash window and git sequences in progress), and before it releases the lock
  it checks for triggers that came in meanwhile and runs again. Nothing pending
  means nothing to do. Its report goes to the log and the status file.
"""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from chord_memory import paths
from chord_memory.errors import UserError

if TYPE_CHECKING:
    from chord_memory.config import Config
    from chord_memory.trigger import Mark

PATIENCE = 0.3  # a trigger's lock probe holds the lock for microseconds; wait that out


def run(args: argparse.Namespace) -> int:
    root = paths.find_root()
    state = paths.state_dir(root)
    if state is None:
        raise UserError("extraction needs a git repository (its state lives in .git); "
                        "run it inside one")
    if args.foreground:
        return work(state)
    return once(root, state, dry_run=args.dry_run)


def _key(root: str) -> str:
    from chord_memory import trigger

    git_dir, common = paths.git_dir(root), paths.common_dir(root)
    assert git_dir is not None and common is not None
    return trigger.worktree_key(git_dir, common)


def once(root: str, state: str, *, dry_run: bool = False) -> int:
    from chord_memory import config, lock, trigger

    cfg = config.load(root)
    if not cfg.memory.enabled:
        print("extraction is off (memory.enabled: false): nothing was read, sent or written")
        return 0
    with lock.held(state, PATIENCE) as mine:
        if not mine:
            if not dry_run:
                trigger.append(state, _key(root), "extract", 0, root)
            print("another extraction is running in this repository; it will pick this up")
            return 0
        if dry_run:
            return _dry_run(root, cfg)
        key = _key(root)
        trigger.claim(state, key)
        code = _report(root, cfg)
        trigger.release(state, key)
    if trigger.waiting(state, {}):  # triggers that came in while we held the lock
        trigger.start_worker(root, state)
    return code


def _dry_run(root: str, cfg: Config) -> int:
    from chord_memory.extract import run as pipeline

    try:
        outcome = pipeline.run(root, cfg, dry_run=True)
    except UserError as e:
        raise UserError(str(e), 1) from None
    for p in outcome.plans:
        for rel, _ in p.creates:
            print(f"would write {rel}")
        for op in p.ops:
            print(f"would {op[0]} " + " ".join(str(x) for x in op[1:] if x))
    for why in outcome.skipped:
        print(f"skipped {why}", file=sys.stderr)
    print(f"{outcome.sessions} session(s) read, 0 file(s) written, 0 index change(s)")
    return 0


def _report(root: str, cfg: Config) -> int:
    """One run for a person: print what was written; failures also go to the status."""
    from chord_memory import status
    from chord_memory.extract import run as pipeline

    try:
        outcome = pipeline.run(root, cfg)
    except UserError as e:
        status.write(root, False, str(e))
        raise UserError(str(e), 1) from None
    except Exception as e:
        status.write(root, False, crash_reason(e))
        raise
    if not outcome.deferred:  # a deferred run proved nothing: keep a failure showing
        status.write(root, True)
    for rel in outcome.written:
        print(f"wrote {rel}")
    for why in outcome.skipped:
        print(f"skipped {why}", file=sys.stderr)
    print(f"{outcome.sessions} session(s) read, {len(outcome.written)} file(s) written, "
          f"{outcome.ops} index change(s)")
    return 0


def crash_reason(e: BaseException) -> str:
    from chord_memory.errors import crash_log_path

    return f"the extraction crashed ({type(e).__name__}: {e}); the traceback is in {crash_log_path()}"


# -- the worker ------------------------------------------------------------------------------

def work(state: str) -> int:
    """Work through the pending triggers; check again after releasing the lock (no lost wake-up)."""
    from chord_memory import lock, trigger

    deferred: dict[str, int] = {}
    while True:
        with lock.held(state, PATIENCE) as mine:
            if not mine:
                return 0  # the holder checks the pending files before and after it releases
            drain(state, deferred)
        if not trigger.waiting(state, deferred):
            return 0


def drain(state: str, deferred: dict[str, int]) -> None:
    """While holding the lock: one run per work tree with pending triggers, until none is left."""
    from chord_memory import status, trigger

    while True:
        todo = trigger.waiting(state, deferred)
        if not todo:
            return
        key = todo[0]
        mark = trigger.settle(state, key, trigger.debounce())
        git_dir = paths.git_dir(mark.root) if mark else None
        if mark is None or git_dir is None:
            trigger.claim(state, key)
            trigger.release(state, key)  # unreadable, or its work tree is gone
            continue
        busy = trigger.wait_quiet_git(git_dir)
        if busy:
            deferred[key] = trigger.stamp(state, key)
            status.log(mark.root, f"deferred: a {busy} is in progress; its last event triggers")
            continue
        claimed = trigger.claim(state, key) or mark
        trigger.barrier()
        run_claimed(claimed)
        trigger.release(state, key)


def run_claimed(mark: Mark) -> None:
    """One run for the triggers of one work tree; its outcome goes to the status and the log."""
    from chord_memory import config, status
    from chord_memory.extract import run as pipeline

    root = mark.root
    try:
        cfg = config.load(root)
    except UserError as e:
        status.write(root, False, str(e))
        return
    if not cfg.memory.enabled:
        return
    events = ", ".join(f"{e} x{mark.events.count(e)}" for e in dict.fromkeys(mark.events))
    status.log(root, f"run: {len(mark.events)} trigger(s) ({events})")
    try:
        outcome = pipeline.run(root, cfg)
    except UserError as e:
        status.write(root, False, str(e))
        return
    except Exception as e:
        status.write(root, False, crash_reason(e))
        raise  # the claim stays: the next trigger runs it again
    if not outcome.deferred:
        status.write(root, True)
    status.log(root, f"run done: {outcome.sessions} session(s), {len(outcome.written)} file(s) "
               f"written, {outcome.ops} index change(s)")
