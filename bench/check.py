"""How long `check --all` and `summary` take at 10, 1,000 and 10,000 records.

Beside them, in the same run: `python -c pass` and `git status` in the same repository.
Run: .venv/bin/python bench/check.py [--runs N]
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_env, compile_package, median_ms, memory_repo, sized_runs, table


def cold_ms(cmd: list[str], repo: Path, env: dict[str, str]) -> float:
    shutil.rmtree(repo / ".git/chord-memory/cache", ignore_errors=True)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=repo, env=env, capture_output=True)
    return (time.perf_counter() - start) * 1000


def main() -> int:
    total, sizes = sized_runs(15, "10,1000,10000")
    compile_package()
    cli = [str(Path(sys.executable).with_name("chord-memory"))]  # the console script hooks run
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        env = bench_env(Path(tmp) / "home")
        base = Path(tmp)
        for size in sizes:
            repo = memory_repo(base / f"r{size}", size, env)
            runs = total if size < 10_000 else max(3, total // 3)
            py = median_ms([sys.executable, "-c", "pass"], repo, env, total)
            gst = median_ms(["git", "status", "--porcelain"], repo, env, runs)
            cold = cold_ms([*cli, "check", "--all"], repo, env)
            chk = median_ms([*cli, "check", "--all"], repo, env, runs)
            summ = median_ms([*cli, "summary"], repo, env, runs)
            rows.append((f"{size:,}", f"{py:.1f}", f"{gst:.1f}", f"{cold:.0f}", f"{chk:.1f}",
                         f"{chk / py:.1f}x", f"{summ:.1f}", f"{summ / py:.1f}x"))
    print(table(rows, ("records", "python -c pass ms", "git status ms", "check cold ms",
                       "check warm ms", "check / pass", "summary ms", "summary / pass")))
    print("\ncold: the first run, with no cache in .git/chord-memory/cache; warm: the median after it")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
