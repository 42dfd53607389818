"""Index entries: the lines of the managed region.

    - <type>: <summary> ([<id>](.chord/memory/records/<id>.md))
"""
from __future__ import annotations

import re
from typing import NamedTuple

from chord_memory import region
from chord_memory.paths import RECORDS_DIR

TYPES = ("preference", "fact", "workflow", "pitfall", "decision")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{2,79}$")
_ENTRY = re.compile(r"^- ([A-Za-z-]+): (.*\S) \(\[([^\]\n]*)\]\(([^)\n]*)\)\)$")


class Entry(NamedTuple):
    type: str
    summary: str
    id: str
    line: int  # 1-based line in MEMORY.md (0 for an entry not yet written)

    def render(self) -> str:
        return f"- {self.type}: {self.summary} ([{self.id}]({RECORDS_DIR}/{self.id}.md))"


class Index(NamedTuple):
    region: region.Region
    entries: list[Entry]
    problems: list[region.Problem]

    @property
    def usable(self) -> bool:
        return not self.problems


def valid_id(value: str) -> bool:
    return bool(ID_RE.match(value))


def parse_entry(raw: str, line: int) -> Entry | region.Problem:
    text = raw.strip(" \t\r\n")
    m = _ENTRY.match(text)
    if not m:
        return region.Problem(
            "CM104", line,
            "not an index entry; expected `- <type>: <summary> ([<id>](.chord/memory/records/<id>.md))`",
        )
    type_, summary, label, target = m.groups()
    if type_ not in TYPES:
        return region.Problem(
            "CM104", line, f"unknown entry type {type_!r}; expected one of {', '.join(TYPES)}",
        )
    prefix = RECORDS_DIR + "/"
    if not (target.startswith(prefix) and target.endswith(".md")):
        return region.Problem(
            "CM202", line,
            f"the link must point into {prefix} as `{prefix}<id>.md`",
        )
    record_id = target[len(prefix):-3]
    if not valid_id(record_id):
        return region.Problem(
            "CM202", line,
            "the link names an invalid record id (lower-case letters, digits and '-', 3 to 80)",
        )
    if label != record_id:
        return region.Problem("CM202", line, f"the link text [{label}] differs from the id in the link")
    return Entry(type_, summary, record_id, line)


def parse(text: str, bom: bool = False) -> Index:
    reg = region.parse(text, bom)
    entries: list[Entry] = []
    problems = list(reg.problems)
    for offset, raw in enumerate(reg.body):
        if not raw.strip():
            continue
        got = parse_entry(raw, reg.first_line + offset)
        if isinstance(got, Entry):
            entries.append(got)
        else:
            problems.append(got)
    return Index(reg, entries, problems)


def render(idx: Index, entries: list[Entry]) -> bytes:
    return region.render(idx.region, [e.render() for e in entries])
