"""A Codex rollout of at least N MB, mostly tool output, as real ones are (bench/extract.py).

Today's layout: session_meta, per turn an environment context, the prompt, reasoning,
function calls whose outputs run from 2 KB to 3 MB, an intermediate and a final assistant
message, task_complete.
"""
from __future__ import annotations

import json
import os
import random

_CWD = "/home/dev/src/app"
_ID = "019e9625-802f-7e91-840a-cfe88d14117c"
_WORDS = ("the", "release", "job", "runs", "on", "main", "after", "tests", "pass", "and", "we", "sign",
          "builds", "with", "keys", "from", "vault", "never", "push", "tags", "by", "hand", "deploy")


def _prose(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def _line(kind: str, payload: dict[str, object]) -> str:
    obj = {"timestamp": "2026-06-05T10:00:00.000Z", "type": kind, "payload": payload}
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n"


def _message(role: str, text: str) -> str:
    block = "input_text" if role == "user" else "output_text"
    content = [{"type": block, "text": text}]
    return _line("response_item", {"type": "message", "role": role, "content": content})


def generate(folder: str, size_mb: int, seed: int = 1) -> str:
    rng, n, limit = random.Random(seed), 0, size_mb * 1024 * 1024
    path = os.path.join(folder, f"rollout-2026-06-05T10-00-00-{_ID}.jsonl")
    env = f"<environment_context>\n  <cwd>{_CWD}</cwd>\n  <shell>bash</shell>\n</environment_context>"
    with open(path, "w", encoding="utf-8") as f:
        f.write(_line("session_meta", {"id": _ID, "cwd": _CWD, "originator": "codex_cli_rs",
                                       "cli_version": "0.135.0", "source": "cli"}))
        while f.tell() < limit:
            n += 1
            f.write(_message("user", env))
            f.write(_message("user", f"Prompt {n}: {_prose(rng, 30)}"))
            f.write(_line("response_item", {"type": "reasoning", "summary": [
                {"type": "summary_text", "text": "hmm " * 200}]}))
            f.write(_message("assistant", "I'll look at the code first."))
            for call in range(rng.randrange(3, 9)):
                size = rng.choices([2_000, 20_000, 80_000, 400_000, 3_000_000], [4, 4, 3, 2, 1])[0]
                call_id = f"c{n}.{call}"
                arguments = json.dumps({"command": ["cat", f"m{call}.py"]})
                f.write(_line("response_item", {"type": "function_call", "name": "shell",
                                                "call_id": call_id, "arguments": arguments}))
                body = "\n".join(f"{i:6}  value = {rng.randrange(10**6)}  # {'x' * 20}"
                                 for i in range(size // 40))
                f.write(_line("response_item", {"type": "function_call_output", "call_id": call_id,
                                                "output": json.dumps({"output": body})}))
            final = f"Done with {n}. {_prose(rng, 120)}"
            f.write(_message("assistant", final))
            f.write(_line("event_msg", {"type": "task_complete", "last_agent_message": final}))
    return path
