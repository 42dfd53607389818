"""chord-memory scan [--format text|json] [--staged] [--detect-secrets] [PATH... | -]

Secrets only. `--staged` reads MEMORY.md and everything under .chord/memory/
from the git index (what the next commit will hold: the blocking hook uses
it); PATHs are files, `-` is stdin; with neither, the working tree's memory
files are scanned. Exit 0 clean, 1 findings, 2 usage.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, NamedTuple

from chord_memory import paths
from chord_memory.errors import UserError

if TYPE_CHECKING:
    from chord_memory.findings import Finding

_SKIP_MODES = ("120000", "160000")  # symbolic links and submodules hold no memory text


class Source(NamedTuple):
    path: str          # root-relative with forward slashes, or as given, or "-"
    text: str
    readable: bool     # False: not UTF-8 (text is a lossy decoding, still scanned)


def run(args: argparse.Namespace) -> int:
    from chord_memory import secrets
    from chord_memory.findings import worst_exit
    from chord_memory.output import as_json, as_text

    root = paths.find_root()
    if args.staged and args.paths:
        raise UserError("--staged scans the staged memory files; drop the PATHs or --staged")
    if args.staged:
        sources = staged_sources(root)
    elif args.paths:
        sources = [named_source(root, p) for p in args.paths]
    else:
        sources = worktree_sources(root)
    allowed = secrets.load_baseline(root)
    plugins = bool(getattr(args, "detect_secrets", False))
    found: list[Finding] = []
    for source in sources:
        found.extend(scan_source(source, allowed, plugins))
    found.sort(key=lambda f: f.sort_key())
    sys.stdout.write(as_json(found) if args.format == "json" else as_text(found))
    return worst_exit(found)


def scan_source(source: Source, allowed: set[tuple[str, str]], plugins: bool) -> list[Finding]:
    from chord_memory import secrets
    from chord_memory.findings import Finding

    try:
        hits = secrets.scan_text(source.text, detect_secrets_plugins=plugins)
    except ImportError as e:
        if not (e.name or "").startswith("detect_secrets"):
            raise
        raise UserError("--detect-secrets needs the detect-secrets package "
                        "(pip install detect-secrets)") from None
    hits = secrets.filter_baseline(source.path, source.text, hits, allowed)
    out = secrets.to_findings(source.path, hits)
    if not source.readable:
        out.append(Finding(source.path, 1, "CM105",
                           "not UTF-8 text; scanned a lossy decoding for secrets"))
    return out


def decode(data: bytes) -> str | None:
    """The text of a UTF-8 file (a BOM is dropped), or None for binary or other encodings."""
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _memory_source(path: str, data: bytes) -> Source:
    text = decode(data)
    if text is None:
        return Source(path, data.decode("utf-8", "replace"), False)
    return Source(path, text, True)


def staged_sources(root: str) -> list[Source]:
    from chord_memory import gitio

    if paths.git_dir(root) is None:
        raise UserError("--staged needs a git repository; run it inside one, or name files")
    entries = gitio.staged_entries(root, [paths.MEMORY_MD, paths.MEMORY_DIR])
    wanted = {p: e for p, e in entries.items() if e.mode not in _SKIP_MODES}
    blobs = gitio.read_blobs(root, [e.sha for e in wanted.values()])
    return [_memory_source(p, blobs[e.sha]) for p, e in sorted(wanted.items()) if e.sha in blobs]


def worktree_sources(root: str) -> list[Source]:
    found = []
    memory = os.path.join(root, paths.MEMORY_MD)
    if os.path.isfile(memory) and not os.path.islink(memory):
        found.append(paths.MEMORY_MD)
    folder = os.path.join(root, paths.MEMORY_DIR)
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(here, d)))
        for name in sorted(files):
            full = os.path.join(here, name)
            if os.path.isfile(full) and not os.path.islink(full):
                found.append(os.path.relpath(full, root).replace(os.sep, "/"))
    sources = []
    for rel in found:
        try:
            with paths.open_regular(os.path.join(root, rel)) as f:
                sources.append(_memory_source(rel, f.read()))
        except OSError as e:
            raise UserError(f"{rel}: cannot be read ({e.strerror})") from None
    return sources


def named_source(root: str, given: str) -> Source:
    """A file the user named; anything but UTF-8 text is a usage error (exit 2)."""
    if given == "-":
        data = sys.stdin.buffer.read()
        shown = "-"
    else:
        if os.path.isdir(given):
            raise UserError(f"{given}: is a directory; name files, or give no PATH to scan "
                            "the memory files")
        try:
            with paths.open_regular(given) as f:
                data = f.read()
        except FileNotFoundError:
            raise UserError(f"{given}: no such file") from None
        except OSError as e:
            raise UserError(f"{given}: cannot be read ({e.strerror})") from None
        shown = _shown(root, given)
    text = decode(data)
    if text is None:
        raise UserError(f"{shown}: not UTF-8 text (binary or another encoding); "
                        "scan reads UTF-8 text only")
    return Source(shown, text, True)


def _shown(root: str, given: str) -> str:
    """Project-root relative inside a repository (as SPEC §10 wants), else as given."""
    if paths.git_dir(root) is None:
        return given
    rel = os.path.relpath(os.path.abspath(given), root)
    if rel.startswith(".." + os.sep) or rel == ".." or os.path.isabs(rel):
        return given
    return rel.replace(os.sep, "/")
