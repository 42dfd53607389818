"""Recall on every prompt: Claude Code's UserPromptSubmit hook, ÷ `python -c pass`.

`chord-memory recall --format claude-code` with the hook's JSON on stdin, in repositories
of 100, 1,000 and 10,000 records (tests/recall/corpus.py, sqlite index warm), interleaved
with `python -c pass` in one run. Three prompts: the first of a session that many records
match (a new session id each run, so something is always printed), the same prompt again
in one session (what it was given is left out: a second, longer query), and a prompt that
matches nothing (nothing is printed).

Run: .venv/bin/python bench/prompt.py [--runs N] [--sizes 100,1000,10000]
"""
from __future__ import annotations

import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.recall.corpus
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import compile_package, sized_runs, table

from recall import sized_repos

COMMON = "How should the payments service handle retries when the provider times out?"
RARE = "kubernetes autoscaling quotas"
_fresh = itertools.count()


def hook_input(repo: Path, prompt: str, session: str) -> bytes:
    return json.dumps({"session_id": session, "transcript_path": str(repo / "t.jsonl"),
                       "cwd": str(repo), "permission_mode": "default",
                       "hook_event_name": "UserPromptSubmit", "prompt": prompt}).encode()


def cases(repo: Path) -> dict[str, tuple[list[str], object]]:
    """name: (command, stdin or a function giving it for each run)."""
    hook = [str(Path(sys.executable).with_name("chord-memory")), "recall", "--format", "claude-code"]
    return {
        "pass": ([sys.executable, "-c", "pass"], b""),
        "new session": (hook, lambda: hook_input(repo, COMMON, f"bench-{next(_fresh)}")),
        "same session": (hook, hook_input(repo, COMMON, "bench-same")),
        "nothing relevant": (hook, hook_input(repo, RARE, "bench-rare")),
    }


def interleaved(repo: Path, env: dict[str, str], runs: int) -> dict[str, float]:
    todo = cases(repo)
    times: dict[str, list[float]] = {name: [] for name in todo}
    for _ in range(runs + 1):  # the first round warms the caches and is not counted
        for name, (cmd, stdin) in todo.items():
            data = stdin() if callable(stdin) else stdin
            start = time.perf_counter()
            done = subprocess.run(cmd, cwd=repo, env=env, input=data, capture_output=True)
            elapsed = (time.perf_counter() - start) * 1000
            if done.returncode != 0:
                raise SystemExit(f"{name}: exit {done.returncode}: {done.stderr.decode()}")
            if name == "new session" and b"additionalContext" not in done.stdout:
                raise SystemExit("the new session's prompt recalled nothing")
            if name == "nothing relevant" and done.stdout:
                raise SystemExit("a prompt that matches nothing printed something")
            if _ or name == "pass":
                times[name].append(elapsed)
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> int:
    runs, sizes = sized_runs(21, "100,1000,10000")
    compile_package()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size, repo, env in sized_repos(tmp, sizes):
            t = interleaved(repo, env, runs)
            py = t["pass"]
            rows.append((f"{size:,}", f"{py:.1f}", *(f"{t[k]:.1f} ({t[k] / py:.1f}x)" for k in
                                                     ("new session", "same session", "nothing relevant"))))
    print(table(rows, ("records", "python -c pass ms", "new session ms (/ pass)",
                       "same session ms (/ pass)", "nothing relevant ms (/ pass)")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
