"""Promotion suggestions (`.chord/memory/promotions/<id>.md`): list, accept, reject.

A suggestion says that an indexed record belongs in AGENTS.md, a skill or the
docs. Nothing here edits those files: moving the draft is the user's act.

- accept: the entry leaves the index (docs/recall.md: `source: user` entries
  stay indexed until their suggestion is accepted) and the suggestion file is
  deleted; its draft is printed so it is not lost.
- reject: the suggestion file is deleted. If extraction had taken the entry
  out of the index for the suggestion, it goes back on top: rejecting says
  "this stays memory".
"""
from __future__ import annotations

import os
import re
from typing import NamedTuple

from chord_memory import atomic, index, paths
from chord_memory.errors import UserError
from chord_memory.index import valid_id
from chord_memory.learnings import read_file

TARGETS = ("AGENTS.md", "skill", "docs")


class Suggestion(NamedTuple):
    id: str
    target: str
    path: str | None
    created: str
    reason: str
    draft: str

    @property
    def where(self) -> str:
        return self.target if not self.path else f"{self.target} ({self.path})"


def file_path(root: str, record_id: str) -> str:
    return os.path.join(root, paths.PROMOTIONS_DIR, f"{record_id}.md")


def parse(data: bytes, record_id: str) -> Suggestion:
    from chord_memory import yamlsafe

    rel = f"{paths.PROMOTIONS_DIR}/{record_id}.md"
    text = data.decode("utf-8", "replace").replace("\r\n", "\n")
    m = re.match(r"---\n(.*?)\n---\n(.*)\Z", text, re.S)
    try:
        meta = yamlsafe.load(m.group(1), max_bytes=16384, max_nodes=200) if m else None
    except (yamlsafe.YamlError, RecursionError):
        meta = None
    if not isinstance(meta, dict) or m is None:
        raise UserError(f"{rel}: not a promotion suggestion (front matter missing or invalid); "
                        "fix or delete it", 1)
    body = m.group(2)
    draft = body.split("## Draft\n", 1)[1].strip() if "## Draft\n" in body else body.strip()
    path = meta.get("path")
    return Suggestion(record_id, str(meta.get("target", "?")), str(path) if path else None,
                      str(meta.get("created", "")), str(meta.get("reason", "")), draft)


def inside(target: str, path: str | None) -> bool:
    """A known target and, if any, a project-relative path that stays in the project.

    We never write to it, but list and accept must not suggest a place outside.
    """
    if target not in TARGETS:
        return False
    if path is None:
        return True
    parts = path.replace("\\", "/").split("/")
    return not (path.startswith(("/", "~", "\\")) or re.match(r"^[A-Za-z]:", path) or ".." in parts
                or any(ord(c) < 32 for c in path))


def checked(sug: Suggestion) -> Suggestion:
    """The suggestion, if its target is one list and accept may show; else UserError (exit 1)."""
    if not inside(sug.target, sug.path):
        raise UserError(f"{paths.PROMOTIONS_DIR}/{sug.id}.md: the target must be {', '.join(TARGETS)} "
                        "with a project-relative `path` inside the project; fix it, or "
                        f"`chord-memory promotions reject {sug.id}` drops it", 1)
    return sug


def load_all(root: str) -> list[Suggestion]:
    folder = os.path.join(root, paths.PROMOTIONS_DIR)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    out = []
    for name in names:
        if name.endswith(".md") and valid_id(name[:-3]):
            data = read_file(os.path.join(folder, name), f"{paths.PROMOTIONS_DIR}/{name}")
            if data is not None:
                out.append(checked(parse(data, name[:-3])))
    return out


def load(root: str, record_id: str) -> Suggestion:
    rel = f"{paths.PROMOTIONS_DIR}/{record_id}.md"
    data = read_file(file_path(root, record_id), rel) if valid_id(record_id) else None
    if data is None:
        raise UserError(f"no promotion suggestion {record_id!r}; `chord-memory promotions list` shows them")
    return parse(data, record_id)


def _read(root: str, rel: str) -> bytes | None:
    """A memory file read for context (MEMORY.md, a record): an OSError becomes one line."""
    try:
        return atomic.read_or_none(os.path.join(root, rel))
    except OSError as e:
        raise UserError(f"{rel}: {e.strerror or 'unreadable'}; fix or remove it", 1) from None


def indexed(root: str) -> list[str]:
    from chord_memory import memory_md

    try:
        return memory_md.ids(root)
    except memory_md.Unusable:
        return []


def accept(root: str, record_id: str) -> Suggestion:
    from chord_memory import memory_md

    sug = checked(load(root, record_id))
    if record_id in indexed(root):
        memory_md.update(root, [memory_md.Remove(record_id)])
    os.unlink(file_path(root, record_id))
    return sug


def reject(root: str, record_id: str) -> tuple[Suggestion, bool]:
    """(the suggestion, whether its entry went back into the index)."""
    sug = load(root, record_id)
    restored = False
    if record_id not in indexed(root):
        entry = _entry(root, record_id)
        if entry is not None:
            from chord_memory import memory_md

            restored = memory_md.update(root, [memory_md.Add(entry)])
    os.unlink(file_path(root, record_id))
    return sug, restored


def _entry(root: str, record_id: str) -> index.Entry | None:
    """The index entry of a record that loads, or None."""
    from chord_memory import records, settings

    data = _read(root, paths.record_path(record_id))
    if data is None:
        return None
    rec = records.parse(data, record_id, settings.load(root).limits).record
    return index.Entry(rec.type, rec.summary, rec.id, 0) if rec else None
