"""Finding this project's transcripts, and only this project's.

- claude-code: ``<home>/.claude/projects/<encoded project root>/*.jsonl`` (sub-agent
  ``agent-*.jsonl`` files left out); a file's first ``cwd`` must be the project,
  since the encoding is lossy (``/a/b-c`` and ``/a/b.c`` share one folder).
- codex: ``<codex home>/sessions/**/rollout-*.jsonl`` whose ``session_meta`` cwd is
  the project, sub-agent sessions left out.
- chord: ``<git common dir>/chord-memory/sessions/*.jsonl`` whose header cwd, when
  it has one, is the project.
- every other kind: its reader module's ``discover(project_root, home, env)`` and
  ``belongs(path, project_root)`` (docs/transcripts.md says where each agent keeps
  its sessions).

Paths are compared after ``os.path.realpath``. Nothing here reads ``$HOME`` or the
environment: the caller passes ``home``, and ``env`` for the variables that move an
agent's folder (``CODEX_HOME``, ``CLAUDE_CONFIG_DIR``, ``XDG_DATA_HOME``, ...).
"""
from __future__ import annotations

import glob
import os
from collections.abc import Iterator, Mapping
from typing import Any

from chord_memory.transcripts import jsonl

_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_MAX_ENCODED = 200  # Claude Code truncates longer folder names and appends a hash
CHORD_SESSIONS = "sessions"  # under the state folder, <git common dir>/chord-memory


def discover(
    kind: str,
    project_root: str,
    *,
    home: str,
    codex_home: str | None = None,
    claude_config_dir: str | None = None,
    env: Mapping[str, str] | None = None,
) -> list[str]:
    """Transcript paths of this project only, sorted."""
    env = env or {}
    if kind == "claude-code":
        found = _claude_code(project_root, home, claude_config_dir or env.get("CLAUDE_CONFIG_DIR"))
    elif kind == "codex":
        found = _codex(project_root, codex_home or env.get("CODEX_HOME") or os.path.join(home, ".codex"))
    elif kind == "chord":
        found = _chord(project_root)
    else:
        from chord_memory.transcripts import reader

        found = reader(kind).discover(project_root, home, env)
    return sorted(set(found))


def belongs(kind: str, path: str, project_root: str) -> bool:
    """Whether the transcript at ``path`` is a session of ``project_root`` (for globs).

    A Claude Code or chord file that names no cwd is taken to belong (its folder
    said so); a Codex rollout must name it, and must not be a sub-agent's.
    """
    if kind == "codex":
        meta = _codex_meta(path)
        if meta is None or _codex_sub_agent(meta):
            return False
        cwd = jsonl.text_of(meta.get("cwd"))
        return cwd is not None and same_dir(cwd, project_root)
    if kind not in ("claude-code", "chord"):
        from chord_memory.transcripts import reader

        return bool(reader(kind).belongs(path, project_root))
    cwd = transcript_cwd(kind, path)
    return cwd is None or same_dir(cwd, project_root)


def transcript_cwd(kind: str, path: str) -> str | None:
    """The project directory a transcript says it ran in, read from its first lines."""
    if kind == "claude-code":
        from chord_memory.transcripts.claude_code import first_cwd

        return first_cwd(path)
    if kind == "codex":
        meta = _codex_meta(path)
        return jsonl.text_of(meta.get("cwd")) if meta is not None else None
    header = jsonl.first_object(path)
    if header is None or header.get("type") != "session":
        return None
    return jsonl.text_of(header.get("cwd"))


def _codex_meta(path: str) -> dict[str, Any] | None:
    """What a rollout says of itself (its session_meta, or an older rollout's header)."""
    from chord_memory.transcripts.codex import meta

    return meta(path)


def _codex_sub_agent(meta: dict[str, Any]) -> bool:
    """A session Codex spawned itself (a sub-agent, a review, a compaction, memory work):
    its "user" messages were written by the parent agent, not by the user."""
    source = meta.get("source")
    internal = isinstance(source, dict) and ("subagent" in source or "internal" in source)
    return internal or meta.get("thread_source") == "subagent"


def claude_code_project_dir(
    project_root: str, home: str, *, claude_config_dir: str | None = None
) -> str:
    """The folder Claude Code keeps this project's sessions in."""
    base = claude_config_dir or os.path.join(home, ".claude")
    return os.path.join(base, "projects", encode_claude_code(os.path.realpath(project_root)))


def encode_claude_code(path: str) -> str:
    """Claude Code's folder name for a cwd: each non-alphanumeric UTF-16 unit is '-'.

    Past 200 characters it keeps 200 and appends '-' and a base-36 hash of the
    path. That hash has differed between releases, so ``discover`` matches long
    names by their first 200 characters and the cwd inside the files instead.
    """
    encoded = "".join(c if c in _ALNUM else "--" if ord(c) > 0xFFFF else "-" for c in path)
    if len(encoded) <= _MAX_ENCODED:
        return encoded
    return f"{encoded[:_MAX_ENCODED]}-{_base36(abs(_js_hash(path)))}"


def _claude_code(project_root: str, home: str, config_dir: str | None) -> Iterator[str]:
    base = os.path.join(config_dir or os.path.join(home, ".claude"), "projects")
    for folder in _claude_code_folders(base, project_root):
        for path in glob.glob(os.path.join(glob.escape(folder), "*.jsonl")):
            name = os.path.basename(path)
            regular = os.path.isfile(path)  # a FIFO named *.jsonl must not hang a run
            if regular and not name.startswith("agent-") and belongs("claude-code", path, project_root):
                yield path


def _claude_code_folders(base: str, project_root: str) -> set[str]:
    """Folders that may hold this project: its name as given and resolved."""
    folders: set[str] = set()
    for root in {os.path.abspath(project_root), os.path.realpath(project_root)}:
        name = encode_claude_code(root)
        if len(name) <= _MAX_ENCODED:
            folders.add(os.path.join(base, name))
        else:
            pattern = glob.escape(os.path.join(base, name[:_MAX_ENCODED])) + "-*"
            folders.update(glob.glob(pattern))
    return {f for f in folders if os.path.isdir(f)}


def _codex(project_root: str, codex_home: str) -> Iterator[str]:
    sessions = os.path.join(codex_home, "sessions")
    for folder, subfolders, names in os.walk(sessions):
        subfolders.sort()
        for name in sorted(names):
            path = os.path.join(folder, name)
            rollout = name.startswith("rollout-") and name.endswith(".jsonl") and os.path.isfile(path)
            if rollout and belongs("codex", path, project_root):
                yield path


def _chord(project_root: str) -> Iterator[str]:
    from chord_memory.paths import state_dir

    state = state_dir(project_root)
    if state is None:
        return
    for path in glob.glob(os.path.join(glob.escape(state), CHORD_SESSIONS, "*.jsonl")):
        if os.path.isfile(path) and belongs("chord", path, project_root):
            yield path


def same_dir(a: str, b: str) -> bool:
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def _js_hash(path: str) -> int:
    """``h = (h << 5) - h + s.charCodeAt(i) | 0`` over the UTF-16 code units of ``path``."""
    units = path.encode("utf-16-le", "surrogatepass")
    h = 0
    for i in range(0, len(units), 2):
        h = (h * 31 + int.from_bytes(units[i : i + 2], "little")) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out
