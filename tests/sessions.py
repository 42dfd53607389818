"""Writing real-shaped agent transcripts for tests (Claude Code session JSONL)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from chord_memory.transcripts import claude_code_project_dir


class ClaudeSession:
    """Appends Claude Code lines to ~/.claude/projects/<project>/<id>.jsonl (HOME is tmp)."""

    def __init__(self, root: Path, sid: str = "7f2c9a4e-0000-4000-8000-000000000001") -> None:
        folder = Path(claude_code_project_dir(str(root), os.environ["HOME"]))
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / f"{sid}.jsonl"
        self.root = root
        self.sid = sid
        self.n = 0

    def _line(self, kind: str, message: dict[str, object], **extra: object) -> None:
        self.n += 1
        obj = {
            "parentUuid": None, "isSidechain": False, "userType": "external", "cwd": str(self.root),
            "sessionId": self.sid, "version": "2.0.14", "gitBranch": "main", "type": kind,
            "message": message, "uuid": f"00000000-0000-4000-8000-{self.n:012d}",
            "timestamp": "2026-11-29T10:00:00.000Z", **extra,
        }
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(obj) + "\n")

    def user(self, text: str) -> ClaudeSession:
        self._line("user", {"role": "user", "content": text})
        return self

    def assistant(self, text: str, tool: str | None = None) -> ClaudeSession:
        content: list[dict[str, object]] = [{"type": "text", "text": text}]
        if tool is not None:
            content.append({"type": "tool_use", "id": f"toolu_{self.n}", "name": "Bash",
                            "input": {"command": tool}})
        self._line("assistant", {"id": f"msg_{self.n}", "type": "message", "role": "assistant",
                                 "model": "claude-sonnet-4-5", "content": content,
                                 "stop_reason": "end_turn"})
        return self

    def tool_result(self, output: str) -> ClaudeSession:
        self._line("user", {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_{self.n - 1}", "content": output}]})
        return self
