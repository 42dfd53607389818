"""What a post-commit hook costs a real `git commit` (output captured, as harnesses run it).

In one run, N commits each (default 20), taken in turns, of:
  no hook | a raw hook running `python -c pass` | our raw hook (memory on, off) |
  pre-commit with a no-op Python hook | our hook through pre-commit.
Targets (docs/performance.md): our raw hook <= 1.5x the `python -c pass` hook; through
pre-commit, <= pre-commit's no-op hook + 50 ms.

Run: .venv/bin/python bench/hooks.py [--commits N]
(PRE_COMMIT_HOME is reused when set; otherwise the hook environments are built in a
temporary folder first, which takes a minute and is not measured.)
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_env, compile_package, table

ROOT = Path(__file__).resolve().parents[1]
GIT = ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"]
ON = "memory:\n  enabled: true\n"


def snapshot(dst: Path, env: dict[str, str]) -> str:
    """This checkout, uncommitted changes included, as a repository pre-commit can install."""
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(dst)], check=True, env=env)
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            check=True, capture_output=True, env=env).stdout.decode().split("\0")
    for rel in filter(None, listed):
        if (ROOT / rel).is_file():
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dst / rel)
    subprocess.run(["git", "add", "-A"], cwd=dst, check=True, env=env)
    subprocess.run([*GIT, "commit", "-qm", "bench", "--allow-empty"], cwd=dst, check=True, env=env)
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=dst, check=True, env=env,
                          capture_output=True, text=True).stdout.strip()


def new_repo(path: Path, env: dict[str, str], config: str | None) -> Path:
    path.mkdir(parents=True)
    subprocess.run([*GIT, "init", "-q"], cwd=path, check=True, env=env)
    if config is not None:
        (path / ".chord").mkdir()
        (path / ".chord/config.yaml").write_text(config)
    return path


def raw_hook(repo: Path, text: str) -> None:
    hook = repo / ".git/hooks/post-commit"
    hook.write_text(text)
    hook.chmod(0o755)


def ours_raw(repo: Path, env: dict[str, str]) -> None:
    from chord_memory.commands.install import render

    raw_hook(repo, render("post-commit", sys.executable))
    subprocess.run([sys.executable, "-m", "chord_memory", "status"], cwd=repo, env=env, check=True,
                   capture_output=True)  # warms the settings cache, as any earlier command would


def pre_commit(repo: Path, env: dict[str, str], hooks_yaml: str) -> None:
    (repo / ".pre-commit-config.yaml").write_text(hooks_yaml)
    subprocess.run([sys.executable, "-m", "pre_commit", "install", "-t", "post-commit"], cwd=repo,
                   env=env, check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "pre_commit", "install-hooks"], cwd=repo, env=env,
                   check=True, capture_output=True)
    subprocess.run(["git", "add", "-A"], cwd=repo, env=env, check=True)


NOOP = """repos:
- repo: local
  hooks:
  - id: noop
    name: noop
    entry: python -c pass
    language: python
    always_run: true
    pass_filenames: false
    stages: [post-commit]
"""


def ours_yaml(url: str, rev: str) -> str:
    return f"repos:\n- repo: {url}\n  rev: {rev}\n  hooks:\n  - id: chord-memory-extract\n"


def idle(repo: Path) -> None:
    """Wait for the background worker (if any) to finish, so it never overlaps the next setup."""
    state = repo / ".git/chord-memory"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        pending = state / "pending"
        busy = pending.exists() and any(pending.iterdir())
        free = subprocess.run([sys.executable, "-c", "import sys; from chord_memory import lock; "
                               "sys.exit(0 if lock.is_free(sys.argv[1]) else 1)", str(state)]).returncode
        if not busy and free == 0:
            return
        time.sleep(0.2)


def interleaved(repos: list[Path], env: dict[str, str], n: int) -> list[list[float]]:
    """n commits in each repository, taken in turns, so a busy machine slows all alike."""
    cmd = [*GIT, "commit", "-q", "--allow-empty", "-m", "bench"]
    for repo in repos:
        subprocess.run(cmd, cwd=repo, env=env, capture_output=True, check=True)  # warm
    times: list[list[float]] = [[] for _ in repos]
    for _ in range(n):
        for i, repo in enumerate(repos):
            start = time.perf_counter()
            done = subprocess.run(cmd, cwd=repo, env=env, capture_output=True)
            times[i].append((time.perf_counter() - start) * 1000)
            assert done.returncode == 0, done.stderr
    return times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commits", type=int, default=20)
    args = parser.parse_args()
    compile_package()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        env = bench_env(base / "home")
        env.setdefault("PRE_COMMIT_HOME", os.environ.get("PRE_COMMIT_HOME") or str(base / "pc-home"))
        rev = snapshot(base / "chord-memory", env)
        py = f"#!/bin/sh\n{sys.executable} -c pass\n"
        setups: list[tuple[str, str | None, Callable[[Path], None]]] = [
            ("no hook", ON, lambda r: None),
            ("raw hook: python -c pass", ON, lambda r: raw_hook(r, py)),
            ("our raw hook, memory on (starts the worker)", ON, lambda r: ours_raw(r, env)),
            ("our raw hook, memory off", None, lambda r: ours_raw(r, env)),
            ("pre-commit: no-op python hook", ON, lambda r: pre_commit(r, env, NOOP)),
            ("pre-commit: chord-memory-extract", ON,
             lambda r: pre_commit(r, env, ours_yaml(str(base / "chord-memory"), rev))),
        ]
        repos = []
        for i, (_, config, setup) in enumerate(setups):
            repos.append(new_repo(base / f"r{i}", env, config))
            setup(repos[-1])
        times = interleaved(repos, env, args.commits)
        for repo in repos:
            idle(repo)
        pairs = zip((s[0] for s in setups), times, strict=True)
        rows = [(name, statistics.median(t), min(t), max(t)) for name, t in pairs]
    by = {r[0]: r[1] for r in rows}
    out = [(n, f"{med:.1f}", f"{lo:.1f}", f"{hi:.1f}") for n, med, lo, hi in rows]
    print(table(out, ("git commit with", "median ms", "min ms", "max ms")))
    raw = by["our raw hook, memory on (starts the worker)"] / by["raw hook: python -c pass"]
    off = by["our raw hook, memory off"] / by["raw hook: python -c pass"]
    extra = by["pre-commit: chord-memory-extract"] - by["pre-commit: no-op python hook"]
    print(f"\nour raw hook / python -c pass hook: {raw:.2f}x (memory on), {off:.2f}x (memory off); "
          "target <= 1.5x")
    print(f"through pre-commit, ours - no-op: {extra:+.1f} ms; target <= +50 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
