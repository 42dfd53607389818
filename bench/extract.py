"""Benchmark: read (and scrub) a large session of every transcript format, mostly tool output.

    .venv/bin/python bench/extract.py                     # every reader, 50 MB each, in a temp dir
    .venv/bin/python bench/extract.py --kind codex --size-mb 200
    .venv/bin/python bench/extract.py --kind claude-code --file PATH   # an existing transcript
    .venv/bin/python bench/extract.py --no-scrub          # the readers alone

Targets: read + scrub of a 50 MB session of each format in <= 2 s with peak memory
<= 100 MB (issue 11; every turn is scrubbed, replies too), and read + what `extract`
does with it under `extractor: rules` (the user's typed text scrubbed, then the rules
and their model) in <= 2 s (issue 13). Each session is written by bench/gen/<format>.py in that agent's
shape; each measurement runs in a fresh interpreter so the generator's memory does not
count, and `python -c pass` and an interpreter that only imports the readers are
measured in the same run as the baseline.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import cast

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = ("claude-code", "codex", "gemini-cli", "aider", "opencode", "copilot-cli", "cursor", "chord")

def _peak_rss_mb() -> float:
    """This process's peak resident memory. Linux's VmHWM starts afresh at exec;
    ``ru_maxrss`` would carry over the generating parent's peak."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for row in f:
                if row.startswith("VmHWM:"):
                    return round(int(row.split()[1]) / 1024, 1)
    except OSError:
        pass
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
    return round(kb / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def _scrubber() -> Callable[[str], str] | None:
    """``chord_memory.secrets.scrub`` when it exists (the scrub step is not ours).

    It returns ``(clean_text, findings)``; only the text goes on to the extractor.
    """
    try:
        module = importlib.import_module("chord_memory.secrets")
    except ImportError:
        return None
    scrub = cast("Callable[[str], object] | None", getattr(module, "scrub", None))
    if scrub is None:
        return None

    def clean(text: str) -> str:
        result = scrub(text)
        return str(result[0] if isinstance(result, tuple) else result)

    return clean


def generate(kind: str, folder: str, size_mb: int) -> str:
    """A session of ``kind`` of at least ``size_mb`` MB under ``folder`` (bench/gen/)."""
    name = kind.replace("-", "_")
    spec = importlib.util.spec_from_file_location(f"gen_{name}", os.path.join(HERE, "gen", f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.generate(folder, size_mb))


def measure(kind: str, path: str, with_scrub: bool = True) -> dict[str, float]:
    """Read and scrub ``path``; wall time and memory of this (fresh) process."""
    from chord_memory.transcripts import read_session

    scrub = _scrubber() if with_scrub else None
    start = time.perf_counter()
    session = read_session(kind, path)
    read = time.perf_counter() - start
    texts = [scrub(t.text) if scrub else t.text for t in session.turns]
    wall = time.perf_counter() - start
    return {"wall_s": round(wall, 3), "peak_rss_mb": _peak_rss_mb(),
            "turns": len(texts), "skipped": session.skipped, "scrubbed": scrub is not None,
            "extract_s": round(read + _rules_time(session), 3)}


def _rules_time(session: object) -> float:
    """What `extract` does with a session under `extractor: rules` (extract/run.py): the
    user's typed text, scrubbed, through the rules. Seconds; NaN before the rules exist."""
    try:
        from chord_memory.extract import rules
        from chord_memory.extract.run import user_texts
    except ImportError:
        return float("nan")
    start = time.perf_counter()
    rules.extract(user_texts(session.turns), "bench")  # type: ignore[attr-defined]
    return time.perf_counter() - start


def measure_tracemalloc(kind: str, path: str) -> float:
    """Peak Python allocations (MB) while reading: slower, so timed apart."""
    import tracemalloc

    from chord_memory.transcripts import read_session

    tracemalloc.start()
    read_session(kind, path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return round(peak / 1024 / 1024, 1)


def _child(*args: str) -> str:
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True)
    if out.returncode != 0:
        tail = out.stderr.decode(errors="replace").strip().splitlines()[-1:]
        raise SystemExit(f"measuring failed: {tail[0] if tail else out.returncode}")
    return out.stdout.decode().strip()


def _pass_ms() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return (time.perf_counter() - start) * 1000


def _row(kind: str, path: str, size: float, with_scrub: bool) -> dict[str, object]:
    result = json.loads(_child("--measure", path, "--kind", kind, *([] if with_scrub else ["--no-scrub"])))
    traced = float(_child("--tracemalloc", path, "--kind", kind))
    return {"kind": kind, "mb": round(size, 1), **result, "tracemalloc_mb": traced}


def _table(rows: list[dict[str, object]], baseline: dict[str, float], with_scrub: bool) -> None:
    step = "read + scrub" if with_scrub else "read (no scrub)"
    print(f"baseline in this run: python -c pass {baseline['pass_ms']:.0f} ms; an interpreter that "
          f"imports the readers peaks at {baseline['peak_rss_mb']} MB RSS")
    print(f"| reader | session MB | {step} s | x python -c pass | MB/s | peak RSS MB | tracemalloc peak MB "
          "| turns | skipped | read + rules s | target (2 s, 100 MB) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        wall, rss = float(r["wall_s"]), float(r["peak_rss_mb"])  # type: ignore[arg-type]
        extract = float(r["extract_s"])  # type: ignore[arg-type]
        ok = "met" if wall <= 2 and rss <= 100 and not extract > 2 else "NOT met"
        ratio = wall * 1000 / baseline["pass_ms"]
        rate = float(r["mb"]) / max(wall, 1e-6)  # type: ignore[arg-type]
        print(f"| {r['kind']} | {r['mb']} | {wall:.3f} | {ratio:.0f} | {rate:.0f} | {rss} | "
              f"{r['tracemalloc_mb']} | {r['turns']} | {r['skipped']} | {extract:.3f} | {ok} |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", action="append", choices=KINDS, help="one reader (repeat for more)")
    parser.add_argument("--size-mb", type=int, default=50)
    parser.add_argument("--file", help="measure this transcript (with one --kind) instead of generating")
    parser.add_argument("--no-scrub", action="store_true", help="time the readers alone")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--tracemalloc", help=argparse.SUPPRESS)
    parser.add_argument("--baseline", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    kinds = args.kind or list(KINDS)
    if args.measure:
        print(json.dumps(measure(kinds[0], args.measure, not args.no_scrub)))
    elif args.tracemalloc:
        print(measure_tracemalloc(kinds[0], args.tracemalloc))
    elif args.baseline:
        import chord_memory.transcripts  # noqa: F401

        print(json.dumps({"peak_rss_mb": _peak_rss_mb()}))
    else:
        baseline = {"pass_ms": min(_pass_ms() for _ in range(5)), **json.loads(_child("--baseline"))}
        rows = []
        if args.file:
            size = os.path.getsize(args.file) / 1024 / 1024
            rows.append(_row(kinds[0], args.file, size, not args.no_scrub))
        else:
            for kind in kinds:
                with tempfile.TemporaryDirectory() as tmp:
                    folder = os.path.join(tmp, "bench-data")
                    os.mkdir(folder)
                    path = generate(kind, folder, args.size_mb)
                    size = sum(os.path.getsize(os.path.join(d, f))
                               for d, _, fs in os.walk(folder) for f in fs) / 1024 / 1024
                    rows.append(_row(kind, path, size, not args.no_scrub))
        _table(rows, baseline, not args.no_scrub)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
