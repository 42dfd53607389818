"""The decision: should this git event start an extraction? (What `chord_memory.hook` runs.)

    python -m chord_memory.hook EVENT [ARG...]     # by hand; other hook managers
    python -m chord_memory.hook                    # under pre-commit: the event comes from
                                                   # PRE_COMMIT_* variables
    python -c 'import chord_memory.hook as h; h.entry()' EVENT [ARG...]
                                                   # the raw git hooks (chord-memory install):
                                                   # -c skips runpy, 5 ms on every commit

It decides in O(1) whether this event should start an extraction and, if so,
forks a child that records the trigger and starts the detached worker
(start.py). It always exits 0: a post-checkout hook's status would become
the checkout's. It runs on every commit, so it imports `os`, `sys`, `time`,
`marshal` and our small path helpers only — never argparse, yaml, pydantic or
httpx; a raw hook costs about one `python -c pass` (docs/hooks.md, "Cost").
"""
from __future__ import annotations

import os
import sys

from chord_memory import gitio, paths
from chord_memory.background import queue, start

TYPE_CHECKING = False  # typing costs 10 ms to import; mypy treats this name as True
if TYPE_CHECKING:
    from collections.abc import Mapping

EVENTS = ("post-commit", "post-checkout", "post-merge", "post-rewrite")
NULL_SHA = "0" * 40


def event_and_args(argv: list[str], env: Mapping[str, str]) -> tuple[str, list[str]]:
    """The event and git's arguments: from argv (raw hooks) or pre-commit's variables."""
    if argv:
        return argv[0], list(argv[1:])
    if env.get("PRE_COMMIT_CHECKOUT_TYPE"):
        return "post-checkout", [env.get("PRE_COMMIT_FROM_REF", ""), env.get("PRE_COMMIT_TO_REF", ""),
                                 env["PRE_COMMIT_CHECKOUT_TYPE"]]
    if env.get("PRE_COMMIT_REWRITE_COMMAND"):
        return "post-rewrite", [env["PRE_COMMIT_REWRITE_COMMAND"]]
    if env.get("PRE_COMMIT_IS_SQUASH_MERGE"):
        return "post-merge", [env["PRE_COMMIT_IS_SQUASH_MERGE"]]
    return "post-commit", []


def env_skip(event: str, args: list[str], env: Mapping[str, str]) -> str | None:
    """Why this event starts nothing, judging by the event and the environment alone."""
    if event not in EVENTS:
        return f"unknown event {event!r}"
    if env.get("CHORD_MEMORY_SKIP") == "1":
        return "CHORD_MEMORY_SKIP=1"
    if env.get("CI", "").lower() not in ("", "0", "false", "no"):
        return "CI is set"
    if event == "post-checkout":
        old, new, kind = [*args, "", "", ""][:3]
        if kind == "0":
            return "a file checkout"
        if old == new:
            return "HEAD did not move"
    return None


def enabled(root: str) -> bool | None:
    """memory.enabled from settings.py's cache: True, False, or None when the cache is cold.

    The same key as settings.load(): the user config's path and the bytes of
    both configuration files. None leaves the decision to the forked child,
    which loads (and caches) the validated settings off the hook's clock.
    """
    from chord_memory import cache

    key = cache.config_key(root)
    if key[1] is None and key[2] is None:
        return False  # no configuration at all: extraction is off by default
    value = cache.load(root, "settings")
    try:
        if value is not None and value[0] == key:
            return bool(value[1][2])
    except (TypeError, IndexError):
        pass
    return None


def fire(event: str, args: list[str], env: Mapping[str, str] | None = None) -> str:
    """Decide, and start the trigger unless skipped. Returns what happened, for tests and logs."""
    env = os.environ if env is None else env
    why = env_skip(event, args, env)
    if why:
        return f"skipped: {why}"
    if not hasattr(os, "fork"):
        return "skipped: background extraction needs a POSIX system (fork, setsid, flock)"
    root = paths.find_root()
    git_dir = paths.git_dir(root)
    common = paths.common_dir(root)
    if git_dir is None or common is None:
        return "skipped: not in a git work tree"
    later = gitio.more_events_follow(git_dir, event)
    if later:
        return f"skipped: a {later} is in progress; its last event triggers"
    state = os.path.join(common, paths.STATE_NAME)
    on = enabled(root)
    if on is False:
        return "skipped: memory is disabled"
    wait_pid = os.getppid() if env.get("PRE_COMMIT") == "1" else 0
    start.start(root, state, queue.worktree_key(git_dir, common), event, wait_pid, on is None)
    return "started"


def main(argv: list[str] | None = None) -> int:
    try:
        event, args = event_and_args(sys.argv[1:] if argv is None else argv, os.environ)
        fire(event, args)
    except Exception as e:  # a hook never fails the git command
        sys.stderr.write(f"chord-memory hook: {type(e).__name__}: {e} (ignored)\n")
    return 0


def entry() -> None:
    """main(), then exit at once: no interpreter teardown.

    After the fork, tearing the interpreter down writes to most of its memory,
    which the kernel must first copy away from the child (copy on write): that
    alone cost 4 ms a commit, more than everything else the hook does.
    """
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)

