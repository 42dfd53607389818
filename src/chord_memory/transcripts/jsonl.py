"""Streaming JSONL: one line at a time from a byte offset, never the whole file.

Shared by every reader. A line is parsed only when it ends with ``\\n``; a last
line without one is a write in progress and is left for a later read. Lines
longer than ``MAX_LINE_BYTES`` are skipped while being read, in chunks, so a
giant line never becomes a giant Python object. Bytes that are not UTF-8 are
decoded with replacement (U+FFFD) rather than losing the whole line.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from typing import IO, Any, NamedTuple

from chord_memory.paths import open_regular

MAX_LINE_BYTES = 8 * 1024 * 1024
_CHUNK = 1024 * 1024

# A reader's handler: (1-based line number, parsed object) -> understood?
# False means malformed or of an unknown type: the line is counted as skipped.
Handler = Callable[[int, "dict[str, Any]"], bool]
# A cheap test on the raw bytes of a line: True drops it without parsing.
Prefilter = Callable[[bytes], bool]


class Line(NamedTuple):
    number: int  # 1-based line number in the file
    data: bytes | None  # None: longer than MAX_LINE_BYTES, content discarded
    end: int  # byte offset just past this line
    complete: bool  # ended with b"\n"


class Scan(NamedTuple):
    end_offset: int  # just past the last complete line
    skipped: int  # malformed, oversized, truncated or unknown lines


def iter_lines(f: IO[bytes], offset: int, number: int) -> Iterator[Line]:
    """Yield the lines of ``f`` from its current position, which is ``offset``."""
    while True:
        data = f.readline(MAX_LINE_BYTES + 1)
        if not data:
            return
        end = offset + len(data)
        if data.endswith(b"\n"):
            yield Line(number, data, end, True)
        elif len(data) <= MAX_LINE_BYTES:
            yield Line(number, data, end, False)
            return
        else:
            end, complete = _discard_rest(f, end)
            yield Line(number, None, end, complete)
            if not complete:
                return
        offset, number = end, number + 1


def _discard_rest(f: IO[bytes], end: int) -> tuple[int, bool]:
    """Read past the rest of an oversized line in chunks; return (end, complete)."""
    while True:
        chunk = f.readline(_CHUNK)
        end += len(chunk)
        if not chunk:
            return end, False
        if chunk.endswith(b"\n"):
            return end, True


def parse(data: bytes) -> dict[str, Any] | None:
    """One JSON object, or None when the bytes are not one."""
    try:
        obj = json.loads(data.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def count_newlines(f: IO[bytes], offset: int) -> int:
    """How many lines end before ``offset`` (reads in chunks from the start)."""
    f.seek(0)
    count, left = 0, offset
    while left > 0:
        chunk = f.read(min(_CHUNK, left))
        if not chunk:
            break
        count += chunk.count(b"\n")
        left -= len(chunk)
    return count


def scan(
    path: str,
    start_offset: int,
    handle: Handler,
    prefilter: Prefilter | None = None,
    prime: tuple[Prefilter, Handler] | None = None,
) -> Scan:
    """Feed every complete line of ``path`` from ``start_offset`` to ``handle``.

    With ``prime`` = (keep, handler), a resumed read first feeds the lines before
    ``start_offset`` for which ``keep(raw bytes)`` is true to that handler (what the
    assistant wrote earlier, so that an echo of it after the resume is still seen);
    they are neither turns nor counted.
    """
    skipped, end_offset = 0, start_offset
    with open_regular(path) as f:
        if start_offset and prime is not None:
            first = _prime(f, start_offset, *prime)
        else:
            first = count_newlines(f, start_offset) + 1 if start_offset else 1
        f.seek(start_offset)
        for line in iter_lines(f, start_offset, first):
            if not line.complete:
                skipped += 1  # a write in progress: not consumed, read again later
                break
            end_offset = line.end
            if line.data is None:
                skipped += 1
            elif not line.data.strip() or (prefilter and prefilter(line.data)):
                continue
            else:
                obj = parse(line.data)
                if obj is None or not handle(line.number, obj):
                    skipped += 1
    return Scan(end_offset, skipped)


def _prime(f: IO[bytes], start_offset: int, keep: Prefilter, handler: Handler) -> int:
    """Feed the kept lines that end at or before ``start_offset``; the next line's number."""
    f.seek(0)
    number = 1
    for line in iter_lines(f, 0, 1):
        if line.end > start_offset:
            break
        number = line.number + 1
        if line.data is not None and line.complete and keep(line.data):
            obj = parse(line.data)
            if obj is not None:
                handler(line.number, obj)
        if line.end == start_offset:
            break
    else:
        return count_newlines(f, start_offset) + 1
    if line.end > start_offset:  # an offset inside a line: count as the plain path does
        return count_newlines(f, start_offset) + 1
    return number


def first_object(path: str, limit: int = MAX_LINE_BYTES) -> dict[str, Any] | None:
    """The first line of ``path`` as a JSON object, if it is one (a header)."""
    try:
        with open_regular(path) as f:
            data = f.readline(limit + 1)
    except OSError:
        return None
    if not data.endswith(b"\n"):
        return None
    return parse(data)


def text_of(value: object) -> str | None:
    """``value`` when it is a string with something other than whitespace in it."""
    return value if isinstance(value, str) and value.strip() else None


def text_blocks(content: object, types: tuple[str, ...]) -> list[str]:
    """The non-blank ``text`` of the blocks of these types in a message's content list
    (both formats keep a message as typed blocks; tool calls are other types)."""
    if not isinstance(content, list):
        return []
    return [block["text"] for block in content
            if isinstance(block, dict) and block.get("type") in types and text_of(block.get("text"))]


HEAD_BYTES = 4096  # how much of a transcript's start the ledger remembers


def checkpoint(path: str, offset: int) -> str | None:
    """A digest of the first bytes before ``offset``, or None when the file is shorter
    (rewritten) or cannot be read: a resumed read then starts over."""
    import hashlib

    try:
        with open_regular(path) as f:
            if os.fstat(f.fileno()).st_size < offset:
                return None
            return hashlib.sha256(f.read(min(offset, HEAD_BYTES))).hexdigest()[:16]
    except OSError:
        return None
