"""Helpers shared by the benchmarks: timing child processes and building memory repos."""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "bench@example.com",
}


def bench_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure with bytecode, as an installed package runs
    env.update(GIT_ENV, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    return env


def sized_runs(runs: int, sizes: str) -> tuple[int, list[int]]:
    """`--runs N --sizes A,B,C` of a benchmark, with its defaults: (runs, sizes)."""
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--sizes", default=sizes)
    args = parser.parse_args()
    return args.runs, [int(s) for s in args.sizes.split(",")]


def compile_package() -> None:
    import chord_memory

    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.dirname(chord_memory.__file__)],
                   check=True)


def median_ms(cmd: Sequence[str], cwd: Path, env: dict[str, str], runs: int) -> float:
    subprocess.run(cmd, cwd=cwd, env=env, capture_output=True)  # warm caches once
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, env=env, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def record(i: int) -> tuple[str, str, str]:
    """(id, index line, file text) of a realistic record of about 600 bytes."""
    rid = f"20261129-bench-record-{i:06d}"
    summary = f"Benchmark preference number {i} about the build and the test suite."
    text = (
        f"---\nid: {rid}\ntype: preference\nsource: user\nstatus: stated\nactor: auto\n"
        f"created: 2026-11-29T23:50:00Z\nsession: bench:{i}\nsupersedes: null\nsummary: {summary}\n"
        "---\n## Conclusion\nRun the unit tests with `make test` before pushing; the integration "
        "suite runs in CI only.\n\n## Why\nThe user said local integration runs need credentials "
        "that developers do not have.\n\n## How to apply\nBefore a push, run `make test` and "
        "leave the integration suite to CI.\n"
    )
    return rid, f"- preference: {summary} ([{rid}](.chord/memory/records/{rid}.md))", text


def memory_repo(path: Path, count: int, env: dict[str, str]) -> Path:
    """A committed repository with `count` records, all indexed."""
    records = path / ".chord/memory/records"
    records.mkdir(parents=True)
    lines = []
    for i in range(count):
        rid, line, text = record(i)
        (records / f"{rid}.md").write_text(text)
        lines.append(line)
    body = "".join(line + "\n" for line in lines)
    (path / "MEMORY.md").write_text(
        f"# Project memory\n\n<!-- chord-memory:begin -->\n{body}<!-- chord-memory:end -->\n")
    return commit_all(path, env)


def commit_all(path: Path, env: dict[str, str]) -> Path:
    """`path` made a repository with everything in it committed."""
    git = ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], cwd=path, env=env, check=True)
    subprocess.run([*git, "add", "-A"], cwd=path, env=env, check=True)
    subprocess.run([*git, "commit", "-qm", "memory"], cwd=path, env=env, check=True)
    return path


def table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    fmt = "| " + " | ".join(f"{{:{w}}}" for w in widths) + " |"
    out = [fmt.format(*header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [fmt.format(*r) for r in rows]
    return "\n".join(out)
