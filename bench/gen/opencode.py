"""An OpenCode session of at least N MB, mostly tool output, as real ones are (bench/extract.py).

OpenCode's JSON storage (``storage/session``, ``message``, ``part``), each file pretty-printed
as OpenCode writes it: per turn a prompt with an attached file (synthetic parts), then one
assistant message per step (step-start, reasoning, a short text, a tool call whose output runs
from 2 KB to 3 MB, step-finish) and a final assistant message with the reply.
``generate`` returns the session file, the path ``read_session("opencode", ...)`` takes.
"""
from __future__ import annotations

import json
import os
import random

_CWD = "/home/dev/src/app"
_PROJECT = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
_SID = "ses_63e1f2a4bffeQm8Zt1kVd0Wn3P"
_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_WORDS = ("the", "release", "job", "runs", "on", "main", "after", "tests", "pass", "and", "we", "sign",
          "builds", "with", "keys", "from", "vault", "never", "push", "tags", "by", "hand", "deploy")


class _Writer:
    def __init__(self, storage: str, rng: random.Random) -> None:
        self.storage, self.rng = storage, rng
        self.now, self.count, self.bytes = 1_780_000_000_000, 0, 0

    def id(self, prefix: str) -> str:
        self.count += 1
        self.now += 37
        stamp = (self.now * 0x1000 + self.count) & ((1 << 48) - 1)
        return f"{prefix}_{stamp:012x}" + "".join(self.rng.choice(_B62) for _ in range(14))

    def write(self, path: str, obj: object) -> None:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = json.dumps(obj, indent=2, ensure_ascii=False)
        with open(path, "w", encoding="utf-8") as f:
            f.write(data)
        self.bytes += len(data)

    def message(self, info: dict[str, object], parts: list[dict[str, object]]) -> str:
        mid = self.id("msg")
        self.write(os.path.join(self.storage, "message", _SID, f"{mid}.json"),
                   {"id": mid, "sessionID": _SID, **info})
        for part in parts:
            pid = self.id("prt")
            self.write(os.path.join(self.storage, "part", mid, f"{pid}.json"),
                       {"id": pid, "messageID": mid, "sessionID": _SID, **part})
        return mid


def _prose(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def generate(folder: str, size_mb: int, seed: int = 1) -> str:
    rng, limit = random.Random(seed), size_mb * 1024 * 1024
    storage = os.path.join(folder, "storage")
    w = _Writer(storage, rng)
    session = os.path.join(storage, "session", _PROJECT, f"{_SID}.json")
    w.write(os.path.join(storage, "project", f"{_PROJECT}.json"),
            {"id": _PROJECT, "worktree": _CWD, "vcs": "git", "time": {"created": w.now, "updated": w.now}})
    w.write(session, {"id": _SID, "slug": "brave-cabin", "version": "1.1.36", "projectID": _PROJECT,
                      "directory": _CWD, "title": "Benchmark session",
                      "time": {"created": w.now, "updated": w.now}})
    model = {"providerID": "anthropic", "modelID": "claude-sonnet-4-5"}
    tokens = {"input": 12000, "output": 300, "reasoning": 0, "cache": {"read": 90000, "write": 0}}
    n = 0
    while w.bytes < limit:
        n += 1
        listing = "\n".join(f"{i:05}| value = {rng.randrange(10**6)}" for i in range(200))
        user = w.message({"role": "user", "time": {"created": w.now}, "agent": "build", "model": model}, [
            {"type": "text", "text": f"Prompt {n}: {_prose(rng, 30)} See @src/m{n}.py"},
            {"type": "text", "synthetic": True,
             "text": f'Called the Read tool with the following input: {{"filePath":"{_CWD}/src/m{n}.py"}}'},
            {"type": "text", "synthetic": True, "text": f"<file>\n{listing}\n</file>"},
            {"type": "file", "mime": "text/plain", "filename": f"src/m{n}.py",
             "url": f"file://{_CWD}/src/m{n}.py"},
        ])
        base = {"role": "assistant", "parentID": user, "modelID": model["modelID"],
                "providerID": model["providerID"], "mode": "build", "agent": "build",
                "path": {"cwd": _CWD, "root": _CWD}, "cost": 0.01, "tokens": tokens}
        for call in range(rng.randrange(3, 9)):
            size = rng.choices([2_000, 20_000, 80_000, 400_000, 3_000_000], [4, 4, 3, 2, 1])[0]
            body = "\n".join(f"{i:6}  value = {rng.randrange(10**6)}  # {'x' * 20}"
                             for i in range(size // 40))
            start = w.now
            done = {"created": start, "completed": start + 900}
            w.message({**base, "time": done, "finish": "tool-calls"}, [
                {"type": "step-start", "snapshot": "9f2c1e0"},
                {"type": "reasoning", "text": "hmm " * 200, "time": {"start": start, "end": start + 5}},
                {"type": "text", "text": f"I'll look at m{call}.py next.",
                 "time": {"start": start, "end": start}},
                {"type": "tool", "callID": f"toolu_{n}_{call}", "tool": "bash",
                 "state": {"status": "completed", "input": {"command": f"cat m{call}.py"}, "output": body,
                           "title": f"cat m{call}.py", "metadata": {"output": body[:30000], "exit": 0},
                           "time": {"start": start, "end": start + 800}}},
                {"type": "step-finish", "reason": "tool-calls", "cost": 0.01, "tokens": tokens},
            ])
        start = w.now
        w.message({**base, "time": {"created": start, "completed": start + 900}, "finish": "stop"}, [
            {"type": "step-start", "snapshot": "9f2c1e0"},
            {"type": "text", "text": f"Done with {n}. {_prose(rng, 120)}"},
            {"type": "step-finish", "reason": "stop", "cost": 0.01, "tokens": tokens},
        ])
    return session
