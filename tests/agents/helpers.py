"""Running an installed Claude Code hook as Claude Code does: `sh -c COMMAND` in the project,
its JSON on stdin, with this environment's `chord-memory` on PATH."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from chord_memory.agents import claude_code


def shell(command: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["sh", "-c", command], cwd=cwd, input=stdin, capture_output=True,
                          text=True, env=env, timeout=60)


def installed(repo: Path, event: str, local: bool = False) -> str:
    """The command `install --agent claude-code` wrote for the event (read back from the file)."""
    settings = json.loads((repo / claude_code.settings_path(local)).read_text())
    if event == "statusLine":
        return str(settings["statusLine"]["command"])
    commands = [h["command"] for g in settings["hooks"][event] for h in g["hooks"]
                if h["command"].startswith("chord-memory ")]
    assert len(commands) == 1, commands
    return str(commands[0])
