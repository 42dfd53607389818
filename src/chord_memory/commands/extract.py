"""chord-memory extract [--foreground] [--dry-run]: extraction over frozen, unprocessed sessions.

One run now, for this work tree, in this process, printing what it wrote;
`--foreground` says so explicitly (for scripts) and changes nothing else. It
also satisfies this work tree's pending triggers. If the background worker
holds the lock, it leaves a trigger (remembered, never lost) and returns.

The worker the git hooks start is not this command: it is
`python -m chord_memory.background.worker` (background/worker.py, docs/hooks.md).
"""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from chord_memory import paths
from chord_memory.errors import UserError

if TYPE_CHECKING:
    from chord_memory.config import Config
    from chord_memory.memory_md import Op

PATIENCE = 0.3  # a trigger's lock probe holds the lock for microseconds; wait that out


def run(args: argparse.Namespace) -> int:
    root = paths.find_root()
    state = paths.state_dir(root)
    if state is None:
        raise UserError("extraction needs a git repository (its state lives in .git); "
                        "run it inside one")
    return once(root, state, dry_run=args.dry_run)


def _key(root: str) -> str:
    from chord_memory.background import queue

    git_dir, common = paths.git_dir(root), paths.common_dir(root)
    assert git_dir is not None and common is not None
    return queue.worktree_key(git_dir, common)


def once(root: str, state: str, *, dry_run: bool = False) -> int:
    from chord_memory import config, errors, lock, status
    from chord_memory.background import queue, start

    cfg = config.load(root)
    if not cfg.memory.enabled:
        print("extraction is off (memory.enabled: false): nothing was read, sent or written")
        return 0
    try:
        with lock.held(state, PATIENCE) as mine:
            if not mine:
                if not dry_run:
                    queue.append(state, _key(root), "extract", 0, root)
                print("another extraction is running in this repository; it will pick this up")
                return 0
            if dry_run:
                return _dry_run(root, cfg)
            key = _key(root)
            queue.claim(state, key)
            code = _report(root, cfg)
            queue.release(state, key)
    except OSError as e:  # a read-only or full disk, a lock that is not a file: a failed run
        if not dry_run:
            status.fail(root, errors.os_error(e))
        raise
    if queue.waiting(state, {}):  # triggers that came in while we held the lock
        start.start_worker(root, state)
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
            print(f"would {_said(op)}")
    for why in outcome.skipped:
        print(f"skipped {why}", file=sys.stderr)
    print(f"{outcome.sessions} session(s) read, 0 file(s) written, 0 index change(s)")
    return 0


def _said(op: Op) -> str:
    """An index change as the dry run prints it: the entry line MEMORY.md would get."""
    from chord_memory.memory_md import Add, Replace

    if isinstance(op, Add):
        return f"add {op.entry.render()}"
    if isinstance(op, Replace):
        return f"replace {op.old} with {op.entry.render()}"
    return f"remove {op.id}"


def _report(root: str, cfg: Config) -> int:
    """One run for a person: print what was written; failures also go to the status."""
    from chord_memory import status
    from chord_memory.extract import run as pipeline

    try:
        outcome = pipeline.run(root, cfg)
    except UserError as e:
        status.fail(root, str(e))
        raise UserError(str(e), 1) from None
    except OSError:
        raise  # not a crash: once() records it
    except Exception as e:
        from chord_memory.crashlog import crash_reason

        status.fail(root, crash_reason(e))
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
