"""The agent integrations of docs/integrations.md, run exactly as documented, as the agent runs them."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

DOC = (ROOT / "docs/integrations.md").read_text()


def block(marker: str) -> str:
    m = re.search(rf"<!-- {marker} -->\n```\w*\n(.*?)```", DOC, re.S)
    assert m, marker
    return m.group(1)


def shell(command: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The command through `sh -c`, with chord-memory on PATH, as an agent starts it."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["sh", "-c", command], cwd=cwd, input=stdin, capture_output=True, text=True,
                          env=env)


def settings() -> dict[str, object]:
    data: dict[str, object] = json.loads(block("claude-code-settings"))
    return data


def session_start_command() -> str:
    hooks = settings()["hooks"]["SessionStart"][0]["hooks"]  # type: ignore[index]
    return str(hooks[0]["command"])


def test_session_start_adds_the_summary(example_repo: Path, tmp_path: Path) -> None:
    hook_input = {"session_id": "abc", "transcript_path": str(tmp_path / "t.jsonl"), "cwd": str(example_repo),
                  "hook_event_name": "SessionStart", "source": "startup", "permission_mode": "default"}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = shell(session_start_command(), elsewhere, json.dumps(hook_input))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"hookSpecificOutput"}
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    plain = shell("chord-memory summary", example_repo).stdout
    assert out["hookSpecificOutput"]["additionalContext"] == plain
    assert "20261120-use-uv-for-installs-3f9a1c" in plain


def test_session_start_without_input_or_memory(example_repo: Path, repo: Path) -> None:
    proc = shell(session_start_command(), example_repo, "not json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    (repo / "MEMORY.md").unlink()
    proc = shell(session_start_command(), repo, json.dumps({"cwd": str(repo)}))
    assert proc.returncode == 0 and proc.stdout == ""


def test_the_status_line(example_repo: Path) -> None:
    status_line = settings()["statusLine"]["command"]  # type: ignore[index]
    script = block("status-line-script")
    stdin = json.dumps({"workspace": {"current_dir": str(example_repo)}, "model": {"display_name": "x"}})
    assert shell(str(status_line), example_repo, stdin).stdout == ""  # extraction off: nothing
    assert shell(script, example_repo, stdin).stdout == f"{example_repo.name} \n"
    (example_repo / ".chord").mkdir(exist_ok=True)
    (example_repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n")
    assert shell(str(status_line), example_repo, stdin).stdout == "MEMORY\n"
    assert shell(script, example_repo, stdin).stdout == f"{example_repo.name} MEMORY\n"


def test_the_agents_md_note_loads_the_summary(example_repo: Path) -> None:
    note = block("agents-md-note")
    commands = re.findall(r"`(chord-memory [^`]+)`", note)
    assert commands == ["chord-memory summary", 'chord-memory recall "<what the task is about>"']
    summary = shell(commands[0], example_repo)
    assert summary.returncode == 0 and summary.stdout.startswith("# Project memory (chord-memory)")
    recall = shell(commands[1].replace("<what the task is about>", "add a dependency"), example_repo)
    assert recall.returncode == 0 and "20261120-use-uv-for-installs-3f9a1c" in recall.stdout


def test_session_start_in_process(example_repo: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    from chord_memory.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(
        {"cwd": str(example_repo), "hook_event_name": "UserPromptSubmit"})))
    assert main(["summary", "--format", "claude-code"]) == 0
    out = json.loads(capsys.readouterr().out)["hookSpecificOutput"]
    assert out["hookEventName"] == "UserPromptSubmit" and "use-uv-for-installs" in out["additionalContext"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("[1, 2]"))
    assert main(["summary", "--format", "claude-code"]) == 0
    assert json.loads(capsys.readouterr().out)["hookSpecificOutput"]["hookEventName"] == "SessionStart"
