"""The request: the versioned prompt, bounded AGENTS.md guidance, the index, the scrubbed transcript.

Every text that goes into a request passes through the secrets scrubber first,
and only then is it bounded (a cut never splits a secret the scrubber would
have caught). The transcript keeps its head and its tail and says what was cut.
The prompt texts are package data: `data/prompt-<version>.txt` and
`data/consolidate-<version>.txt`; the version goes into each record's origin.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from string import Template
from typing import Any

from chord_memory.extract import plan
from chord_memory.extract.model import PROMPT_VERSION

TRANSCRIPT_MAX = 40_000   # characters of transcript in one request
GUIDANCE_MAX = 8_000      # characters of AGENTS.md in one request
INDEX_MAX = 16_000        # characters of the index in one request
HEAD_SHARE = 0.4          # of a cut transcript, the share kept from its start
ROLES = ("user", "assistant", "history")

Message = dict[str, str]
Build = Callable[[str], list[Message]]  # dialect -> the messages to send


def text(name: str) -> str:
    """The prompt text `name` ("prompt" or "consolidate") of this version."""
    from importlib.resources import files

    return (files("chord_memory") / "data" / f"{name}-{PROMPT_VERSION}.txt").read_text("utf-8")


def clean(value: str) -> str:
    from chord_memory.extract.sentences import scrubbed

    return scrubbed(value)


def bounded(value: str, limit: int, what: str) -> str:
    """value, or its head and tail with a marker where the middle was left out."""
    if len(value) <= limit:
        return value
    head_n = int(limit * HEAD_SHARE)
    head = value[:head_n]
    if (cut := head.rfind("\n")) > head_n // 2:
        head = head[:cut]
    tail = value[len(value) - (limit - head_n):]
    if 0 <= (cut := tail.find("\n")) < len(tail) // 2:
        tail = tail[cut + 1:]
    left = len(value) - len(head) - len(tail)
    return f"{head}\n[... {left} characters of the {what} left out here ...]\n{tail}"


def transcript(turns: Sequence[tuple[str, str]], limit: int = TRANSCRIPT_MAX) -> str:
    """User turns, completed assistant replies and history, each scrubbed, then bounded."""
    parts = [f"[{role}] {clean(body).strip()}" for role, body in turns
             if role in ROLES and body.strip()]
    return bounded("\n\n".join(parts), limit, "transcript") or "(empty)"


def index_lines(mem: plan.Memory) -> list[str]:
    """The index as the model sees it: type, summary, id and who stated it."""
    out = []
    for e in mem.entries:
        rec = mem.records.get(e.id)
        source = rec.source if rec is not None else "unknown"
        out.append(clean(f"- {e.type}: {e.summary} (id: {e.id}; source: {source})"))
    return out


def _context(guidance: str, mem: plan.Memory) -> str:
    rules = bounded(clean(guidance).strip(), GUIDANCE_MAX, "AGENTS.md") or "(none)"
    lines = bounded("\n".join(index_lines(mem)), INDEX_MAX, "index") or "(empty)"
    return f"## PROJECT RULES\n{rules}\n\n## MEMORY INDEX\n{lines}\n"


def strict_schema() -> dict[str, Any]:
    """The Reply schema in the strict form OpenAI's json_schema mode accepts.

    References inlined, every property required (optional ones are nullable or
    take their empty value), no additional properties, no keywords that strict
    mode refuses. The reply is validated against the real model in any case.
    """
    from chord_memory.extract.reply import schema

    raw = schema()
    defs = raw.get("$defs", {})
    assert isinstance(defs, dict)

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(x) for x in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return walk(defs[str(node["$ref"]).rsplit("/", 1)[-1]])
        out = {k: walk(v) for k, v in node.items()
               if k not in ("$defs", "title", "default", "minLength")}
        if out.get("type") == "object" and "properties" in out:
            out["required"] = list(out["properties"])
            out["additionalProperties"] = False
        return out

    result = walk(raw)
    assert isinstance(result, dict)
    return result


def _messages(system: str, user: str, dialect: str) -> list[Message]:
    if dialect != "json_schema":  # the server will not hold the schema: the prompt does
        system += ("\n\nThe reply must validate against this JSON schema:\n"
                   + json.dumps(strict_schema(), separators=(",", ":")))
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def extraction(guidance: str, mem: plan.Memory, turns: Sequence[tuple[str, str]],
               summary_chars: int) -> Build:
    system = Template(text("prompt")).safe_substitute(summary_chars=summary_chars)
    user = f"{_context(guidance, mem)}\n## TRANSCRIPT\n{transcript(turns)}\n"
    return lambda dialect: _messages(system, user, dialect)


def consolidation(guidance: str, mem: plan.Memory, budget: int, size: int,
                  summary_chars: int) -> Build:
    system = Template(text("consolidate")).safe_substitute(
        budget=budget, size=size, summary_chars=summary_chars)
    user = _context(guidance, mem)
    return lambda dialect: _messages(system, user, dialect)
