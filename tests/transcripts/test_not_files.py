"""A FIFO (or another non-file) where an agent keeps its sessions never hangs a run."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chord_memory.transcripts import KINDS, claude_code_project_dir, read_session


def _fifos(home: Path, project: Path) -> list[Path]:
    """One FIFO named as each agent names a session, in the folder it keeps them in."""
    names = [
        Path(claude_code_project_dir(str(project), str(home))) / "7f2c9a4e-1b3d-4c5e-8f60-2a1b3c4d5e6f.jsonl",
        home / ".codex/sessions/2026/01/01/rollout-2026-01-01T00-00-00-x.jsonl",
        home / ".gemini/tmp/app/chats/session-2026-01-01T00-00-abcd1234.json",
        home / ".copilot/session-state/5c1f9e2a-0000-4000-8000-000000000000/events.jsonl",
        home / ".cursor/projects" / str(project).strip("/").replace("/", "-") / "agent-transcripts/x.jsonl",
        home / ".local/share/opencode/opencode.db",
        home / ".local/share/opencode/storage/session/global/ses_1.json",
        project / ".aider.chat.history.md",
    ]
    for path in names:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(path)
    return names


def test_discovery_and_extraction_skip_fifos(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "app"
    project.mkdir()
    _fifos(home, project)
    code = ("import sys; from chord_memory.extract import sources; "
            "print(sources.find(sys.argv[1], None, {'HOME': sys.argv[2]}))")
    done = subprocess.run([sys.executable, "-c", code, str(project), str(home)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("kind", KINDS)
def test_reading_a_fifo_is_an_os_error_at_once(tmp_path: Path, kind: str) -> None:
    fifo = tmp_path / "session.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(OSError):
        read_session(kind, str(fifo))
