"""Fixture paths and small writers shared by the transcript tests."""
from __future__ import annotations

import json
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
FIXTURE_CWD = "/home/dev/src/app"
CLAUDE_CODE = FIXTURES / "claude_code" / "7f2c9a4e-1b3d-4c5e-8f60-2a1b3c4d5e6f.jsonl"
CODEX = (
    FIXTURES / "codex" / "rollout-2025-10-03T09-10-00-0199a1b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b.jsonl"
)
CODEX_OTHER = (
    FIXTURES / "codex" / "rollout-2025-10-03T09-20-00-0199a1b2-9999-7e5f-8a6b-000000000000.jsonl"
)
CHORD = FIXTURES / "chord" / "2025-10-03-demo.jsonl"
# Sessions full of harness text (docs/transcripts.md): what typed.py must take out.
CC = FIXTURES / "claude_code" / "3b8e1f20-5a6c-4d7e-9f80-1a2b3c4d5e6f.jsonl"
CODEX_NOW = FIXTURES / "codex" / "rollout-2026-06-05T10-00-00-019e9625-802f-7e91-840a-cfe88d14117b.jsonl"
CODEX_OLD = FIXTURES / "codex" / "rollout-2025-08-02T10-00-00-5973b6c0-94b8-487b-a530-2aeb6098ae0e.jsonl"
BY_KIND = {"claude-code": CLAUDE_CODE, "codex": CODEX, "chord": CHORD}


def jsonl(*objects: object) -> bytes:
    """Lines the way the agents write them: compact JSON, each ending with a newline."""
    return b"".join(json.dumps(o, separators=(",", ":")).encode() + b"\n" for o in objects)


def relocated(fixture: Path, dest: Path, cwd: str) -> Path:
    """Copy ``fixture`` to ``dest`` with its project directory replaced by ``cwd``."""
    data = fixture.read_bytes().replace(FIXTURE_CWD.encode(), json.dumps(cwd)[1:-1].encode())
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(data)
    return dest


def complete_lines(path: Path) -> bytes:
    """The file without its unterminated last line."""
    data = path.read_bytes()
    return data[: data.rfind(b"\n") + 1]
