"""`chord-memory hook session-end`: Claude Code's SessionEnd hook starts the extraction.

Claude Code runs it as a session ends, with a JSON object on stdin:

    {"session_id": "…", "transcript_path": "~/.claude/projects/…/<id>.jsonl",
     "cwd": "/path/to/project", "hook_event_name": "SessionEnd",
     "reason": "clear"}        # or logout, prompt_input_exit, other

When `memory.enabled` is true it does what the git hooks do (background/decide.py): a
forked, detached child records a `session-end` trigger (same queue, lock, coalescing and
log) and marks the transcript as ended, so the run reads it now rather than after
`memory.freeze_after`; other sessions still wait for theirs. The hook itself returns at
once with exit 0, whatever happens: Claude Code is exiting and may not wait for it.
"""
from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing costs 3 ms to import; mypy treats this name as True
if TYPE_CHECKING:
    from collections.abc import Mapping

EVENT = "session-end"


def fire(data: dict[str, object], env: Mapping[str, str] | None = None) -> str:
    """Decide and start; what happened, for tests."""
    from chord_memory import integrations, paths
    from chord_memory.background import decide, queue, start

    env = os.environ if env is None else env
    if env.get("CHORD_MEMORY_SKIP") == "1":
        return "skipped: CHORD_MEMORY_SKIP=1"
    if env.get("CI", "").lower() not in ("", "0", "false", "no"):
        return "skipped: CI is set"
    if not hasattr(os, "fork"):
        return "skipped: background extraction needs a POSIX system (fork, setsid, flock)"
    root = paths.find_root(integrations.project_dir(data))
    git_dir = paths.git_dir(root)
    common = paths.common_dir(root)
    if git_dir is None or common is None:
        return "skipped: not in a git work tree"
    on = decide.enabled(root)
    if on is False:
        return "skipped: memory is disabled"
    transcript = data.get("transcript_path")
    ended = transcript if isinstance(transcript, str) and os.path.isfile(transcript) else ""
    state = os.path.join(common, paths.STATE_NAME)
    start.start(root, state, queue.worktree_key(git_dir, common), EVENT, 0, on is None, ended)
    return "started"


def main() -> int:
    try:
        from chord_memory import integrations

        fire(integrations.hook_input(integrations.read_stdin()))
    except Exception as e:  # a hook never fails the session's end
        sys.stderr.write(f"chord-memory hook session-end: {type(e).__name__}: {e} (ignored)\n")
    return 0
