"""chord-memory hook EVENT [ARG...]: the git hooks' decision, through the command line.

The raw hooks and pre-commit call `python -m chord_memory.hook` directly (no
argparse on every commit); this command is the same decision for other hook
managers and for people trying it. `hook session-end` is Claude Code's SessionEnd
hook (agents/session_end.py). It always exits 0.
"""
from __future__ import annotations

TYPE_CHECKING = False  # argparse's Namespace, for the annotations only (an agent hook's path)
if TYPE_CHECKING:
    import argparse


def run(args: argparse.Namespace) -> int:
    if args.event == "session-end":
        from chord_memory.agents import session_end

        return session_end.main()
    from chord_memory import hook

    return hook.main([args.event, *args.hook_args])
