"""`chord-memory check`: every finding of docs/checks.md over one snapshot."""
from __future__ import annotations

from typing import NamedTuple

from chord_memory import durable, loaded, paths, records, summary
from chord_memory import index as index_mod
from chord_memory.check import secrets
from chord_memory.findings import Finding
from chord_memory.paths import MAX_MEMORY_MD, MAX_RECORD
from chord_memory.region import decode
from chord_memory.settings import Settings
from chord_memory.snapshot import MemFile, Snapshot


class Loaded(NamedTuple):
    idx: index_mod.Index | None
    records: dict[str, records.Record]
    findings: list[Finding]


def _unreadable(f: MemFile, limit: int) -> Finding | None:
    if f.problem:
        code, message = f.problem
        return Finding(f.path, 1, code, f"{f.path} {message}")
    if f.data is None:
        if f.path == paths.MEMORY_MD:
            return Finding(f.path, 1, "CM105", f"MEMORY.md is {f.size} bytes; more than {limit} is "
                           "not read (keep your own text elsewhere)")
        return Finding(f.path, 1, "CM305", f"the file is {f.size} bytes; the limit is far lower "
                       "(memory.limits.record_bytes)")
    return None


def _load_index(f: MemFile, out: list[Finding]) -> index_mod.Index | None:
    bad = _unreadable(f, MAX_MEMORY_MD)
    if bad:
        out.append(bad)
        return None
    assert f.data is not None
    try:
        bom, content = decode(f.data)
    except (UnicodeDecodeError, ValueError) as e:
        reason = e.reason if isinstance(e, UnicodeDecodeError) else str(e)
        out.append(Finding(f.path, 1, "CM105", f"MEMORY.md is not UTF-8 text ({reason}); "
                           "save it as UTF-8 to fix this"))
        return None
    idx = index_mod.parse(content, bom)
    out.extend(Finding(f.path, p.line, p.code, p.message) for p in idx.problems)
    out.extend(durable.scan(f.path, "".join(idx.region.body), idx.region.first_line))
    return idx


def load(snap: Snapshot, settings: Settings, results: loaded.Results | None = None) -> Loaded:
    out: list[Finding] = []
    idx = _load_index(snap.memory_md, out) if snap.memory_md else None
    if results is None:
        results = loaded.Results(snap.root, settings.limits)
    good: dict[str, records.Record] = {}
    for name, f in snap.records.items():
        bad = _unreadable(f, MAX_RECORD)
        if bad:
            out.append(bad)
            continue
        assert f.data is not None and f.sha is not None
        result = results.get(name, f.data, f.sha)
        out.extend(Finding(f.path, line, code, message, column, end_line, end_column)
                   for code, line, message, column, end_line, end_column in result[1])
        record = loaded.record(result)
        if record is not None:
            good[name] = record
    results.save()
    return Loaded(idx, good, out)


def _missing(snap: Snapshot, record_id: str) -> str:
    import os

    rel = paths.record_path(record_id)
    if snap.staged and os.path.isfile(os.path.join(snap.root, rel)):
        return f"record {record_id} is not staged; `git add {rel}` to fix this"
    where = "staged" if snap.staged else "in the working tree"
    return f"record {record_id} is not {where} ({rel}); restore it or delete this line"


def _cross(snap: Snapshot, ld: Loaded, settings: Settings) -> list[Finding]:
    out: list[Finding] = []
    if ld.idx is None or not ld.idx.usable:
        return out
    seen: dict[str, int] = {}
    for e in ld.idx.entries:
        if e.id in seen:
            out.append(Finding(paths.MEMORY_MD, e.line, "CM203",
                               f"{e.id} is already indexed on line {seen[e.id]}; delete one line"))
            continue
        seen[e.id] = e.line
        if e.id not in snap.records:
            out.append(Finding(paths.MEMORY_MD, e.line, "CM201", _missing(snap, e.id)))
            continue
        record = ld.records.get(e.id)
        if record is not None and record.type != e.type:
            out.append(Finding(paths.MEMORY_MD, e.line, "CM204",
                               f"the entry says {e.type} but {e.id} is a {record.type}"))
    superseded = {r.supersedes for r in ld.records.values() if r.supersedes}
    for name, f in snap.records.items():
        if name not in seen and name not in superseded:
            out.append(Finding(f.path, 1, "CM205",
                               f"no index entry points to {name}; index it or delete the file"))
    lines = [e.render() for e in ld.idx.entries]
    size = summary.full_size(lines, settings.enabled)
    if size > settings.budget:
        out.append(Finding(paths.MEMORY_MD, max(ld.idx.region.first_line - 1, 1), "CM501",
                           f"the index needs {size} characters; the injection budget is "
                           f"{settings.budget} (memory.injection_budget): the tail is left out "
                           "of the summary"))
    return out


