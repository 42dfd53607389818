"""Secrets benchmark: throughput against detect-secrets, the hook's cost, quality on the corpus.

    .venv/bin/python bench/secrets.py            # 20 MB file, 1 MB slice for detect-secrets
    .venv/bin/python bench/secrets.py --quick    # 4 MB file, 256 KB slice, fewer repeats

Everything is measured in the same run. detect-secrets is slow (about 0.1 MB/s), so it
scans the first part of the same file and its rate is extrapolated; the table says how much.
Timings of child processes use a bytecode cache in a temporary folder (as an installed
package has), whatever PYTHONDONTWRITEBYTECODE says.
"""
from __future__ import annotations

import argparse
import os
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller file, fewer repeats")
    parser.add_argument("--size", type=int, help="bytes of Markdown to generate")
    parser.add_argument("--ds-slice", type=int, help="bytes detect-secrets scans")
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
