"""A Gemini CLI chat recording of at least N MB, mostly tool output, as real ones are (bench/extract.py).

``layout="document"`` (the default) writes what Gemini CLI up to 0.38 writes: one JSON
document, pretty-printed with two spaces, whose ``messages`` hold per turn the prompt,
``gemini`` messages whose ``toolCalls`` carry the output twice (``result`` for the model,
``resultDisplay`` for the screen; 2 KB to 3 MB each), an intermediate and a final reply.
``layout="jsonl"`` writes the same turns as 0.39 and later do: a metadata line, every message
appended again on each update, tool responses as ``user`` messages, ``$set`` updates.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
from typing import Any

_ROOT = "/home/dev/src/app"
_ID = "5b1f3c2e-8d4a-4e6b-9c7d-2a1b3c4d5e6f"
_WORDS = ("the", "release", "job", "runs", "on", "main", "after", "tests", "pass", "and", "we", "sign",
          "builds", "with", "keys", "from", "vault", "never", "push", "tags", "by", "hand", "deploy")
_TIME = "2026-06-05T10:00:00.000Z"


def _prose(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def _turns(rng: random.Random, limit: int) -> Any:
    """(prompt, [(call id, command, output)], final reply) until about ``limit`` bytes of output."""
    n, written = 0, 0
    while written < limit:
        n += 1
        calls = []
        for call in range(rng.randrange(3, 9)):
            size = rng.choices([2_000, 20_000, 80_000, 400_000, 3_000_000], [4, 4, 3, 2, 1])[0]
            body = "\n".join(f"{i:6}  value = {rng.randrange(10**6)}  # {'x' * 20}"
                             for i in range(size // 40))
            calls.append((f"run_shell_command-{n}-{call}", f"cat m{call}.py", body))
            written += 2 * len(body)
        yield n, f"Prompt {n}: {_prose(rng, 30)}", calls, f"Done with {n}. {_prose(rng, 120)}"


def _tool_call(call_id: str, command: str, body: str, status: str = "success") -> dict[str, Any]:
    response = {"functionResponse": {"id": call_id, "name": "run_shell_command",
                                     "response": {"output": f"Command: {command}\nOutput: {body}"}}}
    return {"id": call_id, "name": "run_shell_command", "args": {"command": command}, "result": [response],
            "status": status, "timestamp": _TIME, "resultDisplay": body, "displayName": "Shell",
            "description": "Runs a shell command.", "renderOutputAsMarkdown": False}


def _gemini(key: str, text: str, calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"id": key, "timestamp": _TIME, "type": "gemini", "content": text,
                           "thoughts": [{"subject": "Planning", "description": "hmm " * 50,
                                         "timestamp": _TIME}],
                           "tokens": {"input": 12000, "output": 80, "cached": 9000, "thoughts": 40, "tool": 0,
                                      "total": 12120},
                           "model": "gemini-2.5-pro"}
    if calls:
        msg["toolCalls"] = calls
    return msg


def generate(folder: str, size_mb: int, seed: int = 1, layout: str = "document") -> str:
    rng, limit = random.Random(seed), size_mb * 1024 * 1024
    project = hashlib.sha256(_ROOT.encode()).hexdigest()
    ext = ".jsonl" if layout == "jsonl" else ".json"
    path = os.path.join(folder, f"session-2026-06-05T10-00-{_ID[:8]}{ext}")
    meta = {"sessionId": _ID, "projectHash": project, "startTime": _TIME, "lastUpdated": _TIME}
    if layout == "jsonl":
        with open(path, "w", encoding="utf-8") as f:
            def line(obj: dict[str, Any]) -> None:
                f.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n")

            line({**meta, "kind": "main"})
            for n, prompt, calls, final in _turns(rng, 1 << 62):
                if f.tell() >= limit:
                    break
                line({"id": f"u{n}", "timestamp": _TIME, "type": "user", "content": [{"text": prompt}]})
                line({"$set": {"lastUpdated": _TIME}})
                done: list[dict[str, Any]] = []
                for i, (call_id, command, body) in enumerate(calls):
                    key = f"g{n}.{i}"
                    line(_gemini(key, "I'll look at the code first." if i == 0 else ""))
                    line(_gemini(key, "", [*done, _tool_call(call_id, command, "", "executing")]))
                    done.append(_tool_call(call_id, command, body))
                    line(_gemini(key, "", done[-1:]))
                    line({"id": f"r{n}.{i}", "timestamp": _TIME, "type": "user",
                          "content": done[-1]["result"]})
                line(_gemini(f"f{n}", final))
                line({"$set": {"lastUpdated": _TIME}})
        return path
    messages: list[dict[str, Any]] = []
    for n, prompt, calls, final in _turns(rng, limit):
        messages.append({"id": f"u{n}", "timestamp": _TIME, "type": "user", "content": prompt})
        messages.append(_gemini(f"g{n}", "I'll look at the code first.",
                                [_tool_call(*call) for call in calls[: len(calls) // 2]]))
        messages.append(_gemini(f"h{n}", "", [_tool_call(*call) for call in calls[len(calls) // 2:]]))
        messages.append(_gemini(f"f{n}", final))
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps({**meta, "messages": messages}, indent=2, ensure_ascii=False))
    return path
