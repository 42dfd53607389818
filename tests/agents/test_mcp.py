"""`chord-memory mcp` end to end, through the SDK's own stdio client."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")  # the test extra installs it

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

UV = "20261120-use-uv-for-installs-3f9a1c"
TOKEN = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("recall", {"query": "add a dependency"}),
    ("recall", {"query": "add a dependency", "max": 1}),
    ("summary", {}),
    ("status", {}),
    ("record", {"id": UV}),
    ("recall", {"query": ""}),                      # bad arguments: results with isError
    ("recall", {"query": "x", "max": 0}),
    ("recall", {"query": 5}),
    ("recall", {}),
    ("record", {"id": "../../etc/passwd"}),
    ("record", {"id": "20990101-no-such-record-000000"}),
    ("no-such-tool", {}),
    ("status", {}),                                  # and the server still answers
]


def text(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


async def session(repo: Path) -> tuple[list[str], list[tuple[bool, str]]]:
    chord = str(Path(sys.executable).with_name("chord-memory"))
    params = StdioServerParameters(command=chord, args=["mcp"], cwd=str(repo),
                                   env={**os.environ, "PATH": os.environ["PATH"]})
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as s:
            init = await s.initialize()
            assert init.server_info.name == "chord-memory"
            tools = sorted(t.name for t in (await s.list_tools()).tools)
            results = []
            for name, args in CALLS:
                r = await s.call_tool(name, args)
                results.append((bool(r.is_error), text(r)))
    return tools, results


def test_every_tool_through_the_sdk_client(example_repo: Path) -> None:
    record = example_repo / ".chord/memory/records" / f"{UV}.md"
    record.write_text(record.read_text().replace("do not call", f"token {TOKEN}; do not call"))
    tools, results = anyio.run(session, example_repo)
    assert tools == ["recall", "record", "status", "summary"]
    for (name, args), (err, out) in zip(CALLS[:5], results[:5], strict=True):
        assert not err, (name, args, out)
    recall, one, summary, status, rec = (out for _, out in results[:5])
    assert UV in recall and "20261121-migrations" not in one.split("## 2.")[0] and "## 2." not in one
    assert summary.startswith("# Project memory (chord-memory)") and UV in summary
    assert "extraction is off" in status
    assert rec.startswith("---\nid: " + UV) and "## Conclusion" in rec
    for out in (recall, rec):
        assert TOKEN not in out and "[REDACTED" in out
    for (name, args), (err, out) in zip(CALLS[5:-1], results[5:-1], strict=True):
        assert err and out and "Traceback" not in out, (name, args, out)
    assert "no record 20990101-no-such-record-000000" in results[10][1]
    assert results[-1] == (False, "extraction is off (memory.enabled: false); reading memory works as usual")
    assert subprocess.run(["git", "status", "--porcelain"], cwd=example_repo, capture_output=True,
                          text=True).stdout.strip() == f"M .chord/memory/records/{UV}.md"  # wrote nothing


def test_no_hook_imports_the_sdk() -> None:
    code = ("import sys, chord_memory.cli, chord_memory.hook, chord_memory.agents.prompt, "
            "chord_memory.agents.session_end, chord_memory.commands.recall, chord_memory.commands.hook; "
            "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'anyio'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"


def test_without_the_extra_one_line(example_repo: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "blocker" / "mcp"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('not installed')\n")
    env = {**os.environ, "PYTHONPATH": str(blocker.parent)}
    done = subprocess.run([sys.executable, "-m", "chord_memory", "mcp"], cwd=example_repo, env=env,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 2
    assert done.stderr == ("chord-memory: the MCP server needs the mcp extra: "
                           "pip install 'chord-memory[mcp]' (mcp 2.3 or later)\n")
