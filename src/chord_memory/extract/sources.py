"""Which transcripts to read: `memory.sessions`, or this project's Claude Code and Codex sessions."""
from __future__ import annotations

import glob
import os
from collections.abc import Mapping

from chord_memory import paths
from chord_memory.config import SessionSource


def find(root: str, sessions: list[SessionSource] | None, env: Mapping[str, str]) -> list[tuple[str, str]]:
    """(kind, path) of every transcript of this project, sorted; never another project's."""
    from chord_memory.transcripts import discover
    from chord_memory.transcripts.discover import belongs

    home = env.get("HOME") or os.path.expanduser("~")
    found: set[tuple[str, str]] = set()
    if sessions is None:
        for kind in ("claude-code", "codex", "chord"):
            for path in discover(kind, root, home=home, codex_home=env.get("CODEX_HOME"),
                                 claude_config_dir=env.get("CLAUDE_CONFIG_DIR")):
                found.add((kind, path))
        return sorted(found)
    for source in sessions:
        pattern = source.path
        if pattern.startswith("~"):
            pattern = home + pattern[1:]
        if not os.path.isabs(pattern):
            pattern = os.path.join(root, pattern)
        for path in glob.glob(pattern, recursive=True):
            if os.path.isfile(path) and not _in_notes(root, path) and belongs(source.kind, path, root):
                found.add((source.kind, path))
    return sorted(found)


def _in_notes(root: str, path: str) -> bool:
    """The working agent's notes are never extraction input."""
    notes = os.path.realpath(os.path.join(root, paths.NOTES_DIR))
    return os.path.realpath(path).startswith(notes + os.sep)
