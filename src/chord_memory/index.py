"""Index entries: the grammar of the lines of the managed region (text in, no files: memory_md.py).

    - <type>: <summary> ([<id>](.chord/memory/records/<id>.md))
"""
from __future__ import annotations

import re

from chord_memory import region
from chord_memory.paths import RECORDS_DIR

TYPE_CHECKING = False  # `typing` stays off a hook's path (structs.py)
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from chord_memory.structs import NamedTuple

TYPES = ("preference", "fact", "workflow", "pitfall", "decision")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{2,79}$")
# One valid entry line, checked in C over a whole region: the fast path for large
# indexes. A line it rejects goes through parse_entry to say where and why.
_VALID_LINE = re.compile(
    rf"[ \t]*- (?:{'|'.join(TYPES)}): [^\n]*?\S "
    rf"\(\[([a-z0-9][a-z0-9-]{{2,79}})\]\({re.escape(RECORDS_DIR)}/\1\.md\)\)[ \t\r]*"
)
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
        from chord_memory.findings import quoted

        return region.Problem(
            "CM104", line, f"unknown entry type {quoted(type_)}; expected one of {', '.join(TYPES)}",
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


def entry_lines(text: str, bom: bool = False) -> tuple[list[str], list[region.Problem]]:
    """The region's entries as they stand in MEMORY.md (stripped), for the summary.

    Valid bodies are recognised in one regular-expression match, so a summary of
    a 10,000-entry index does not pay for 10,000 parsed entries it will not show.
    """
    reg = region.parse(text, bom)
    lines = [line.strip() for line in reg.body if not line.isspace()]
    if reg.usable and all(map(_VALID_LINE.fullmatch, lines)):
        return lines, []
    idx = parse(text, bom)
    return [e.render() for e in idx.entries], idx.problems


def line_id(line: str) -> str:
    """The record id of a valid entry line."""
    return line[line.rindex("([") + 2: line.rindex("](")]


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


def parse_bytes(data: bytes) -> Index:
    """Parse MEMORY.md's bytes; raises UnicodeDecodeError or ValueError when it is not text."""
    bom, text = region.decode(data)
    return parse(text, bom)


NOT_TEXT = "MEMORY.md is not UTF-8 text"


def reason(problem: region.Problem) -> str:
    """A region problem as the one line every command prints."""
    return f"MEMORY.md:{problem.line}: {problem.code} {problem.message}"


def read(data: bytes) -> tuple[Index | None, str]:
    """MEMORY.md's bytes as a usable index, or None and the one-line reason it is unusable."""
    try:
        idx = parse_bytes(data)
    except (UnicodeDecodeError, ValueError):
        return None, NOT_TEXT
    if not idx.usable:
        return None, reason(idx.problems[0])
    return idx, ""


def render(idx: Index, entries: list[Entry]) -> bytes:
    return region.render(idx.region, [e.render() for e in entries])
