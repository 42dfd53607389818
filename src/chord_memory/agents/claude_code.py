"""Our hooks in Claude Code's settings: merged in by `install --agent claude-code`, taken out by
`uninstall --agent claude-code`.

Claude Code reads hooks from `.claude/settings.json` (committed: the team's) and
`.claude/settings.local.json` (one person's), in this shape:

    {"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [
        {"type": "command", "command": "…", "timeout": 10}]}]},
     "statusLine": {"type": "command", "command": "…"}}

Each of our hooks is one matcher group of its own, appended to its event's list; a hook of
ours is recognised by its command, which is always a plain `chord-memory …` (on PATH, never a
machine path: the file is shared). Everything else in the file is the user's and is kept,
in its order. A file that already holds our hooks is not written at all, so a second install
changes no byte. The statusLine is ours only when install found none. The file is written
through userfile.update (an editor may be saving it right now). A file install creates is
noted in the state folder (`<git-common-dir>/chord-memory/created`), and uninstall removes it
when nothing but our entries is left in it; a file that was there before install (even `{}`)
stays, with what it held.
"""
from __future__ import annotations

import contextlib
import json
import os
from typing import Any, NamedTuple

from chord_memory.errors import UserError

SETTINGS = ".claude/settings.json"
LOCAL_SETTINGS = ".claude/settings.local.json"


class Hook(NamedTuple):
    event: str
    matcher: str | None  # None: the event takes no matcher
    command: str
    timeout: int  # seconds; Claude Code cancels the command after it

    def group(self) -> dict[str, Any]:
        hook = {"type": "command", "command": self.command, "timeout": self.timeout}
        return {"hooks": [hook]} if self.matcher is None else {"matcher": self.matcher, "hooks": [hook]}


HOOKS = (
    Hook("SessionStart", "startup|resume|clear|compact", "chord-memory summary --format claude-code", 10),
    Hook("UserPromptSubmit", None, "chord-memory recall --format claude-code", 5),
    Hook("SessionEnd", None, "chord-memory hook session-end", 5),
)
STATUS_LINE = {"type": "command", "command": "chord-memory status --short"}


def settings_path(local: bool) -> str:
    return LOCAL_SETTINGS if local else SETTINGS


