"""The managed region in MEMORY.md's text: parsed and rendered without touching a byte outside it.

The region starts at a line that is exactly `<!-- chord-memory:begin -->` and
ends at the next line that is exactly `<!-- chord-memory:end -->` (surrounding
spaces and a trailing CR tolerated). Everything else is the user's.
"""
from __future__ import annotations

TYPE_CHECKING = False  # `typing` stays off a hook's path (structs.py)
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from chord_memory.structs import NamedTuple


BEGIN = "<!-- chord-memory:begin -->"
END = "<!-- chord-memory:end -->"
BOM = "\ufeff"
_STRIP = " \t\r\n"


class Problem(NamedTuple):
    code: str
    line: int
    message: str


class Region(NamedTuple):
    """A parsed MEMORY.md. `body` holds the raw lines between the markers."""

    bom: bool
    before: str          # everything up to and including the begin marker line
    body: list[str]      # raw lines inside the region, each with its line ending
    after: str           # the end marker line and everything after it
    first_line: int      # 1-based line number of the first body line
    newline: str
    present: bool        # False: the file has no region (valid; nothing indexed)
    problems: list[Problem]

    @property
    def usable(self) -> bool:
        return not self.problems


def split_lines(text: str) -> list[str]:
    """Lines with their endings; only "\\n" ends a line (never str.splitlines' extras)."""
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def decode(data: bytes) -> tuple[bool, str]:
    """(had_bom, text); raises UnicodeDecodeError or ValueError for binary input."""
    if b"\0" in data:
        raise ValueError("it contains NUL bytes (binary)")
    bom = data.startswith(b"\xef\xbb\xbf")
    return bom, data[3 if bom else 0:].decode("utf-8")


def _marker_lines(text: str, marker: str) -> list[int]:
    """0-based numbers of the lines that are exactly the marker (found without a per-line scan)."""
    out = []
    pos = text.find(marker)
    while pos != -1:
        start = text.rfind("\n", 0, pos) + 1
        end = text.find("\n", pos)
        line = text[start:] if end == -1 else text[start:end]
        if line.strip(_STRIP) == marker:
            out.append(text.count("\n", 0, start))
        pos = text.find(marker, pos + len(marker))
    return out


def parse(text: str, bom: bool = False) -> Region:
    lines = split_lines(text)
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    begins = _marker_lines(text, BEGIN)
    ends = _marker_lines(text, END)
    problems: list[Problem] = []
    if not begins and not ends:
        return Region(bom, text, [], "", len(lines) + 1, newline, False, [])
    if len(begins) > 1:
        problems.append(Problem(
            "CM103", begins[1] + 1,
            f"a second begin marker (the first is on line {begins[0] + 1}); "
            "keep one `<!-- chord-memory:begin -->`",
        ))
    if begins:
        start = begins[0]
        closing = [i for i in ends if i > start]
        stray = [i for i in ends if i < start] + closing[1:]
        if not closing:
            problems.append(Problem(
                "CM101", start + 1,
                "begin marker without an end marker; add `<!-- chord-memory:end -->` after the entries",
            ))
    else:
        start, closing, stray = -1, [], ends
    problems.extend(
        Problem("CM102", i + 1, "end marker without a begin marker before it; remove it or add "
                "`<!-- chord-memory:begin -->` above the entries")
        for i in stray
    )
    if problems:
        problems.sort(key=lambda p: p.line)
        return Region(bom, text, [], "", 1, newline, True, problems)
    stop = closing[0]
    return Region(
        bom,
        "".join(lines[: start + 1]),
        lines[start + 1: stop],
        "".join(lines[stop:]),
        start + 2,
        lines[start][len(lines[start].rstrip("\r\n")):] or newline,
        True,
        [],
    )


def render(region: Region, body_lines: list[str]) -> bytes:
    """MEMORY.md with the region's body replaced by body_lines (without line endings).

    A file without a region gets one appended at its end.
    """
    nl = region.newline
    body = "".join(line + nl for line in body_lines)
    if region.present:
        text = region.before + body + region.after
    else:
        text = region.before
        if text and not text.endswith("\n"):
            text += nl
        if text.strip() and not text.endswith("\n\n") and not text.endswith("\r\n\r\n"):
            text += nl
        text += BEGIN + nl + body + END + nl
    return ((BOM if region.bom else "") + text).encode("utf-8")
