"""chord-memory uninstall: remove our git hooks and put back what `install` found there.

`uninstall --agent claude-code [--local]` takes our hooks out of `.claude/settings.json`.
"""
from __future__ import annotations

import argparse
import os

from chord_memory import paths
from chord_memory.commands.install import HOOKS, PREVIOUS, agent_hooks, hooks_dir, is_ours


def uninstall_one(folder: str, name: str) -> str | None:
    """What happened to one hook, or None when there was nothing of ours."""
    path = os.path.join(folder, name)
    previous = path + PREVIOUS
    if os.path.lexists(path) and not is_ours(path):
        return f"left {name} alone: it is not ours"
    if os.path.lexists(previous):
        os.replace(previous, path)
        return f"restored the {name} hook that was there before"
    if os.path.lexists(path):
        os.unlink(path)
        return f"removed {name}"
    return None


def run(args: argparse.Namespace) -> int:
    return uninstall_command(paths.find_root(), agent=args.agent, local=args.local)


def uninstall_command(root: str, *, agent: str | None, local: bool) -> int:
    """The git hooks and the merge driver; with agent="claude-code", that agent's hooks
    (local: .claude/settings.local.json)."""
    if agent_hooks(root, agent, local, "uninstall"):
        return 0
    folder = hooks_dir(root)
    said = [m for m in (uninstall_one(folder, name) for name in HOOKS) if m]
    from chord_memory import mergedriver

    if mergedriver.uninstall_merge_driver(root):
        said.append("uninstalled the MEMORY.md merge driver (.gitattributes line and git config)")
    for message in said or ["no chord-memory hooks were installed"]:
        print(message)
    return 0
