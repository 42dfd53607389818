"""A session in our own format of at least N MB (bench/extract.py). The format holds the
conversation only, so its bytes are long prompts (pasted logs) and long replies."""
from __future__ import annotations

import json
import os
import random

_WORDS = ("the", "release", "job", "runs", "on", "main", "after", "tests", "pass", "and", "we", "sign")


def generate(folder: str, size_mb: int, seed: int = 1) -> str:
    rng, n, limit = random.Random(seed), 0, size_mb * 1024 * 1024
    path = os.path.join(folder, "bench-session.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps({"v": 1, "type": "session", "id": "bench", "cwd": "/home/dev/src/app"}) + "\n")
        while f.tell() < limit:
            n += 1
            rows = range(rng.randrange(10, 2000))
            log = "\n".join(f"2026-06-05 10:00:{i % 60:02d} INFO worker {i} done" for i in rows)
            prompt = f"Prompt {n}: {' '.join(rng.choice(_WORDS) for _ in range(30))}\n\n{log}"
            reply = " ".join(rng.choice(_WORDS) for _ in range(rng.randrange(50, 5000)))
            f.write(json.dumps({"type": "message", "role": "user", "text": prompt}) + "\n")
            f.write(json.dumps({"type": "message", "role": "assistant", "text": reply}) + "\n")
    return path
