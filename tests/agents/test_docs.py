"""docs/integrations.md against the code: what install writes, Codex's hooks, the MCP configs."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.agents.helpers import shell
from tests.helpers import ROOT, cli

DOC = (ROOT / "docs/integrations.md").read_text()


def block(marker: str) -> str:
    m = re.search(rf"<!-- {marker} -->\n```\w*\n(.*?)```", DOC, re.S)
    assert m, marker
    return m.group(1)


def fenced(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC, re.S)


def test_the_settings_shown_are_what_install_writes(repo: Path) -> None:
    assert cli("install", "--agent", "claude-code", cwd=repo).returncode == 0
    assert (repo / ".claude/settings.json").read_text() == block("claude-code-settings")


def test_the_codex_hooks_are_the_installed_commands_and_answer_codex_input(example_repo: Path) -> None:
    codex = json.loads(block("codex-hooks"))["hooks"]
    ours = json.loads(block("claude-code-settings"))["hooks"]
    for event in ("SessionStart", "UserPromptSubmit"):
        assert codex[event][0]["hooks"][0]["command"] == ours[event][0]["hooks"][0]["command"]
    base = {"session_id": "019d036d", "transcript_path": None, "cwd": str(example_repo),
            "model": "gpt-5-codex", "permission_mode": "default", "turn_id": "019d036d-c7fa"}
    inputs = {"SessionStart": {**base, "hook_event_name": "SessionStart", "source": "startup"},
              "UserPromptSubmit": {**base, "hook_event_name": "UserPromptSubmit",
                                   "prompt": "add a dependency"}}
    for event, stdin in inputs.items():
        done = shell(codex[event][0]["hooks"][0]["command"], example_repo, json.dumps(stdin))
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)  # Codex's output schema allows no other keys
        assert set(out) == {"hookSpecificOutput"}
        assert set(out["hookSpecificOutput"]) == {"hookEventName", "additionalContext"}
        assert out["hookSpecificOutput"]["hookEventName"] == event
        assert "use-uv-for-installs" in out["hookSpecificOutput"]["additionalContext"]


def test_every_mcp_config_starts_chord_memory_mcp() -> None:
    configs = [json.loads(b) for b in fenced("json") if '"mcpServers"' in b]
    assert len(configs) == 2  # Claude Code's .mcp.json and Cursor's
    for config in configs:
        assert config == {"mcpServers": {"chord-memory": {"command": "chord-memory", "args": ["mcp"]}}}
    tomllib = pytest.importorskip("tomllib")
    (codex,) = [tomllib.loads(b) for b in fenced("toml")]
    assert codex == {"mcp_servers": {"chord-memory": {"command": "chord-memory", "args": ["mcp"]}}}
    for line in ("claude mcp add --scope project chord-memory -- chord-memory mcp",
                 "codex mcp add chord-memory -- chord-memory mcp"):
        assert line in DOC


def test_the_tool_table_names_the_servers_tools() -> None:
    pytest.importorskip("mcp")
    import anyio

    from chord_memory import mcp_server

    tools = anyio.run(mcp_server.server(str(ROOT)).list_tools)
    rows = re.findall(r"^\| `(\w+)` \|", DOC, re.M)
    assert sorted(rows) == sorted(t.name for t in tools)
