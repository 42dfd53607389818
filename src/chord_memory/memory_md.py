"""MEMORY.md, the file: the one module that reads it, lists its ids and updates its index.

Reading has one policy for every command: never through a symbolic link, never a FIFO or
a device, at most paths.MAX_MEMORY_MD bytes; anything else is `Unreadable`, one line that
says what and how to fix it. A missing file is None (no memory yet), not an error.

Writing is a list of typed operations, `Add`, `Replace` and `Remove`, applied by
userfile.update to what the file holds at that instant (an editor may be saving), so a
line the user wrote or deleted meanwhile stays as they left it. The grammar of an index
line is index.py's; this module is only about the file.
"""
from __future__ import annotations

import errno
import os

from chord_memory import index, paths
from chord_memory.errors import UserError

TYPE_CHECKING = False  # `typing` stays off a hook's path (structs.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NamedTuple, TypeAlias

    Op: TypeAlias = "Add | Replace | Remove"
else:
    from chord_memory.structs import NamedTuple

# What a missing MEMORY.md starts as, when extraction or a command writes the first entry.
HEADER = (
    "# Project memory\n\nBackground from earlier agent sessions. The list between the markers is "
    "kept by\nchord-memory; everything else in this file is yours. Delete a line to forget it.\n\n"
)


class Unreadable(UserError):
    """MEMORY.md exists and is not read: a link, not a regular file, too large, an I/O error."""


class Unusable(UserError):
    """MEMORY.md was read, and its index cannot be used (not text, a broken region)."""


class Add(NamedTuple):
    entry: index.Entry


class Replace(NamedTuple):
    old: str  # the id of the entry the new one takes the place of
    entry: index.Entry


class Remove(NamedTuple):
    id: str


def _unreadable(reason: str) -> Unreadable:
    return Unreadable(f"{paths.MEMORY_MD}: {reason}", 1)


def _os_error(e: OSError) -> Unreadable:
    """As any OSError that reaches the top is said (errors.os_error), with its exit code."""
    return Unreadable(f"{paths.MEMORY_MD}: {e.strerror or type(e).__name__}; fix or remove it "
                      "and run the command again")


def too_large(size: int) -> str:
    return (f"{size:,} bytes, over the {paths.MAX_MEMORY_MD:,} bytes "
            f"({paths.MAX_MEMORY_MD >> 20} MiB) chord-memory reads; move some of your text "
            "to another file")


def read_unless(root: str, fresh: Callable[[os.stat_result], bool] | None = None
                ) -> tuple[os.stat_result | None, bytes | None]:
    """(its stat, its bytes); (None, None) when there is no MEMORY.md, and (stat, None) when
    ``fresh(stat)`` says what the caller holds from an earlier read is still it."""
    path = os.path.join(root, paths.MEMORY_MD)
    try:  # never through a link, and a FIFO must not hang a session that starts
        f = paths.open_regular(path, follow=False)
    except FileNotFoundError:
        return None, None
    except OSError as e:
        if os.path.islink(path):
            raise Unreadable(paths.LINKED_MEMORY_MD, 1) from None
        raise _os_error(e) from None
    with f:
        st = os.fstat(f.fileno())
        if fresh is not None and fresh(st):
            return st, None
        if st.st_size > paths.MAX_MEMORY_MD:
            raise _unreadable(too_large(st.st_size))
        try:
            data = f.read(paths.MAX_MEMORY_MD + 1)
        except OSError as e:
            raise _os_error(e) from None
    if len(data) > paths.MAX_MEMORY_MD:  # it grew while we read
        raise _unreadable(too_large(len(data)))
    return st, data


def read(root: str) -> bytes | None:
    """MEMORY.md's bytes, or None when there is none. Raises Unreadable."""
    return read_unless(root)[1]


def parse(data: bytes) -> index.Index:
    """The usable index in MEMORY.md's bytes. Raises Unusable, saying where."""
    idx, why = index.read(data)
    if idx is None:
        raise Unusable(why if why != index.NOT_TEXT else f"{why}; `chord-memory check` says where",
                       2 if why == index.NOT_TEXT else 1)
    return idx


def problem(root: str) -> str | None:
    """Why MEMORY.md cannot be read or used, in one line; None when it can (or is missing)."""
    try:
        data = read(root)
        if data is not None:
            parse(data)
    except UserError as e:
        return str(e)
    return None


