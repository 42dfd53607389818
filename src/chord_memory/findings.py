"""Findings and the one table of finding codes.

Every code is stable: scripts and CI configurations match on it. A new check
adds a row here (and a section in docs/checks.md); the README test fails when
a code is missing from the docs.
"""
from __future__ import annotations

from typing import NamedTuple

ERROR = "error"
WARNING = "warning"


class Code(NamedTuple):
    severity: str
    name: str
    title: str


CODES: dict[str, Code] = {
    # MEMORY.md and its managed region
    "CM101": Code(ERROR, "region-missing-end", "begin marker without an end marker"),
    "CM102": Code(ERROR, "region-missing-begin", "end marker without a begin marker"),
    "CM103": Code(ERROR, "region-duplicate-begin", "more than one begin marker"),
    "CM104": Code(ERROR, "entry-malformed", "a line in the region is not an index entry"),
    "CM105": Code(ERROR, "file-unreadable", "a memory file is binary, not UTF-8, too large, or unreadable"),
    # Index entries
    "CM201": Code(ERROR, "entry-missing-record", "an entry points to a record that does not exist"),
    "CM202": Code(ERROR, "entry-bad-link", "an entry's link leaves the records folder or has a bad id"),
    "CM203": Code(ERROR, "entry-duplicate", "the same record is indexed twice"),
    "CM204": Code(WARNING, "entry-type-mismatch", "an entry's type differs from its record's type"),
    "CM205": Code(WARNING, "record-orphan", "a record that no entry points to"),
    # Record files
    "CM301": Code(ERROR, "record-front-matter", "a record's front matter is missing or invalid"),
    "CM302": Code(ERROR, "record-bad-name", "a record file name is not a valid id or differs from its id"),
    "CM303": Code(ERROR, "record-summary-too-long", "a record's summary is past the limit"),
    "CM304": Code(ERROR, "record-statement-too-long", "a record's Conclusion is past the limit"),
    "CM305": Code(ERROR, "record-too-large", "a record file is past the byte limit"),
    "CM306": Code(ERROR, "record-assistant-verified", "an assistant record is marked verified"),
    "CM307": Code(ERROR, "record-changed", "a record differs from the version first committed"),
    "CM308": Code(ERROR, "record-body", "a record's body has no Conclusion section"),
    "CM309": Code(ERROR, "record-symlink", "a memory file is a symbolic link"),
    # Durable text
    "CM401": Code(WARNING, "text-absolute-path", "an absolute machine path in durable text"),
    "CM402": Code(WARNING, "text-commit-sha", "a 40-hex commit SHA in durable text"),
    "CM403": Code(WARNING, "text-hostname", "a hostname or IP address in durable text"),
    "CM404": Code(WARNING, "record-stale-path", "a record names a project path that no longer exists"),
    # Budget
    "CM501": Code(WARNING, "index-over-budget", "the index does not fit the injection budget"),
    # Secrets
    "CM601": Code(ERROR, "secret", "a secret in a memory file"),
}


class Finding(NamedTuple):
    path: str
    line: int
    code: str
    message: str
    column: int = 1
    end_line: int | None = None
    end_column: int | None = None
    kind: str | None = None

    @property
    def severity(self) -> str:
        return CODES[self.code].severity

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.code)


def worst_exit(findings: list[Finding]) -> int:
    """0 when no finding is an error, 1 otherwise."""
    return 1 if any(f.severity == ERROR for f in findings) else 0


def quoted(value: object, limit: int = 40) -> str:
    """A value from the user's file, as a finding's message shows it: scrubbed of secrets first
    (a token pasted as a `type:` or into a path is still a token), then cut to `limit` characters.

    Only findings call it, so the scrubber is imported only when something is wrong.
    """
    from chord_memory.secrets import scrub

    text = scrub(str(value)[:4096])[0]
    return repr(text if len(text) <= limit else text[:limit - 3] + "...")

