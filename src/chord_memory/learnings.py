"""Learnings (docs/recall.md): lessons seen in sessions, counted per distinct session.

One JSON file a learning, `.chord/memory/learnings/<key>.json`, reviewed in
git diffs like every memory file:

    {"key": "run-unit-tests-before-push",
     "lesson": "Run the unit tests before pushing; CI only runs the integration suite.",
     "status": "open",                      # open | promoted | rejected | revoked
     "record": null,                        # the decision record's id once promoted
     "sightings": [{"session": "claude-code:7f2c…", "at": "2026-11-29T23:50:00Z"}],
     "actions": [{"action": "promote", "by": "human", "at": "…", "record": "…"}]}

A session is counted once however often it repeats the lesson. Every change
of status is appended to `actions` with who did it (`human` or `auto`) and
when; nothing is ever removed from the file. Files are written atomically and
by compare-and-swap, so extraction and a person can act at the same time.
"""
from __future__ import annotations

import errno
import json
import os
import time
from collections.abc import Callable
from typing import NamedTuple

from chord_memory import atomic, paths
from chord_memory.errors import UserError
from chord_memory.index import valid_id

STATUSES = ("open", "promoted", "rejected", "revoked")
ATTEMPTS = 8
# Far above any learning or suggestion (thousands of sightings), far below what hurts to parse.
MAX_BYTES = 1 << 20


class Learning(NamedTuple):
    key: str
    lesson: str
    status: str
    record: str | None
    sightings: list[dict[str, str]]
    actions: list[dict[str, str]]

    @property
    def sessions(self) -> int:
        return len({s["session"] for s in self.sightings})

    def to_json(self) -> bytes:
        return (json.dumps(self._asdict(), ensure_ascii=False, indent=2) + "\n").encode()

    def scrubbed(self) -> Learning:
        """The learning with secrets scrubbed from every text: a hand edit may have put one in."""
        from chord_memory.secrets import scrub

        def clean(d: dict[str, str]) -> dict[str, str]:
            return {k: scrub(v)[0] for k, v in d.items()}

        return self._replace(lesson=scrub(self.lesson)[0], sightings=[clean(s) for s in self.sightings],
                             actions=[clean(a) for a in self.actions])


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def path(root: str, key: str) -> str:
    return os.path.join(root, paths.LEARNINGS_DIR, f"{key}.json")


def read_file(full: str, rel: str) -> bytes | None:
    """A learning or suggestion file's bytes, None when missing; else UserError (exit 1) naming it.

    A symbolic link is not followed (it could lead out of the project), and
    read_or_none refuses directories, FIFOs, devices and oversized files, so a
    bad file is one line, never a hang or a traceback. Shared with promotions.py.
    """
    root = full[:len(full) - len(rel)] if full.endswith(rel) else ""
    try:
        if os.path.islink(full):
            raise OSError(errno.ELOOP, "a symbolic link, not followed (it could lead out of the project)")
        if root and os.path.lexists(full) and not paths.inside(root, full):
            raise OSError(errno.ELOOP, "behind a folder that links out of the project; not followed")
        return atomic.read_or_none(full, MAX_BYTES)
    except OSError as e:
        raise UserError(f"{rel}: {e.strerror or 'unreadable'}; replace it with a file or delete it", 1) \
            from None


def parse(data: bytes, key: str) -> Learning:
    """A learning file; raises UserError naming the file when it is not one."""
    rel = f"{paths.LEARNINGS_DIR}/{key}.json"
    try:
        raw = json.loads(data.decode("utf-8"))
        learning = Learning(
            str(raw["key"]), str(raw["lesson"]), str(raw["status"]), raw.get("record"),
            [{"session": str(s["session"]), "at": str(s["at"])} for s in raw["sightings"]],
            [{str(k): str(v) for k, v in a.items()} for a in raw.get("actions", [])],
        )
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise UserError(f"{rel}: not a learning file (see docs/recall.md); fix or delete it", 1) from None
    if learning.key != key or learning.status not in STATUSES:
        raise UserError(f"{rel}: `key` must be {key!r} and `status` one of {', '.join(STATUSES)}", 1)
    if learning.record is not None and not (isinstance(learning.record, str) and valid_id(learning.record)):
        raise UserError(f"{rel}: `record` must be null or a record id; fix or delete it", 1)
    return learning


def load(root: str, key: str) -> Learning | None:
    data = read_file(path(root, key), f"{paths.LEARNINGS_DIR}/{key}.json")
    return parse(data, key) if data is not None else None


def load_all(root: str) -> list[Learning]:
    folder = os.path.join(root, paths.LEARNINGS_DIR)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    keys = [n[:-5] for n in names if n.endswith(".json") and valid_id(n[:-5])]
    return [got for got in (load(root, k) for k in keys) if got is not None]


def change(root: str, key: str, edit: Callable[[Learning | None], Learning | None]) -> Learning | None:
    """Read, edit and write one learning by compare-and-swap; None from edit writes nothing."""
    full = path(root, key)
    for _ in range(ATTEMPTS):
        data = read_file(full, f"{paths.LEARNINGS_DIR}/{key}.json")
        new = edit(parse(data, key) if data is not None else None)
        if new is None:
            return None
        new = new.scrubbed()
        try:
            atomic.write_if_unchanged(full, data, new.to_json())
            return new
        except atomic.Changed:
            continue
    raise UserError(f"{paths.LEARNINGS_DIR}/{key}.json kept changing; try again")


def act(learning: Learning, action: str, by: str, status: str, **extra: str) -> Learning:
    """The learning with a new status and the action appended to its log."""
    entry = {"action": action, "by": by, "at": now(), **extra}
    return learning._replace(status=status, actions=[*learning.actions, entry])


def record_sightings(root: str, origin: str, learnings: list[dict[str, str]],
                     at: str | None = None) -> list[str]:
    """Count one sighting of each lesson for the session `origin`; the keys that gained one.

    The extraction pipeline calls this after a session is applied. A session
    already counted for a key is not counted again. Lesson text is scrubbed of
    secrets before it is written; the first wording of a key is kept.
    """
    from chord_memory.secrets import scrub

    stamp = at or now()
    gained: list[str] = []
    for item in learnings:
        key, lesson = str(item.get("key", "")), " ".join(str(item.get("lesson", "")).split())
        if not valid_id(key) or not lesson:
            continue

        def edit(old: Learning | None, key: str = key, lesson: str = lesson) -> Learning | None:
            if old is None:
                old = Learning(key, scrub(lesson)[0], "open", None, [], [])
            if any(s["session"] == origin for s in old.sightings):
                return None
            return old._replace(sightings=[*old.sightings, {"session": origin, "at": stamp}])

        if change(root, key, edit) is not None:
            gained.append(key)
    return gained


def ready(all_learnings: list[Learning], min_sightings: int) -> list[Learning]:
    """Open learnings seen in enough distinct sessions: most sessions first, then oldest."""
    found = [lr for lr in all_learnings if lr.status == "open" and lr.sessions >= min_sightings]
    return sorted(found, key=lambda lr: (-lr.sessions, min(s["at"] for s in lr.sightings), lr.key))


def find(root: str, ident: str) -> Learning:
    """A learning by its key, or the learning whose promoted decision has this record id."""
    if valid_id(ident):
        got = load(root, ident)
        if got is not None:
            return got
        for lr in load_all(root):
            if lr.record == ident:
                return lr
    raise UserError(f"no learning or promoted decision {ident!r}; `chord-memory learnings list` shows them")

