"""A Cursor agent transcript (``agent-transcripts/<id>/<id>.jsonl``) of at least N MB.

In Cursor's shape: ``{"role", "message": {"content": [...]}}`` lines with the prompt in
``<user_query>`` behind a ``<timestamp>`` (and, now and then, attached code and the open
files), assistant lines of text and ``tool_use`` blocks, ``turn_ended`` lines. Cursor
keeps no tool results, so the bulk is tool input: files written (2 KB to 3 MB, a few
6 MB), replaced strings, shell commands, plans. Standard library only; the same ``seed``
gives the same bytes.
"""
from __future__ import annotations

import json
import os
import random

_SID = "6a1d9e3c-2f4b-4c8a-9e7d-1b2c3d4e5f60"
_ROOT = "/home/dev/src/app"
_WORDS = ("the", "release", "job", "runs", "on", "main", "after", "tests", "pass", "and", "we", "sign",
          "builds", "with", "keys", "from", "vault", "never", "push", "tags", "by", "hand", "deploy",
          "staging", "first", "because", "QA", "checks", "it", "there")
_TS = "<timestamp>Tuesday, Mar 3, 2026, 10:14 AM (UTC+1)</timestamp>\n"


def _line(obj: dict[str, object]) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n"


def _prose(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def _code(rng: random.Random, size: int) -> str:
    names = ["def", "return", "self", "value", "path", "import", "os", "if", "else", "for"]
    rows: list[str] = []
    total = 0
    while total < size:
        row = f'    {rng.choice(names)} "{rng.choice(names)}" = {rng.randrange(10**6)}  # {"x" * 20}'
        rows.append(row)
        total += len(row) + 1
    return "\n".join(rows)


def _user(text: str) -> str:
    return _line({"role": "user", "message": {"content": [{"type": "text", "text": text}]}})


def _assistant(*blocks: dict[str, object]) -> str:
    return _line({"role": "assistant", "message": {"content": list(blocks)}})


def _tool(rng: random.Random, n: int) -> dict[str, object]:
    kind = rng.choices(["Write", "StrReplace", "Shell", "Read", "Grep"], [5, 3, 2, 3, 1])[0]
    path = f"{_ROOT}/src/m{n % 40}.py"
    if kind == "Write":
        size = rng.choices([2_000, 20_000, 80_000, 400_000, 3_000_000, 6_000_000], [4, 4, 3, 2, 1, 0.2])[0]
        args: dict[str, object] = {"path": path, "contents": _code(rng, size)}
    elif kind == "StrReplace":
        args = {"path": path, "old_string": _code(rng, rng.randrange(200, 40_000)),
                "new_string": _code(rng, rng.randrange(200, 40_000))}
    elif kind == "Shell":
        args = {"command": f"pytest -q tests/test_m{n % 40}.py", "description": _prose(rng, 8)}
    elif kind == "Read":
        args = {"path": path}
    else:
        args = {"pattern": rng.choice(_WORDS), "path": _ROOT}
    return {"type": "tool_use", "name": kind, "input": args}


def _prompt(rng: random.Random, n: int) -> str:
    context = ""
    if rng.random() < 0.3:
        rows = "\n".join(f"{i:6}|{row}" for i, row in enumerate(_code(rng, 3_000).splitlines(), 1))
        context = (f'<attached_files>\n<code_selection path="{_ROOT}/src/m{n % 40}.py" lines="1-40">\n'
                   f"{rows}\n</code_selection>\n</attached_files>\n")
    return _user(f"{context}{_TS}<user_query>\nPrompt {n}: {_prose(rng, 30)}\n</user_query>")


def generate(folder: str, size_mb: int, seed: int = 1) -> str:
    """Turns of: prompt, a preamble with a tool call, tool calls, the reply, turn_ended."""
    rng, n, limit = random.Random(seed), 0, size_mb * 1024 * 1024
    path = os.path.join(folder, "agent-transcripts", _SID, f"{_SID}.jsonl")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(_line({"type": "metadata", "metadata": {"overview": "Bench session"}}))
        while f.tell() < limit:
            n += 1
            f.write(_prompt(rng, n))
            f.write(_assistant({"type": "text", "text": f"Looking at m{n % 40}.py first.\n\n[REDACTED]"},
                               _tool(rng, n)))
            for _ in range(rng.randrange(3, 12)):
                n += 1
                f.write(_assistant({"type": "text", "text": "[REDACTED]"}, _tool(rng, n)))
            if rng.random() < 0.1:
                plan = "\n".join(f"{i}. {_prose(rng, 25)}" for i in range(1, 12))
                args = {"name": f"Plan {n}", "overview": _prose(rng, 20), "plan": plan}
                f.write(_assistant({"type": "text", "text": "Here is the plan."},
                                   {"type": "tool_use", "name": "CreatePlan", "input": args}))
            f.write(_assistant({"type": "text", "text": f"Done with {n}. {_prose(rng, 120)}\n\n[REDACTED]"}))
            f.write(_line({"type": "turn_ended", "status": "success"}))
    return path
