"""Claude Code's SessionEnd hook: the extraction starts in the background, the hook returns first."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from chord_memory import config
from chord_memory.background import queue
from chord_memory.extract import run as pipeline
from tests.agents.helpers import installed, shell
from tests.helpers import cli
from tests.hooks.helpers import STATE, fast_worker, first_commit, log_lines, settle, wait_for
from tests.sessions import ClaudeSession

SAYS = "Always run the linters with make lint before you hand work back."
OTHER = "Remember that the staging database is reset every night at two."
REC = ".chord/memory/records"


def enable(repo: Path) -> None:
    """Extraction on, with the default freeze_after (10 minutes): only an ended session is read now."""
    (repo / ".chord").mkdir(exist_ok=True)
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n")


@pytest.fixture
def project(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    fast_worker(monkeypatch)
    enable(repo)
    first_commit(repo)
    done = cli("install", "--agent", "claude-code", cwd=repo)
    assert done.returncode == 0, done.stderr
    return repo


def records(repo: Path) -> list[str]:
    folder = repo / REC
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def session_end(session: ClaudeSession, reason: str = "prompt_input_exit") -> str:
    return json.dumps({"session_id": session.sid, "transcript_path": str(session.path),
                       "cwd": str(session.root), "hook_event_name": "SessionEnd", "reason": reason})


def test_the_hook_returns_before_the_extraction_and_the_session_becomes_records(
        project: Path, barrier: Path) -> None:
    ended = ClaudeSession(project).user(SAYS).assistant("Noted.")
    ClaudeSession(project, "7f2c9a4e-0000-4000-8000-000000000002").user(OTHER)  # still going on
    elsewhere = project.parent / "elsewhere"
    elsewhere.mkdir()
    done = shell(installed(project, "SessionEnd"), elsewhere, session_end(ended))  # cwd from the JSON
    assert done.returncode == 0 and done.stdout == "" and done.stderr == "", done.stderr
    state = project / STATE
    wait_for(lambda: (state / "pending/main.run").exists(), message="the worker's claim")
    assert not barrier.exists() and records(project) == []  # the hook returned first
    barrier.touch()
    settle(project, 1)
    written = records(project)
    assert len(written) == 1, written
    text = (project / REC / written[0]).read_text()
    assert "make lint" in text and "staging database" not in text  # the other session still waits
    assert any("run: 1 trigger(s) (session-end x1)" in x for x in log_lines(project))
    assert cli("status", cwd=project).stdout == "MEMORY\n"


def test_nothing_when_memory_is_disabled_or_the_input_is_garbage(project: Path) -> None:
    session = ClaudeSession(project).user(SAYS)
    command = installed(project, "SessionEnd")
    for stdin in ("", "not json", "[1]", json.dumps({"cwd": 5, "transcript_path": ["x"]})):
        done = shell(command, project, stdin)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), stdin
    (project / ".chord/config.yaml").write_text("memory:\n  enabled: false\n")
    done = shell(command, project, session_end(session))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    time.sleep(0.5)  # the forked child, had there been one, checks the settings and gives up
    assert not (project / STATE / queue.ENDED).exists()
    assert queue.keys(str(project / STATE)) == []
    outside = project.parent / "not-a-repo"
    outside.mkdir()
    done = shell(command, outside, json.dumps({"cwd": str(outside)}))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_a_resumed_session_waits_for_its_freeze_again(project: Path) -> None:
    session = ClaudeSession(project).user(SAYS)
    state = str(project / STATE)
    queue.mark_ended(state, str(session.path))
    cfg = config.load(str(project))
    later = time.time() + 1
    os.utime(session.path, (later, later))  # written after it ended: resumed
    out = pipeline.run(str(project), cfg, ended=queue.ended(state))
    assert out.sessions == 0 and records(project) == []
    os.utime(session.path, (later - 5, later - 5))
    out = pipeline.run(str(project), cfg, ended=queue.ended(state))
    assert out.sessions == 1 and len(records(project)) == 1


def test_ended_markers_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(queue, "ENDED_MAX", 3)
    state = str(tmp_path / "state")
    for i in range(6):
        (tmp_path / f"t{i}").write_text("x")
        queue.mark_ended(state, str(tmp_path / f"t{i}"))
    assert len(queue.ended(state)) == 3