def body(data: bytes) -> tuple[list[str] | None, tuple[int, int], str]:
    """(the ids in index order, the region body's byte span, the problem) of MEMORY.md's bytes.

    A valid body is recognised in one regular-expression match (index.entry_lines), so a
    10,000-entry index does not pay for 10,000 parsed entries.
    """
    from chord_memory import region

    try:
        bom, text = region.decode(data)
    except (UnicodeDecodeError, ValueError):
        return None, (0, 0), f"{index.NOT_TEXT}; `chord-memory check` says where"
    lines, problems = index.entry_lines(text, bom)
    if problems:
        return None, (0, 0), index.reason(problems[0])
    reg = region.parse(text, bom)
    start = len(((region.BOM if bom else "") + reg.before).encode())
    end = start + len("".join(reg.body).encode())
    return list(dict.fromkeys(index.line_id(line) for line in lines)), (start, end), ""


def ids(root: str) -> list[str]:
    """The record ids of the index, in order (first line of each). Raises Unreadable, Unusable."""
    data = read(root)
    if data is None:
        return []
    got, _, why = body(data)
    if why:
        raise Unusable(why, 1)
    return got or []


def merge(entries: list[index.Entry], ops: list[Op]) -> list[index.Entry]:
    """The entries after the operations; new ones on top in plan order, the rest in place.

    An entry whose id is there already is not added twice, so applying the same operations
    again changes nothing (a journal finished after a crash).
    """
    out = list(entries)
    top: list[index.Entry] = []
    for op in ops:
        if isinstance(op, Remove):
            out = [e for e in out if e.id != op.id]
            continue
        if op.entry.id in {e.id for e in out} or op.entry.id in {e.id for e in top}:
            continue
        if isinstance(op, Replace):
            where = [i for i, e in enumerate(out) if e.id == op.old]
            if where:
                out[where[0]] = op.entry
                continue
        top.append(op.entry)
    return top + out


def update(root: str, ops: list[Op], noting: Callable[[int], None] | None = None) -> bool:
    """Apply ops to MEMORY.md; True when it was written. Raises Unusable, UserError.

    ``noting(inode)`` learns the inode of each new MEMORY.md right before it takes the old
    one's place (see userfile.update): a journal notes it, so a finished crash never puts
    back a line the user deleted since.
    """
    from chord_memory import userfile

    path = os.path.join(root, paths.MEMORY_MD)
    if os.path.islink(path):
        raise Unusable("MEMORY.md is a symbolic link; nothing was written through it")

    def change(data: bytes | None) -> bytes | None:
        idx = index.parse(HEADER) if data is None else _usable(data)
        new = merge(idx.entries, ops)
        if data is not None and idx.region.present and \
                [e.render() for e in new] == [e.render() for e in idx.entries]:
            return None
        return index.render(idx, new)

    try:
        return userfile.update(path, change, limit=paths.MAX_MEMORY_MD, noting=noting)
    except userfile.Kept:
        raise UserError("MEMORY.md kept changing while extraction tried to update it; "
                        "it is tried again on the next run") from None
    except OSError as e:
        if e.errno == errno.EFBIG:
            raise Unusable(f"MEMORY.md: {e.strerror}, more than the index may hold "
                           f"({paths.MAX_MEMORY_MD >> 20} MiB); nothing was written") from None
        raise


def _usable(data: bytes) -> index.Index:
    idx, why = index.read(data)
    if idx is None:
        raise Unusable(f"{why}; nothing was written")
    return idx


# The journal of a plan keeps its operations as JSON lists: ["add", line],
# ["replace", old id, line], ["remove", id]. A journal is local state a crash may have left
# half-written or a user may have edited: unpack checks every field.

def pack(ops: list[Op]) -> list[list[str]]:
    out: list[list[str]] = []
    for op in ops:
        if isinstance(op, Remove):
            out.append(["remove", op.id])
        elif isinstance(op, Replace):
            out.append(["replace", op.old, op.entry.render()])
        else:
            out.append(["add", op.entry.render()])
    return out


def unpack(raw: object) -> tuple[list[Op], str]:
    """The operations of a journal, or [] and why they cannot be taken as they are."""
    if not isinstance(raw, list):
        return [], "its ops are not a list"
    ops: list[Op] = []
    for item in raw:
        shape = {"add": 2, "replace": 3, "remove": 2}
        if not isinstance(item, list) or not item or not all(isinstance(x, str) for x in item) or \
                shape.get(item[0]) != len(item):
            return [], "an index operation is malformed"
        if item[0] == "remove":
            ops.append(Remove(item[1]))
            continue
        got = index.parse_entry(item[-1], 0)
        if not isinstance(got, index.Entry):
            return [], "an index operation holds a line that is not an entry"
        ops.append(Add(got) if item[0] == "add" else Replace(item[1], got))
    return ops, ""
