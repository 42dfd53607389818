"""Which transcripts to read: `memory.sessions`, or this project's sessions of every agent we read."""
from __future__ import annotations

import glob
import os
from collections.abc import Mapping

from chord_memory import paths
from chord_memory.config import SessionSource


def find(root: str, sessions: list[SessionSource] | None, env: Mapping[str, str],
         problems: list[str] | None = None) -> list[tuple[str, str]]:
    """(kind, path) of every transcript of this project, sorted; never another project's.

    A place that cannot be read (a folder without permission, a locked database) is
    left out and said in ``problems``: it never keeps the other agents' sessions from
    being read.
    """
    from chord_memory.transcripts import KINDS, discover, reader
    from chord_memory.transcripts.discover import belongs

    home = env.get("HOME") or os.path.expanduser("~")
    found: set[tuple[str, str]] = set()
    if sessions is None:
        for kind in KINDS:
            try:
                found.update((kind, path) for path in discover(kind, root, home=home, env=env))
            except OSError as e:
                _problem(problems, kind, e)
        return sorted(found)
    for source in sessions:
        pattern = source.path
        if pattern.startswith("~"):
            pattern = home + pattern[1:]
        if not os.path.isabs(pattern):
            pattern = os.path.join(root, pattern)
        expand = getattr(reader(source.kind), "expand", None)
        for match in glob.glob(pattern, recursive=True):
            if _in_notes(root, match):
                continue
            try:
                # a format that keeps many sessions in one place (a database, a folder) names them
                for path in expand(match, root) if expand is not None else [match]:
                    if (expand is not None or os.path.isfile(path)) and belongs(source.kind, path, root):
                        found.add((source.kind, path))
            except OSError as e:
                _problem(problems, source.kind, e)
    return sorted(found)


def _problem(problems: list[str] | None, kind: str, e: OSError) -> None:
    if problems is not None:
        from chord_memory.errors import os_error

        problems.append(f"{kind}: its sessions could not be read: {os_error(e)}")


def _in_notes(root: str, path: str) -> bool:
    """The working agent's notes are never extraction input."""
    notes = os.path.realpath(os.path.join(root, paths.NOTES_DIR))
    return os.path.realpath(path).startswith(notes + os.sep)
