"""What the last extraction run left: `MEMORY`, `MEMORY-FAIL: <reason>`, or nothing.

The status file and the log live in `<git-common-dir>/chord-memory/`. The log
never holds a secret: every line goes through the scrubber first.
"""
from __future__ import annotations

import json
import os
import time

from chord_memory import paths

LOG_NAME = "extract.log"
LOG_MAX = 1 << 20


def _state(root: str) -> str | None:
    return paths.state_dir(root)


def read(root: str) -> dict[str, object]:
    state = _state(root)
    if state is None:
        return {}
    try:
        with open(os.path.join(state, "status.json"), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write(root: str, ok: bool, reason: str = "") -> None:
    from chord_memory import atomic

    state = _state(root)
    if state is None:
        return
    reason = _clean(reason)
    data = {"ok": ok, "reason": reason, "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    atomic.write(os.path.join(state, "status.json"), json.dumps(data).encode())
    log(root, "ok" if ok else f"MEMORY-FAIL: {reason}")


def _clean(text: str) -> str:
    """One line, scrubbed: the only form any text of ours takes in the state folder."""
    from chord_memory.secrets import scrub

    one_line = " ".join(text.split())
    return scrub(one_line)[0]


def log(root: str, message: str) -> None:
    state = _state(root)
    if state is None:
        return
    os.makedirs(state, exist_ok=True)
    path = os.path.join(state, LOG_NAME)
    try:
        if os.path.getsize(path) > LOG_MAX:
            os.replace(path, path + ".1")
    except OSError:
        pass
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"{stamp} [{os.getpid()}] {_clean(message)}\n")


def log_path(root: str) -> str | None:
    state = _state(root)
    return os.path.join(state, LOG_NAME) if state else None