def parse(data: bytes, where: str) -> dict[str, Any]:
    """The settings object; a UserError saying where when it is not one."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UserError(f"{where}: not UTF-8 text (byte {e.start}); fix it and run the command again "
                        "(nothing was written)") from None
    if not text.strip():
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise UserError(f"{where}:{e.lineno}:{e.colno}: not valid JSON ({e.msg}); fix it and run "
                        "the command again (nothing was written)") from None
    if not isinstance(value, dict):
        raise UserError(f"{where}: holds a JSON {type(value).__name__}, not an object; Claude Code "
                        "settings are one object (nothing was written)")
    _check_shape(value, where)
    return value


def _check_shape(settings: dict[str, Any], where: str) -> None:
    """The parts we walk must have Claude Code's shape, else we would guess at the user's intent."""
    def bad(what: str, should: str) -> UserError:
        return UserError(f"{where}: {what} is not {should} as Claude Code expects; fix it and run the "
                         "command again (nothing was written)")

    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise bad('"hooks"', "an object")
    for ours in HOOKS:
        groups = hooks.get(ours.event, [])
        if not isinstance(groups, list):
            raise bad(f'"hooks"."{ours.event}"', "a list")
        for i, group in enumerate(groups):
            if not isinstance(group, dict) or not isinstance(group.get("hooks", []), list):
                raise bad(f'"hooks"."{ours.event}"[{i}]', 'an object with a "hooks" list')


def _is_ours(hook: object, command: str) -> bool:
    return isinstance(hook, dict) and isinstance(hook.get("command"), str) and \
        hook["command"].strip() == command


def _has(settings: dict[str, Any], ours: Hook) -> bool:
    for group in settings.get("hooks", {}).get(ours.event, []):
        if any(_is_ours(h, ours.command) for h in group.get("hooks", [])):
            return True
    return False


def merged(settings: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """(settings with our hooks, what was added); the input is not changed."""
    out = json.loads(json.dumps(settings))  # a deep copy, in the same key order
    added = []
    for ours in HOOKS:
        if _has(out, ours):
            continue
        out.setdefault("hooks", {}).setdefault(ours.event, []).append(ours.group())
        added.append(f"{ours.event} -> {ours.command}")
    if "statusLine" not in out:
        out["statusLine"] = dict(STATUS_LINE)
        added.append(f"statusLine -> {STATUS_LINE['command']}")
    return out, added


def removed(settings: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """(settings without our hooks, what was removed); a group is dropped only when our hook
    was all it held, an event and "hooks" only when nothing is left in them."""
    out = json.loads(json.dumps(settings))
    gone = []
    hooks = out.get("hooks")
    for ours in HOOKS:
        groups = hooks.get(ours.event) if isinstance(hooks, dict) else None
        if not isinstance(groups, list):
            continue
        kept = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list) or not any(_is_ours(h, ours.command) for h in inner):
                kept.append(group)
                continue
            gone.append(f"{ours.event} -> {ours.command}")
            rest = [h for h in inner if not _is_ours(h, ours.command)]
            if rest:
                kept.append({**group, "hooks": rest})
        if kept:
            hooks[ours.event] = kept
        else:
            del hooks[ours.event]
    if isinstance(hooks, dict) and not hooks:
        del out["hooks"]
    if out.get("statusLine") == STATUS_LINE:
        del out["statusLine"]
        gone.append(f"statusLine -> {STATUS_LINE['command']}")
    return out, gone


def render(settings: dict[str, Any], before: bytes | None) -> bytes:
    """JSON in the indentation the file had (two spaces for a new file), ending in a newline."""
    return (json.dumps(settings, indent=_indent(before), ensure_ascii=False) + "\n").encode()


def _indent(before: bytes | None) -> str:
    for line in (before or b"").decode("utf-8", "replace").splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return lead if len(set(lead)) == 1 else "  "
    return "  "


def install(root: str, local: bool) -> list[str]:
    """Merge our hooks into the settings file; what was done, one line each."""
    from chord_memory import userfile

    rel = settings_path(local)
    path = os.path.join(root, rel)
    said: list[str] = []

    def change(data: bytes | None) -> bytes | None:
        settings = {} if data is None else parse(data, rel)
        new, added = merged(settings)
        said[:] = [f"{rel}: added {what}" for what in added]
        if data is None:
            said.insert(0, f"{rel}: created")
        elif not added:
            said.append(f"{rel}: up to date (the chord-memory hooks are there)")
        if settings.get("statusLine", STATUS_LINE) != STATUS_LINE:
            said.append(f"{rel}: kept your statusLine; add `{STATUS_LINE['command']}` to its "
                        "script to see the memory status (docs/integrations.md)")
        return render(new, data) if added else None

    os.makedirs(os.path.dirname(path), exist_ok=True)
    userfile.update(path, change)
    if said and said[0] == f"{rel}: created":
        _note_created(root, rel, True)
    return said


def _created_path(root: str) -> str | None:
    from chord_memory import paths

    state = paths.state_dir(root)
    return os.path.join(state, "created") if state else None


def _created(root: str) -> set[str]:
    """The settings files install created in this clone (local state, never committed)."""
    path = _created_path(root)
    if path is None:
        return set()
    try:
        with open(path, encoding="utf-8") as f:
            return {line.strip() for line in f if line.strip()}
    except (OSError, UnicodeDecodeError):
        return set()


def _note_created(root: str, rel: str, created: bool) -> None:
    from chord_memory import atomic

    path = _created_path(root)
    if path is None:
        return
    names = (_created(root) | {rel}) if created else (_created(root) - {rel})
    with contextlib.suppress(OSError):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        atomic.write(path, "".join(f"{n}\n" for n in sorted(names)).encode())


def uninstall(root: str, local: bool) -> list[str]:
    """Take our hooks out of the settings file; the file goes when nothing else was in it."""
    from chord_memory import atomic, userfile

    rel = settings_path(local)
    path = os.path.join(root, rel)
    data = atomic.read_or_none(path)
    if data is None:
        return [f"{rel}: not there; nothing to remove"]
    settings, gone = removed(parse(data, rel))
    if not gone:
        return [f"{rel}: holds no chord-memory hooks; nothing to remove"]
    said = [f"{rel}: removed {what}" for what in gone]
    if not settings and rel in _created(root):
        if atomic.read_or_none(path) != data:
            raise UserError(f"{rel}: changed while it was being read; run the command again")
        os.unlink(path)
        _note_created(root, rel, False)
        said.append(f"{rel}: removed the file (install created it, and only chord-memory's "
                    "entries were in it)")
        with contextlib.suppress(OSError):
            os.rmdir(os.path.dirname(path))  # the folder install created, when it is empty
        return said

    def change(current: bytes | None) -> bytes | None:
        if current is None:
            return None
        new, taken = removed(parse(current, rel))
        return render(new, current) if taken else None

    userfile.update(path, change)
    return said

