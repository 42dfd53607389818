"""Durable text: no absolute machine path, commit SHA or hostname (warnings).

A single session's layout does not belong in memory that outlives it.
"""
from __future__ import annotations

import re

from chord_memory.findings import Finding, quoted

_TOP = (
    "home|Users|root|tmp|var|etc|opt|usr|mnt|srv|private|Volumes|workspace|work|nix|snap|data"
)
_INTERNAL = ("local", "internal", "lan", "corp", "intranet", "localdomain", "home.arpa")
# (code, hint, pattern, message): the hint is a cheap test that must pass before the
# pattern runs at all; most text has no absolute path, hex run or internal host in it.
_RULES = (
    ("CM401", re.compile(rf"/(?:{_TOP})/").search,
     re.compile(rf"(?<![\w/.:~-])/(?:{_TOP})/[^\s`'\")\]>]+"),
     "absolute machine path {}; use a project-relative path"),
    ("CM401", re.compile(r":\\").search,
     re.compile(r"(?<![\w/])[A-Za-z]:\\[^\s`'\")\]>]+"),
     "absolute machine path {}; use a project-relative path"),
    ("CM402", re.compile(r"[0-9a-f]{40}").search,
     re.compile(r"(?<![0-9a-fA-F])[0-9a-f]{40}(?![0-9a-fA-F])"),
     "commit SHA {}; a single commit does not belong in durable memory"),
    ("CM403", re.compile(rf"\.(?:{'|'.join(re.escape(t) for t in _INTERNAL)})\b", re.IGNORECASE).search,
     re.compile(rf"(?<![\w.-])(?:[a-z0-9-]+\.)+(?:{'|'.join(re.escape(t) for t in _INTERNAL)})"
                r"(?![\w-])", re.IGNORECASE),
     "hostname {}; a machine's name does not belong in durable memory"),
    ("CM403", re.compile(r"\d\.\d+\.\d+\.\d").search,
     re.compile(
         r"(?<![\w.])(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}(?![\w.])"),
     "IP address {}; a machine's address does not belong in durable memory"),
)
_LOOPBACK = ("127.0.0.1", "0.0.0.0")


def scan(path: str, text: str, first_line: int = 1) -> list[Finding]:
    """Findings in text, whose first line is line `first_line` of the file."""
    out: list[Finding] = []
    for code, hint, pattern, message in _RULES:
        if not hint(text):
            continue
        for m in pattern.finditer(text):
            value = m.group(0)
            if value in _LOOPBACK:
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            line = first_line + text.count("\n", 0, line_start)
            out.append(Finding(path, line, code, message.format(quoted(value, 60)),
                               m.start() - line_start + 1, line, m.end() - line_start + 1))
    return out
