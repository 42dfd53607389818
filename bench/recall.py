"""Recall latency for both backends, and the cost of bringing the index up to date.

At 100, 1,000 and 10,000 records (tests/recall/corpus.py), in one run:
`python -c pass`; `recall` end to end with the sqlite backend (warm index) and
the file backend (warm parse cache), for a query that many records match and
for one that none matches (the file scan reads every record, the worst case);
the same selection in-process, with the interpreter started and the imports paid,
which is the backends' own time (end to end, both pay the same ~25 ms before
either starts: the interpreter, argparse and sqlite3); and, after adding one new
record and its index line, the in-process time to bring the index up to date and
the whole `recall` command that does it.

Run: .venv/bin/python bench/recall.py [--runs N] [--sizes 100,1000,10000]
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.recall.corpus
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_env, commit_all, compile_package, sized_runs, table
from tests.recall import corpus

COMMON = "how should payments handle retries"
RARE = "kubernetes autoscaling quotas"
# In a child process, so the imports are paid before the clock starts.
_UPDATE = """
import time
from chord_memory.recall import options, schema, update
key = options.config_key('.'); opts = options.from_config('.')
conn = schema.connect('.')
start = time.perf_counter()
if not schema.is_fresh(conn, '.', key, schema.read_meta(conn)):
    update.bring_up_to_date(conn, '.', key, opts)
print((time.perf_counter() - start) * 1000)
"""
# What `recall` does after argument parsing, for each backend and query, timed in turns.
_SELECT = """
import statistics, sys, time
from chord_memory.commands.recall import select
from chord_memory.recall import filescan, store, update  # noqa: F401 - imports paid up front
runs, queries = int(sys.argv[1]), {"common": sys.argv[2], "rare": sys.argv[3]}
cases = [(b, k) for b in ("sqlite", "file") for k in queries]
times = {case: [] for case in cases}
for case in cases:
    select(".", queries[case[1]], None, case[0])
for _ in range(runs):
    for backend, kind in cases:
        start = time.perf_counter()
        select(".", queries[kind], None, backend)
        times[backend, kind].append((time.perf_counter() - start) * 1000)
for (backend, kind), t in times.items():
    print(f"{backend}-{kind} {statistics.median(t)}")
"""


def interleaved(cmds: dict[str, list[str]], cwd: Path, env: dict[str, str], runs: int) -> dict[str, float]:
    """Median ms of each command, run in turns so that all see the same machine load."""
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for cmd in cmds.values():
        subprocess.run(cmd, cwd=cwd, env=env, capture_output=True)  # warm caches once
    for _ in range(runs):
        for name, cmd in cmds.items():
            start = time.perf_counter()
            subprocess.run(cmd, cwd=cwd, env=env, capture_output=True)
            times[name].append((time.perf_counter() - start) * 1000)
    return {name: statistics.median(t) for name, t in times.items()}


def build(path: Path, size: int, env: dict[str, str]) -> tuple[Path, list[corpus.Rec]]:
    recs = corpus.records(size)
    path.mkdir(parents=True)
    corpus.write(path, recs)
    return commit_all(path, env), recs


def sized_repos(tmp: str, sizes: list[int]) -> Iterator[tuple[int, Path, dict[str, str]]]:
    """For each size, a committed repository of that many corpus records, and the
    environment to run chord-memory in (a home of its own under ``tmp``)."""
    env = bench_env(Path(tmp) / "home")
    for size in sizes:
        yield size, build(Path(tmp) / f"r{size}", size, env)[0], env


def add_one(repo: Path, n: int) -> None:
    """A new record file and its line at the top of the index, as extraction writes them."""
    rec = corpus.make(10_000_000 + n, "payments", corpus.CONCERNS[1], 99)
    (repo / corpus.REC / f"{rec.id}.md").write_text(rec.text)
    md = repo / "MEMORY.md"
    text = md.read_text().replace("<!-- chord-memory:begin -->\n",
                                  f"<!-- chord-memory:begin -->\n{corpus.entry(rec)}\n", 1)
    md.write_text(text)


def incremental(repo: Path, env: dict[str, str], cli: list[str], runs: int) -> tuple[float, float]:
    """(in-process update ms, end-to-end recall ms) after one new record, medians."""
    inproc, whole = [], []
    for n in range(runs):
        add_one(repo, 2 * n)
        out = subprocess.run([sys.executable, "-c", _UPDATE], cwd=repo, env=env, check=True,
                             capture_output=True, text=True).stdout
        inproc.append(float(out))
        add_one(repo, 2 * n + 1)
        start = time.perf_counter()
        subprocess.run([*cli, "recall", COMMON], cwd=repo, env=env, check=True, capture_output=True)
        whole.append((time.perf_counter() - start) * 1000)
    return statistics.median(inproc), statistics.median(whole)


def in_process(repo: Path, env: dict[str, str], runs: int) -> dict[str, float]:
    """Median ms of `select` for each backend and query, in one warm process, in turns."""
    out = subprocess.run([sys.executable, "-c", _SELECT, str(runs), COMMON, RARE], cwd=repo, env=env,
                         check=True, capture_output=True, text=True).stdout
    return {name: float(ms) for name, ms in (line.split() for line in out.splitlines())}


def main() -> int:
    total, sizes = sized_runs(15, "100,1000,10000")
    compile_package()
    cli = [str(Path(sys.executable).with_name("chord-memory"))]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size, repo, env in sized_repos(tmp, sizes):
            runs = total if size < 10_000 else max(5, total // 2)
            t = interleaved({"pass": [sys.executable, "-c", "pass"], **{
                f"{backend}-{kind}": [*cli, "recall", query, "--backend", backend]
                for backend in ("sqlite", "file") for kind, query in (("common", COMMON), ("rare", RARE))
            }}, repo, env, runs)
            own = in_process(repo, env, runs)
            py = t["pass"]
            row = [f"{size:,}", f"{py:.1f}"]
            for kind in ("common", "rare"):
                sq, fl = t[f"sqlite-{kind}"], t[f"file-{kind}"]
                row += [f"{sq:.1f} ({sq / py:.1f}x)", f"{fl:.1f}", f"{fl / sq:.1f}x"]
            for kind in ("common", "rare"):
                sq, fl = own[f"sqlite-{kind}"], own[f"file-{kind}"]
                row += [f"{sq:.2f}", f"{fl:.1f}", f"{fl / sq:.1f}x"]
            upd, whole = incremental(repo, env, cli, max(3, runs // 2))
            rows.append((*row, f"{upd:.1f}", f"{whole:.1f}"))
    print(table(rows, (
        "records", "python -c pass ms",
        "sqlite ms, common (/ pass)", "file ms, common", "file / sqlite",
        "sqlite ms, rare (/ pass)", "file ms, rare", "file / sqlite",
        "in-process: sqlite ms, common", "file ms, common", "file / sqlite",
        "sqlite ms, rare", "file ms, rare", "file / sqlite",
        "update after 1 new record ms", "recall after 1 new record ms",
    )))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
