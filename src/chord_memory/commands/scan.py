"""chord-memory scan [--format text|json] [--staged] [--detect-secrets] [PATH... | -]

Secrets only. `--staged` reads MEMORY.md and everything under .chord/memory/
from the git index (what the next commit will hold: the blocking hook uses
it); PATHs are files, `-` is stdin; with neither, the working tree's memory
files are scanned. Exit 0 clean, 1 findings, 2 usage.

Memory stays bounded whatever the input. A memory file larger than `check`
reads (paths.MAX_MEMORY_MD, paths.MAX_RECORD) is one error finding and is not
read. A named file or stdin is read BLOCK bytes at a time and scanned CHUNK
characters at a time (docs/security.md, "Bad input").
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from chord_memory import paths
from chord_memory.errors import UserError

if TYPE_CHECKING:
    from chord_memory.findings import Finding
    from chord_memory.secrets import SecretFinding

_SKIP_MODES = ("120000", "160000")  # symbolic links and submodules hold no memory text

BLOCK = 1 << 20    # bytes read at a time from a named file or stdin
CHUNK = 4 << 20    # characters scanned at a time
MARGIN = 64 << 10  # context neighbouring chunks share: far more than any secret or rule window
                   # (a PEM key is a few KiB; a rule reads its keyword's line, 6 KiB of a long one)


class Source(NamedTuple):
    path: str          # root-relative with forward slashes, or as given, or "-"
    text: str
    readable: bool     # False: not UTF-8 (text is a lossy decoding, still scanned)


class Scanner(NamedTuple):
    allowed: set[tuple[str, str]]   # the baseline's audited false positives
    plugins: bool                   # detect-secrets' plugins too


def run(args: argparse.Namespace) -> int:
    if args.staged and args.paths:
        raise UserError("--staged scans the staged memory files; drop the PATHs or --staged")
    return scan(paths.find_root(), staged=args.staged, named=args.paths, fmt=args.format,
                plugins=args.detect_secrets)


def scan(root: str, *, staged: bool, named: list[str], fmt: str, plugins: bool) -> int:
    """Print the secrets in the named files ('-': stdin), or else in the memory files of the
    working tree or the index; the exit code."""
    from chord_memory import secrets
    from chord_memory.findings import worst_exit
    from chord_memory.output import as_json, as_text

    scanner = Scanner(secrets.load_baseline(root), plugins)
    found: list[Finding] = []
    if named:
        for given in named:
            found.extend(scan_named(root, given, scanner))
    else:
        sources, found = staged_sources(root) if staged else worktree_sources(root)
        for source in sources:
            found.extend(scan_source(source, scanner))
    found.sort(key=lambda f: f.sort_key())
    sys.stdout.write(as_json(found) if fmt == "json" else as_text(found))
    return worst_exit(found)


def scan_source(source: Source, scanner: Scanner) -> list[Finding]:
    from chord_memory.findings import Finding

    out = scan_stream(source.path, [source.text], scanner)
    if not source.readable:
        out.append(Finding(source.path, 1, "CM105",
                           "not UTF-8 text; scanned a lossy decoding for secrets"))
    return out


def scan_stream(shown: str, pieces: Iterable[str], scanner: Scanner) -> list[Finding]:
    """The findings of a text that arrives in pieces, scanned CHUNK characters at a time.

    A chunk reports the secrets that start in its own part, which begins MARGIN characters
    after its start (the first chunk's at its start) and ends MARGIN characters before its end
    (the last chunk's at its end); the next chunk starts 2 * MARGIN before this one's end. So
    each secret is reported once, by a chunk that holds it whole with MARGIN characters of
    context on either side, exactly as a scan of the whole text would report it.
    """
    from chord_memory import secrets

    out: list[Finding] = []
    buf, line, column, own = "", 1, 0, 0  # buf starts at (line, column); column counts from 0
    more = iter(pieces)
    last = False
    while not last:
        parts, size = [buf], len(buf)
        for piece in more:
            parts.append(piece)
            size += len(piece)
            if size >= CHUNK:
                break
        else:
            last = True
        buf = "".join(parts)
        end = len(buf) if last else len(buf) - MARGIN
        hits = [h for h in _secrets(buf, scanner.plugins) if own <= h.start < end]
        hits = secrets.filter_baseline(shown, buf, hits, scanner.allowed)
        out.extend(secrets.to_findings(shown, [_moved(h, line, column) for h in hits]))
        if not last:
            cut = end - MARGIN
            newlines = buf.count("\n", 0, cut)
            if newlines:
                line, column = line + newlines, cut - buf.rfind("\n", 0, cut) - 1
            else:
                column += cut
            buf, own = buf[cut:], MARGIN
    return out


def _secrets(text: str, plugins: bool) -> list[SecretFinding]:
    from chord_memory import secrets

    try:
        return secrets.scan_text(text, detect_secrets_plugins=plugins)
    except ImportError as e:
        if not (e.name or "").startswith("detect_secrets"):
            raise
        raise UserError("--detect-secrets needs the detect-secrets package: pip install "
                        "'chord-memory[detect-secrets]' (in a pre-commit hook: additional_dependencies: "
                        "[detect-secrets])") from None


def _moved(f: SecretFinding, line: int, column: int) -> SecretFinding:
    """A finding positioned in a chunk that starts at (line, column), positioned in the text."""
    return f._replace(line=f.line + line - 1, column=f.column + (column if f.line == 1 else 0),
                      end_line=f.end_line + line - 1,
                      end_column=f.end_column + (column if f.end_line == 1 else 0))


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


def limit_of(rel: str) -> int:
    """The most `check` reads of a memory file: MEMORY.md's own limit, a record's for the rest."""
    return paths.MAX_MEMORY_MD if rel == paths.MEMORY_MD else paths.MAX_RECORD


def too_large(rel: str, size: int) -> Finding:
    """The one finding for a memory file over the size `check` reads (with `check`'s code)."""
    from chord_memory.findings import Finding

    limit = limit_of(rel)
    record = rel.startswith(paths.RECORDS_DIR + "/") and rel.endswith(".md")
    fix = ("keep your own text elsewhere and MEMORY.md below that" if rel == paths.MEMORY_MD
           else "a record is a few KiB (memory.limits.record_bytes): remove this file"
           if record else "memory holds no file that large: remove it")
    return Finding(rel, 1, "CM305" if record else "CM105",
                   f"the file is {size:,} bytes, more than the {limit:,} that is read and "
                   f"scanned for secrets; {fix}")


def staged_sources(root: str) -> tuple[list[Source], list[Finding]]:
    """The staged memory files to scan, and a finding for each one too large to read."""
    from chord_memory import gitio

    if paths.git_dir(root) is None:
        raise UserError("--staged needs a git repository; run it inside one, or name files")
    entries = gitio.staged_entries(root, [paths.MEMORY_MD, paths.MEMORY_DIR])
    wanted = {p: e for p, e in entries.items() if e.mode not in _SKIP_MODES}
    sizes = gitio.blob_sizes(root, [e.sha for e in wanted.values()])
    big = [too_large(p, sizes[e.sha]) for p, e in sorted(wanted.items())
           if sizes.get(e.sha, 0) > limit_of(p)]
    wanted = {p: e for p, e in wanted.items() if sizes.get(e.sha, 0) <= limit_of(p)}
    blobs = gitio.read_blobs(root, [e.sha for e in wanted.values()])
    return [_memory_source(p, blobs[e.sha]) for p, e in sorted(wanted.items()) if e.sha in blobs], big


def worktree_sources(root: str) -> tuple[list[Source], list[Finding]]:
    """The working tree's memory files to scan, and a finding for each one too large to read."""
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
    sources, big = [], []
    for rel in found:
        limit = limit_of(rel)
        try:
            with paths.open_regular(os.path.join(root, rel)) as f:
                size = os.fstat(f.fileno()).st_size
                data = f.read(limit + 1) if size <= limit else b""
        except OSError as e:
            raise UserError(f"{rel}: cannot be read ({e.strerror})") from None
        if size > limit or len(data) > limit:  # (or it grew while we read it)
            big.append(too_large(rel, max(size, len(data))))
        else:
            sources.append(_memory_source(rel, data))
    return sources, big


def scan_named(root: str, given: str, scanner: Scanner) -> list[Finding]:
    """A file the user named, of any size; anything but UTF-8 text is a usage error (exit 2)."""
    if given == "-":
        return scan_stream("-", _text(sys.stdin.buffer, "-"), scanner)
    if os.path.isdir(given):
        raise UserError(f"{given}: is a directory; name files, or give no PATH to scan "
                        "the memory files")
    try:
        f = paths.open_regular(given)
    except FileNotFoundError:
        raise UserError(f"{given}: no such file") from None
    except OSError as e:
        raise UserError(f"{given}: cannot be read ({e.strerror})") from None
    shown = _shown(root, given)
    with f:
        return scan_stream(shown, _text(f, shown, given), scanner)


def _text(f: BinaryIO, shown: str, given: str = "-") -> Iterator[str]:
    """The UTF-8 text of a stream, BLOCK bytes at a time (a BOM dropped, a character split
    between blocks kept whole); a NUL byte or invalid UTF-8 is a usage error."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    while True:
        try:
            data = f.read(BLOCK)
            text = decoder.decode(data, final=not data)
            if b"\0" in data:
                raise ValueError("NUL")
        except OSError as e:
            raise UserError(f"{given}: cannot be read ({e.strerror})") from None
        except ValueError:  # UnicodeDecodeError is one
            raise UserError(f"{shown}: not UTF-8 text (binary or another encoding); "
                            "scan reads UTF-8 text only") from None
        if not data:
            return
        yield text


def _shown(root: str, given: str) -> str:
    """Project-root relative inside a repository (as docs/secrets.md says), else as given."""
    if paths.git_dir(root) is None:
        return given
    rel = os.path.relpath(os.path.abspath(given), root)
    if rel.startswith(".." + os.sep) or rel == ".." or os.path.isabs(rel):
        return given
    return rel.replace(os.sep, "/")
