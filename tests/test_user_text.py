"""End to end: a record with `source: user` always traces to words the user typed.

Real sessions in the agents' shapes (tests/transcripts/fixtures), placed where the agents
keep them, extracted by `chord-memory extract` with the offline rules: bash mode, IDE
context, command expansions, hook output, plans the assistant wrote and tool output never
reach a record.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from chord_memory.cli import main
from chord_memory.transcripts import claude_code_project_dir, read_session
from tests.transcripts.helpers import CC, CODEX_NOW, CODEX_OLD, relocated

NEVER = ("make test", "42 passed", "opened the file", "parser.add_argument", "reminder",
         "drops a column", "npm run build", "prettier", "signing keys", "never upload keys",
         "-n 4", "AGENTS.md", "Active file", "missing tests", "Always sign the mobile builds",
         "smoke tests", "Always deploy from main", "Set model to opus")


def norm(text: str) -> str:
    return re.sub(r"\W+", " ", text).strip().lower()


@pytest.fixture
def extracted(repo: Path) -> Path:
    home = Path(os.environ["HOME"])
    (repo / ".chord").mkdir()
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n  freeze_after: 0s\n")
    relocated(CC, Path(claude_code_project_dir(str(repo), str(home))) / CC.name, str(repo))
    for rollout in (CODEX_NOW, CODEX_OLD):
        relocated(rollout, Path(os.environ["CODEX_HOME"]) / "sessions/2026/06/05" / rollout.name, str(repo))
    assert main(["extract"]) == 0
    return repo


def conclusions(repo: Path) -> list[str]:
    out = []
    for path in sorted((repo / ".chord/memory/records").glob("*.md")):
        text = path.read_text()
        assert "source: user" in text
        out.append(text.split("## Conclusion\n", 1)[1].split("\n## ", 1)[0].strip())
    return out


def test_every_record_traces_to_typed_text(extracted: Path) -> None:
    sessions = ((CC, "claude-code"), (CODEX_NOW, "codex"), (CODEX_OLD, "codex"))
    typed = [norm(t.text) for fixture, kind in sessions
             for t in read_session(kind, str(fixture)).turns if t.role == "user"]
    found = conclusions(extracted)
    assert "Always run the linters with make lint before pushing." in found  # Codex's older layout
    assert any(c.startswith("We deploy on Tuesdays only") for c in found)  # inside an IDE wrapper
    for conclusion in found:
        assert any(norm(conclusion) in t for t in typed), conclusion


@pytest.mark.parametrize("never", NEVER)
def test_harness_text_never_reaches_memory(extracted: Path, never: str) -> None:
    written = (extracted / "MEMORY.md").read_text() + "".join(conclusions(extracted))
    assert never.lower() not in written.lower()
