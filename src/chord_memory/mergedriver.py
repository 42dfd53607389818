"""A git merge driver for MEMORY.md: `chord-memory merge-driver %O %A %B`.

The managed region is merged by entry: the union of both sides' entries, each
side's order kept (ours first where both added at the same place), and an
entry removed on either side stays removed. Everything outside the region is
the user's text and gets git's usual three-way merge (`git merge-file`), with
the region's body stood in for by one placeholder line that is the same on all
three sides; conflicts there get git's usual markers and exit 1. If any side's
region is unusable (or the file is not UTF-8), the whole file goes through
`git merge-file` as if there were no driver.
"""
from __future__ import annotations

import os
import subprocess
import tempfile

from chord_memory import index
from chord_memory.errors import UserError
from chord_memory.region import BOM

PLACEHOLDER = "<!-- chord-memory:merged-region-placeholder -->"
ATTRIBUTE = "MEMORY.md merge=chord-memory"
DRIVER = "merge.chord-memory"


def _firsts(entries: list[index.Entry]) -> dict[str, index.Entry]:
    """Each id's first line, in order (a repeated line is CM203; the first counts)."""
    out: dict[str, index.Entry] = {}
    for e in entries:
        out.setdefault(e.id, e)
    return out


def merge_entries(base: list[index.Entry], ours: list[index.Entry],
                  theirs: list[index.Entry]) -> list[index.Entry]:
    """The union of both sides, each side's order kept; a removal on either side wins."""
    b, o, t = _firsts(base), _firsts(ours), _firsts(theirs)
    removed = {i for i in b if i not in o or i not in t}
    order = [i for i in o if i not in removed]
    anchor: int | None = None
    for i in t:
        if i in removed:
            continue
        if i in o:
            anchor = order.index(i)
            continue
        if anchor is None:  # new on their side above every shared entry: below our new ones
            anchor = next((n for n, j in enumerate(order) if j in t), len(order)) - 1
        anchor += 1
        order.insert(anchor, i)
    return [_pick(b.get(i), o.get(i), t.get(i)) for i in order]


def _pick(base: index.Entry | None, ours: index.Entry | None, theirs: index.Entry | None) -> index.Entry:
    """One side's line for an id both may have edited: theirs only if ours did not change it."""
    if ours is None:
        assert theirs is not None
        return theirs
    if theirs is not None and base is not None and ours.render() == base.render():
        return theirs
    return ours


def _git_merge_file(current: str, base: str, other: str) -> tuple[bytes, int]:
    try:
        proc = subprocess.run(
            ["git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", current, base, other],
            capture_output=True,
        )
    except FileNotFoundError:
        raise UserError("git is not installed or not on PATH") from None
    if proc.returncode < 0 or proc.returncode > 127:
        raise UserError(f"`git merge-file` failed: {proc.stderr.decode('utf-8', 'replace').strip()}")
    return proc.stdout, proc.returncode


def _three_way(texts: tuple[bytes, bytes, bytes]) -> tuple[bytes, int]:
    """git merge-file over (ours, base, theirs) given as bytes."""
    with tempfile.TemporaryDirectory(prefix="chord-merge-") as tmp:
        names = []
        for label, data in zip(("ours", "base", "theirs"), texts, strict=True):
            name = os.path.join(tmp, label)
            with open(name, "wb") as f:
                f.write(data)
            names.append(name)
        return _git_merge_file(*names)


