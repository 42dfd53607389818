"""Benchmark: read (and scrub) a large Claude Code transcript that is mostly tool output.

    .venv/bin/python bench/extract.py                 # generates 50 MB in a temp dir
    .venv/bin/python bench/extract.py --size-mb 200
    .venv/bin/python bench/extract.py --file PATH     # an existing transcript
    .venv/bin/python bench/extract.py --no-scrub      # the readers alone

Target (issue): read + scrub of 50 MB in <= 2 s with peak memory <= 100 MB.
Each measurement runs in a fresh interpreter so the generator's memory does not
count; ``wc -l`` on the same file is printed beside it as the floor.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import cast

_CWD = "/home/dev/src/app"
_SID = "5d0c8f3e-2a41-4f7b-9c1d-6e2b7a9f0c11"


def _line(kind: str, n: int, **fields: object) -> str:
    base: dict[str, object] = {
        "parentUuid": f"00000000-0000-4000-8000-{n - 1:012d}",
        "isSidechain": False,
        "userType": "external",
        "cwd": _CWD,
        "sessionId": _SID,
        "version": "2.0.14",
        "gitBranch": "main",
        "type": kind,
    }
    base.update(fields)
    base["uuid"] = f"00000000-0000-4000-8000-{n:012d}"
    base["timestamp"] = "2025-10-03T09:00:00.000Z"
    return json.dumps(base, separators=(",", ":"), ensure_ascii=False) + "\n"


def _code(rng: random.Random, size: int) -> str:
    words = ["def", "return", "self", "value", "path", "import", "os", "if", "else", "for"]
    out: list[str] = []
    total = 0
    while total < size:
        row = f'    {rng.choice(words)} "{rng.choice(words)}"\t= {rng.randrange(10**6)}  # {"x" * 20}'
        out.append(f"{len(out) + 1:6}\u2192{row}")
        total += len(row) + 8
    return "\n".join(out)


def _assistant(n: int, mid: str, block: dict[str, object]) -> str:
    message = {"model": "claude-sonnet-4-5", "id": mid, "type": "message", "role": "assistant",
               "content": [block], "stop_reason": None, "usage": {"output_tokens": 9}}
    return _line("assistant", n, message=message)


def generate(path: str, size_mb: int, seed: int = 1) -> None:
    """Turns of: prompt, thinking, text, tool calls whose results dwarf the rest."""
    rng, n, limit = random.Random(seed), 0, size_mb * 1024 * 1024
    with open(path, "w", encoding="utf-8") as f:
        while f.tell() < limit:
            n += 1
            f.write(_line("user", n, message={"role": "user", "content": f"Prompt {n}: fix it."}))
            mid = f"msg_{n:020d}"
            n += 1
            f.write(_assistant(n, mid, {"type": "thinking", "thinking": "hmm " * 200}))
            for call in range(rng.randrange(3, 9)):
                n += 1
                tool_id = f"toolu_{n:020d}"
                f.write(_assistant(n, mid, {"type": "tool_use", "id": tool_id, "name": "Read",
                                            "input": {"file_path": f"{_CWD}/m{call}.py"}}))
                size = rng.choices([2_000, 20_000, 80_000, 400_000, 3_000_000], [4, 4, 3, 2, 1])
                body = _code(rng, size[0])
                n += 1
                result = [{"tool_use_id": tool_id, "type": "tool_result", "content": body}]
                f.write(_line("user", n, message={"role": "user", "content": result},
                              toolUseResult={"type": "text", "file": {"content": body}}))
            n += 1
            f.write(_assistant(n, f"msg_r{n:019d}", {"type": "text", "text": f"Done with {n}."}))


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


def measure(path: str, with_scrub: bool = True) -> dict[str, float]:
    """Read and scrub ``path``; wall time and memory of this (fresh) process."""
    from chord_memory.transcripts import read_session

    scrub = _scrubber() if with_scrub else None
    start = time.perf_counter()
    session = read_session("claude-code", path)
    texts = [scrub(t.text) if scrub else t.text for t in session.turns]
    wall = time.perf_counter() - start
    return {"wall_s": round(wall, 3), "peak_rss_mb": _peak_rss_mb(),
            "turns": len(texts), "skipped": session.skipped, "scrubbed": scrub is not None}


def measure_tracemalloc(path: str) -> float:
    """Peak Python allocations (MB) while reading: slower, so timed apart."""
    import tracemalloc

    from chord_memory.transcripts import read_session

    tracemalloc.start()
    read_session("claude-code", path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return round(peak / 1024 / 1024, 1)


def _child(*args: str) -> str:
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True)
    if out.returncode != 0:
        tail = out.stderr.decode(errors="replace").strip().splitlines()[-1:]
        raise SystemExit(f"measuring failed: {tail[0] if tail else out.returncode}")
    return out.stdout.decode().strip()


def _report(path: str, with_scrub: bool) -> None:
    size = os.path.getsize(path) / 1024 / 1024
    start = time.perf_counter()
    lines = subprocess.run(["wc", "-l", path], check=True, capture_output=True).stdout.split()[0]
    wc = time.perf_counter() - start
    baseline = json.loads(_child("--baseline"))
    result = json.loads(_child("--measure", path, *([] if with_scrub else ["--no-scrub"])))
    traced = _child("--tracemalloc", path)
    print(f"file: {size:.1f} MB, {int(lines)} lines; wc -l: {wc:.3f} s")
    step = "read_session + scrub" if result["scrubbed"] else "read_session (no scrub)"
    print(f"{step}: {result['wall_s']} s, peak RSS {result['peak_rss_mb']} MB "
          f"(interpreter + imports alone: {baseline['peak_rss_mb']} MB), "
          f"tracemalloc peak {traced} MB")
    print(f"turns {result['turns']}, skipped {result['skipped']}, scrubbed {result['scrubbed']}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=50)
    parser.add_argument("--file", help="measure this transcript instead of generating one")
    parser.add_argument("--no-scrub", action="store_true", help="time the readers alone")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--tracemalloc", help=argparse.SUPPRESS)
    parser.add_argument("--baseline", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.measure, not args.no_scrub)))
    elif args.tracemalloc:
        print(measure_tracemalloc(args.tracemalloc))
    elif args.baseline:
        import chord_memory.transcripts  # noqa: F401

        print(json.dumps({"peak_rss_mb": _peak_rss_mb()}))
    elif args.file:
        _report(args.file, not args.no_scrub)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, f"{_SID}.jsonl")
            generate(path, args.size_mb)
            _report(path, not args.no_scrub)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
