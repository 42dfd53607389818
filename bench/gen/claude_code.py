"""A Claude Code session of at least N MB, mostly tool output, as real ones are (bench/extract.py).

Results from 2 KB to 3 MB, each stored twice as Claude Code does (the message and
``toolUseResult``), so lines reach 6 MB.
"""
from __future__ import annotations

import json
import os
import random

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


_WORDS = ("the", "release", "job", "runs", "on", "main", "after", "tests", "pass", "and", "we", "sign",
          "builds", "with", "keys", "from", "vault", "never", "push", "tags", "by", "hand", "deploy",
          "staging", "first", "because", "QA", "checks", "it", "there")


def prose(rng: random.Random, words: int) -> str:
    """Sentences of plain words: long enough prompts and replies for the echo filter to index."""
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def _assistant(n: int, mid: str, block: dict[str, object]) -> str:
    message = {"model": "claude-sonnet-4-5", "id": mid, "type": "message", "role": "assistant",
               "content": [block], "stop_reason": None, "usage": {"output_tokens": 9}}
    return _line("assistant", n, message=message)


def generate(folder: str, size_mb: int, seed: int = 1) -> str:
    """Turns of: prompt, thinking, text, tool calls whose results dwarf the rest."""
    rng, n, limit = random.Random(seed), 0, size_mb * 1024 * 1024
    path = os.path.join(folder, f"{_SID}.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        while f.tell() < limit:
            n += 1
            f.write(_line("user", n, message={"role": "user", "content": f"Prompt {n}: {prose(rng, 30)}"}))
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
            reply = {"type": "text", "text": f"Done with {n}. {prose(rng, 120)}"}
            f.write(_assistant(n, f"msg_r{n:019d}", reply))
    return path