def merge(ancestor: bytes, current: bytes, other: bytes) -> tuple[bytes, bool]:
    """(the merged MEMORY.md, whether it merged without conflicts)."""
    try:
        parsed = [index.parse_bytes(d) for d in (ancestor, current, other)]
    except (UnicodeDecodeError, ValueError):
        parsed = []
    if len(parsed) != 3 or not all(p.usable for p in parsed) or \
            any(PLACEHOLDER.encode() in d for d in (ancestor, current, other)):
        out, rc = _three_way((current, ancestor, other))
        return out, rc == 0
    base_idx, ours_idx, theirs_idx = parsed
    entries = merge_entries(base_idx.entries, ours_idx.entries, theirs_idx.entries)
    stand_in = [_stand_in(p) for p in (ours_idx, base_idx, theirs_idx)]
    out, rc = _three_way((stand_in[0], stand_in[1], stand_in[2]))
    cr = "\r" if ours_idx.region.newline == "\r\n" else ""
    lines: list[str] = []
    hits = 0
    for line in out.decode("utf-8").split("\n"):
        if line.rstrip("\r") == PLACEHOLDER:
            lines += [e.render() + cr for e in entries]
            hits += 1
        else:
            lines.append(line)
    clean = rc == 0 and (hits == 1 or (hits == 0 and not entries))
    prefix = BOM if ours_idx.region.bom else ""
    return (prefix + "\n".join(lines)).encode("utf-8"), clean


def _stand_in(idx: index.Index) -> bytes:
    """The file with its region's body replaced by the placeholder line."""
    reg = idx.region
    if not reg.present:
        return reg.before.encode("utf-8")
    return (reg.before + PLACEHOLDER + reg.newline + reg.after).encode("utf-8")


def run(ancestor: str, current: str, other: str) -> int:
    """The driver: merge into `current` (git's %A); 0 when clean, 1 with conflicts left."""
    def read(path: str) -> bytes:
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError as e:
            raise UserError(f"merge-driver: cannot read {path} ({e.strerror})") from None

    merged, clean = merge(read(ancestor), read(current), read(other))
    from chord_memory import atomic

    atomic.write(current, merged)
    return 0 if clean else 1


def driver_command() -> str:
    """How git should start the driver: the console script if it is on PATH, else this Python."""
    import shlex
    import shutil
    import sys

    if shutil.which("chord-memory"):
        return "chord-memory merge-driver %O %A %B"
    return f"{shlex.quote(sys.executable)} -m chord_memory merge-driver %O %A %B"


def install_merge_driver(root: str, command: str | None = None) -> bool:
    """The `.gitattributes` line and the git configuration; True when anything changed.

    `.gitattributes` gets one line, `MEMORY.md merge=chord-memory`, appended
    (the rest of the file is kept byte for byte); `.gitignore` is never touched.
    The driver itself lives in the repository's git configuration, which is
    local: every clone runs `chord-memory install` once.
    """
    from chord_memory import atomic, gitio

    path = os.path.join(root, ".gitattributes")
    data = atomic.read_or_none(path) or b""
    changed = False
    if ATTRIBUTE.encode() not in [line.strip() for line in data.splitlines()]:
        sep = b"" if not data or data.endswith(b"\n") else b"\n"
        atomic.write(path, data + sep + ATTRIBUTE.encode() + b"\n")
        changed = True
    wanted = {"name": "chord-memory: merge MEMORY.md's managed index by entry",
              "driver": command or driver_command()}
    for key, value in wanted.items():
        have = gitio.git(root, "config", "--get", f"{DRIVER}.{key}", check=False).decode().strip()
        if have != value:
            gitio.git(root, "config", f"{DRIVER}.{key}", value)
            changed = True
    return changed


def uninstall_merge_driver(root: str) -> bool:
    """Remove what install_merge_driver added; True when anything changed."""
    from chord_memory import atomic, gitio

    path = os.path.join(root, ".gitattributes")
    data = atomic.read_or_none(path)
    changed = False
    if data is not None:
        kept = [line for line in data.splitlines(keepends=True) if line.strip() != ATTRIBUTE.encode()]
        if len(kept) != len(data.splitlines()):
            if any(line.strip() for line in kept):
                atomic.write(path, b"".join(kept))
            else:  # it held only our line: install created it, so uninstall takes it away
                os.unlink(path)
            changed = True
    if gitio.git(root, "config", "--get", f"{DRIVER}.driver", check=False).strip():
        gitio.git(root, "config", "--remove-section", DRIVER, check=False)
        changed = True
    return changed
