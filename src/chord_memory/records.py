"""Record files: YAML front matter (safe loader, bounded) and three Markdown sections.

A record is read-only input once written. `parse` never raises for bad input:
it returns the problems it found, each with a finding code and a line.
"""
from __future__ import annotations

from chord_memory import defaults as D
from chord_memory.index import TYPES, valid_id
from chord_memory.region import Problem, decode, split_lines

TYPE_CHECKING = False  # `typing` stays off a hook's path (structs.py)
if TYPE_CHECKING:
    from typing import Any, NamedTuple
else:
    from chord_memory.structs import NamedTuple

SOURCES = ("user", "required", "assistant")
STATUSES = ("stated", "verified", "inferred")
ACTORS = ("auto", "human")
FIELDS = ("id", "type", "source", "status", "actor", "created", "session", "supersedes", "summary")
REQUIRED = ("id", "type", "source", "status", "actor", "created", "summary")
SECTIONS = {"conclusion": "conclusion", "why": "why", "how to apply": "how"}
MAX_READ = 1 << 20  # a record larger than this is not even read: it is over any sane limit


class Limits(NamedTuple):
    summary_chars: int = D.SUMMARY_CHARS
    statement_chars: int = D.STATEMENT_CHARS
    record_bytes: int = D.RECORD_BYTES


DEFAULT_LIMITS = Limits()


class Record(NamedTuple):
    id: str
    type: str
    source: str
    status: str
    actor: str
    created: str
    session: str | None
    supersedes: str | None
    summary: str
    conclusion: str
    why: str
    how: str

    @property
    def text(self) -> str:
        """All durable text of the record (what recall searches and budgets count)."""
        return "\n".join((self.summary, self.conclusion, self.why, self.how))


class Parsed(NamedTuple):
    record: Record | None  # None when the record does not load
    problems: list[Problem]
    body_line: int         # 1-based line where the body starts (for text findings)


def _front_matter(lines: list[str]) -> tuple[str, int] | Problem:
    if not lines or lines[0].rstrip("\r\n") != "---":
        return Problem("CM301", 1, "no front matter; a record starts with a `---` line")
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r\n") == "---":
            return "".join(lines[1:i]), i + 1
    return Problem("CM301", 1, "the front matter has no closing `---` line")


def _dates() -> tuple[type, ...]:
    import datetime  # only when a record is parsed: the summary's warm path never needs it

    return (datetime.datetime, datetime.date)


