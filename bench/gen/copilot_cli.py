"""Generate a large GitHub Copilot CLI session for the reader benchmarks.

    generate(folder, size_mb, seed) -> <folder>/session-state/<id>/events.jsonl

The session is in Copilot CLI 1.0.x's shape: ``session.start``, the system prompt, then
turns of ``user.message``, ``assistant.turn_start``, ``assistant.message`` with tool
requests and reasoning, ``tool.execution_start`` / ``tool.execution_complete`` pairs
whose output runs from 2 KB to 3 MB (kept twice, as ``content`` and ``detailedContent``),
``hook.start`` / ``hook.end`` around some tools, a final ``assistant.message`` and
``assistant.turn_end``; a ``workspace.yaml`` beside it. Mostly tool output, as real
sessions are. Standard library only; the same seed gives the same bytes.
"""
from __future__ import annotations

import json
import os
import random
import uuid

_CWD = "/home/dev/src/app"
_WORDS = (
    "parser", "module", "config", "test", "build", "cache", "token", "stream", "offset", "ledger",
    "record", "session", "import", "schema", "field", "value", "error", "retry", "network",
    "request", "response", "handler", "queue", "worker", "index",
)


def generate(folder: str, size_mb: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    sid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    session_dir = os.path.join(folder, "session-state", sid)
    os.makedirs(session_dir, exist_ok=True)
    path = os.path.join(session_dir, "events.jsonl")
    writer = _Writer(path, rng)
    try:
        writer.header(sid)
        turn = 0
        while writer.size < size_mb * 1024 * 1024:
            writer.turn(turn)
            turn += 1
        writer.shutdown()
    finally:
        writer.close()
    with open(os.path.join(session_dir, "workspace.yaml"), "w", encoding="utf-8") as f:
        f.write(f"id: {sid}\ncwd: {_CWD}\ngit_root: {_CWD}\nbranch: main\nclient_name: github/cli\n"
                f"name: Benchmark session\nuser_named: false\nsummary_count: 0\n"
                f"created_at: 2026-08-05T20:40:13.482Z\nupdated_at: 2026-08-05T23:59:59.000Z\n")
    return path


class _Writer:
    def __init__(self, path: str, rng: random.Random) -> None:
        self.f = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by close()
        self.rng = rng
        self.size = 0
        self.count = 0
        self.parent: str | None = None

    def close(self) -> None:
        self.f.close()

    def _id(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def event(self, kind: str, data: dict[str, object], **extra: object) -> None:
        eid = self._id()
        self.count += 1
        second = self.count % 60
        obj = {"type": kind, "data": data, **extra, "id": eid,
               "timestamp": f"2026-08-05T21:{(self.count // 60) % 60:02d}:{second:02d}.000Z",
               "parentId": self.parent}
        line = json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n"
        self.f.write(line)
        self.size += len(line.encode("utf-8"))
        self.parent = eid

    def words(self, n: int) -> str:
        return " ".join(self.rng.choice(_WORDS) for _ in range(n))

    def output(self, size: int) -> str:
        lines, total = [], 0
        while total < size:
            line = f"{self.rng.randrange(1, 5000):5d}: {self.words(12)}"
            lines.append(line)
            total += len(line) + 1
        return "\n".join(lines)

    def header(self, sid: str) -> None:
        self.event("session.start", {
            "sessionId": sid, "version": 1, "producer": "copilot-agent", "copilotVersion": "1.0.80",
            "startTime": "2026-08-05T20:40:13.471Z", "contextTier": None,
            "context": {"cwd": _CWD, "gitRoot": _CWD, "branch": "main", "repository": "dev/app"},
            "alreadyInUse": False, "remoteSteerable": False})
        self.event("session.model_change", {"newModel": "claude-sonnet-4.5", "reasoningEffort": None})
        self.event("system.message", {"role": "system", "content": "You are the GitHub Copilot CLI. "
                                      + self.words(8000), "interactionId": self._id()})

    def turn(self, n: int) -> None:
        interaction = self._id()
        prompt = f"Prompt {n}: please make the {self.words(6)} work, and keep {self.words(8)}."
        self.event("user.message", {
            "content": prompt,
            "transformedContent": f"<current_datetime>2026-08-05T21:00:00.000+00:00</current_datetime>\n\n"
                                  f"{prompt}\n\n<system_reminder>\n<sql_tables>Available tables: todos, "
                                  f"todo_deps</sql_tables>\n</system_reminder>",
            "attachments": [], "supportedNativeDocumentMimeTypes": [], "delivery": "idle",
            "interactionId": interaction})
        for step in range(self.rng.randrange(3, 9)):
            self.event("assistant.turn_start", {"turnId": str(step), "interactionId": interaction})
            calls = [(self._id(), self.rng.choice(("bash", "view", "grep", "edit")))
                     for _ in range(self.rng.randrange(1, 4))]
            self.event("assistant.message", {
                "messageId": self._id(), "model": "claude-sonnet-4.5",
                "content": f"I'll check the {self.words(5)} next." if self.rng.random() < 0.5 else "",
                "toolRequests": [{"toolCallId": c, "name": name, "arguments": {"command": self.words(6)},
                                  "type": "function", "intentionSummary": self.words(4)}
                                 for c, name in calls],
                "interactionId": interaction, "turnId": str(step), "reasoningText": self.words(120),
                "outputTokens": self.rng.randrange(50, 900)})
            for call, name in calls:
                self.event("tool.execution_start", {"toolCallId": call, "toolName": name,
                                                    "arguments": {"command": self.words(6)},
                                                    "turnId": str(step)})
                size = int(2048 * (1536 ** (self.rng.random() ** 3)))  # 2 KB to 3 MB, mostly small
                out = self.output(size)
                if self.rng.random() < 0.2:
                    self.event("hook.start", {"hookInvocationId": call, "hookType": "postToolUse",
                                              "input": {"toolName": name, "toolResult": out[:65536]}})
                    self.event("hook.end", {"hookInvocationId": call, "hookType": "postToolUse",
                                            "success": True})
                self.event("tool.execution_complete", {
                    "toolCallId": call, "model": "claude-sonnet-4.5", "interactionId": interaction,
                    "turnId": str(step), "success": True,
                    "result": {"content": out, "detailedContent": out}, "toolTelemetry": {}})
            self.event("assistant.turn_end", {"turnId": str(step)})
        self.event("assistant.turn_start", {"turnId": "final", "interactionId": interaction})
        self.event("assistant.message", {
            "messageId": self._id(), "model": "claude-sonnet-4.5",
            "content": f"Done with prompt {n}: the {self.words(10)} now works; run `make test` to check. "
                       + self.words(60),
            "toolRequests": [], "interactionId": interaction, "turnId": "final",
            "outputTokens": self.rng.randrange(50, 900)})
        self.event("assistant.turn_end", {"turnId": "final"})

    def shutdown(self) -> None:
        self.event("session.shutdown", {"shutdownType": "routine", "totalApiDurationMs": 1,
                                        "sessionStartTime": 1785962413471, "modelMetrics": {},
                                        "codeChanges": {"linesAdded": 0, "linesRemoved": 0,
                                                        "filesModified": []}})