def _changed(snap: Snapshot, first: dict[str, str]) -> list[Finding]:
    """Records whose content differs from the blob they were first committed with."""
    out: list[Finding] = []
    differing = [f for f in snap.records.values()
                 if f.sha and f.path in first and first[f.path] != f.sha]
    if not differing:
        return out
    from chord_memory import gitio

    originals = gitio.read_blobs(snap.root, (first[f.path] for f in differing))
    for f in differing:
        original = originals.get(first[f.path])
        if original is not None and f.data is not None and \
                original.replace(b"\r\n", b"\n") == f.data.replace(b"\r\n", b"\n"):
            continue  # only line endings differ (core.autocrlf)
        out.append(Finding(f.path, 1, "CM307",
                           "the record differs from the version first committed; records are "
                           "never edited: restore the committed text and let a new record that "
                           "supersedes this one carry the correction"))
    return out


# One job of the cold pass: (record name or None, content, limits, wants the secret spans)
Job = tuple["str | None", bytes, records.Limits, bool]


def _cold(job: Job) -> tuple[loaded.Result | None, list[secrets.Row] | None]:
    name, data, limits, spans = job
    return (loaded.compute(name, data, limits) if name is not None else None,
            secrets.scan_rows(data) if spans else None)


def _warm(snap: Snapshot, files: list[MemFile], results: loaded.Results,
          spans: secrets.Spans) -> None:
    """Fill both caches' misses in one pass over every core (a fresh clone's first check)."""
    from chord_memory.parallel import MIN_BATCH, map_cold

    names = {id(f): name for name, f in snap.records.items()}
    jobs: list[tuple[MemFile, Job]] = []
    for f in files:
        if f.data is None or f.sha is None or f.problem:
            continue
        name = names.get(id(f))
        record = name if name is not None and results.misses(name, f.sha) else None
        if record is not None or spans.misses(f.sha):
            jobs.append((f, (record, f.data, results.limits, spans.misses(f.sha))))
    if len(jobs) >= MIN_BATCH:  # import once here, not once in every forked worker
        import yaml  # noqa: F401

        import chord_memory.secrets  # noqa: F401
    for (f, (name, _, _, _)), (result, rows) in zip(
            jobs, map_cold(_cold, [job for _, job in jobs]), strict=True):
        assert f.sha is not None
        if name is not None and result is not None:
            results.fill(name, f.sha, result)
        if rows is not None:
            spans.fill(f.sha, rows)


def run(snap: Snapshot, settings: Settings, first: dict[str, str] | None,
        with_secrets: bool = True) -> list[Finding]:
    """Every finding of the snapshot; without the secrets layer (CM601) when the
    `chord-memory-secrets` hook reports secrets at commit time (`check --no-secrets`)."""
    from chord_memory.check import stale

    files = [f for f in (snap.memory_md, *snap.records.values(), *snap.others) if f is not None]
    results = loaded.Results(snap.root, settings.limits)
    spans = secrets.Spans(snap.root, enabled=with_secrets)
    _warm(snap, files, results, spans)
    ld = load(snap, settings, results)
    found = ld.findings + _cross(snap, ld, settings)
    if ld.idx is not None and ld.idx.usable:
        found += stale.stale_findings(snap, ld.records, [e.id for e in ld.idx.entries])
    found += spans.findings(files)
    if first:
        found += _changed(snap, first)
    return sorted(set(found), key=Finding.sort_key)