def _field_problems(data: dict[str, Any], name: str) -> list[tuple[str, object, str]]:
    """(code, the key it is about, message) for each problem of the front matter's fields."""
    from chord_memory.findings import quoted  # not at the top: the summary imports this module
    dates = _dates()
    out: list[tuple[str, object, str]] = []
    for key in data:
        if key not in FIELDS:
            out.append(("CM301", key, f"unknown front-matter key {quoted(key)}"))
    for key in REQUIRED:
        if data.get(key) in (None, ""):
            out.append(("CM301", None, f"missing front-matter key `{key}`"))
    for key, allowed in (("type", TYPES), ("source", SOURCES), ("status", STATUSES), ("actor", ACTORS)):
        value = data.get(key)
        if value is not None and value not in allowed:
            out.append(("CM301", key, f"`{key}` is {quoted(value)}; expected one of {', '.join(allowed)}"))
    for key in ("summary", "session", "supersedes"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            out.append(("CM301", key, f"`{key}` must be a string"))
    created = data.get("created")
    if created is not None and not isinstance(created, (str, *dates)):
        out.append(("CM301", "created", "`created` must be a timestamp such as 2026-11-29T23:50:00Z"))
    record_id = data.get("id")
    if record_id is not None and (not isinstance(record_id, str) or not valid_id(record_id)):
        out.append(("CM302", "id", "`id` is not a valid id (lower-case letters, digits and '-', 3 to 80)"))
    elif record_id is not None and record_id != name:
        out.append(("CM302", "id", f"`id` {quoted(record_id, 90)} differs from the file name {name!r}"))
    sup = data.get("supersedes")
    if isinstance(sup, str) and not valid_id(sup):
        out.append(("CM301", "supersedes", "`supersedes` is not a valid record id"))
    return out


def _line_of(lines: list[str], end: int, key: object) -> int:
    """The 1-based line of `key:` in the front matter (lines 2 to end - 1), else its first line."""
    if isinstance(key, str):
        for i in range(1, end - 1):
            if lines[i].startswith(f"{key}:"):
                return i + 1
    return 2


def _sections(lines: list[str]) -> dict[str, str]:
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("## "):
            key = SECTIONS.get(stripped[3:].strip().lower())
            current = found.setdefault(key, []) if key else None
            continue
        if current is not None:
            current.append(line.rstrip("\r\n"))
    return {key: "\n".join(body).strip() for key, body in found.items()}


def parse(data: bytes, name: str, limits: Limits = DEFAULT_LIMITS) -> Parsed:
    """Parse one record file. `name` is the file name without `.md`."""
    from chord_memory import yamlsafe

    problems: list[Problem] = []
    if len(data) > limits.record_bytes:
        problems.append(Problem(
            "CM305", 1, f"the file is {len(data)} bytes; the limit is {limits.record_bytes} "
            "(memory.limits.record_bytes); supersede it with a shorter record",
        ))
        if len(data) > MAX_READ:
            return Parsed(None, problems, 1)
    try:
        _, text = decode(data)
    except (UnicodeDecodeError, ValueError) as e:
        reason = e.reason if isinstance(e, UnicodeDecodeError) else str(e)
        problems.append(Problem("CM105", 1, f"the record is not UTF-8 text ({reason})"))
        return Parsed(None, problems, 1)
    lines = split_lines(text)
    fm = _front_matter(lines)
    if isinstance(fm, Problem):
        return Parsed(None, [*problems, fm], 1)
    fm_text, body_start = fm
    try:
        meta = yamlsafe.load(fm_text, max_bytes=16384, max_nodes=200)
    except yamlsafe.YamlError as e:
        return Parsed(None, [*problems, Problem("CM301", e.line + 1, f"front matter: {e}")], body_start)
    if not isinstance(meta, dict):
        return Parsed(None, [*problems, Problem("CM301", 2, "front matter must be a mapping")], body_start)
    problems.extend(Problem(code, _line_of(lines, body_start, key), msg)
                    for code, key, msg in _field_problems(meta, name))
    sections = _sections(lines[body_start:])
    conclusion = sections.get("conclusion", "")
    if not conclusion:
        problems.append(Problem("CM308", body_start + 1, "no `## Conclusion` section with text"))
    summary = meta.get("summary")
    if isinstance(summary, str):
        if "\n" in summary.strip():
            problems.append(Problem("CM303", _line_of(lines, body_start, "summary"),
                                    "the summary must be one line"))
        elif len(summary) > limits.summary_chars:
            problems.append(Problem(
                "CM303", _line_of(lines, body_start, "summary"), f"the summary is {len(summary)} "
                f"characters; the limit is {limits.summary_chars} (memory.limits.summary_chars)",
            ))
    if len(conclusion) > limits.statement_chars:
        problems.append(Problem(
            "CM304", body_start + 1, f"the Conclusion is {len(conclusion)} characters; the limit is "
            f"{limits.statement_chars} (memory.limits.statement_chars)",
        ))
    if meta.get("source") == "assistant" and meta.get("status") == "verified":
        problems.append(Problem(
            "CM306", _line_of(lines, body_start, "status"),
            "an assistant record cannot be `verified`; use `stated` or `inferred`",
        ))
    if problems:
        return Parsed(None, problems, body_start)
    created = meta["created"]
    if not isinstance(created, str):  # YAML read an unquoted timestamp as a date or datetime
        created = created.isoformat().replace("+00:00", "Z")
    record = Record(
        meta["id"], meta["type"], meta["source"], meta["status"], meta["actor"], str(created),
        meta.get("session"), meta.get("supersedes"), meta["summary"].strip(), conclusion,
        sections.get("why", ""), sections.get("how", ""),
    )
    return Parsed(record, [], body_start)


def render(record: Record) -> str:
    """The text of a new record file (LF line endings; front matter as plain scalars)."""
    import yaml

    meta = {key: getattr(record, key) for key in FIELDS}
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=1000)
    body = f"## Conclusion\n{record.conclusion}\n"
    if record.why:
        body += f"\n## Why\n{record.why}\n"
    if record.how:
        body += f"\n## How to apply\n{record.how}\n"
    return f"---\n{front}---\n{body}"
