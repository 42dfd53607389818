"""Set-up shared by the model extractor's tests."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chord_memory.cli import main
from tests.sessions import ClaudeSession

LINT = "Always run the linters with make lint before you hand a change back to me."
RECORD = {
    "type": "preference", "source": "user", "status": "stated",
    "summary": "Run make lint before handing a change back.",
    "conclusion": "Always run the linters with make lint before handing a change back.",
    "why": "The user asked for it as a standing rule.",
    "how_to_apply": "Before finishing any change.", "supersedes": None,
}
GOOD = json.dumps({"records": [RECORD], "retire": [], "promotions": [], "learnings": []})
EMPTY = json.dumps({"records": [], "retire": [], "promotions": [], "learnings": []})


def endpoint(url: str, model: str = "model-a", **kw: Any) -> dict[str, Any]:
    return {"base_url": url, "model": model, "timeout": 5, "structured_output": "json_schema", **kw}


def configure(repo: Path, pools: dict[str, list[dict[str, Any]]], model_pool: str | None = None,
              **memory: Any) -> None:
    """.chord/config.yaml for `extractor: model` (JSON is YAML)."""
    (repo / ".chord").mkdir(exist_ok=True)
    cfg = {"enabled": True, "freeze_after": 0, "extractor": "model", "pools": pools,
           "model_pool": model_pool, **memory}
    (repo / ".chord/config.yaml").write_text(json.dumps({"memory": cfg}, indent=1))


def session(repo: Path, sid: str = "7f2c9a4e-0000-4000-8000-000000000001") -> ClaudeSession:
    return ClaudeSession(repo, sid).user(LINT).assistant("Understood, I will run make lint.")


def status(capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["status"]) == 0
    return capsys.readouterr().out.strip()


def record_files(repo: Path) -> dict[str, str]:
    folder = repo / ".chord/memory/records"
    return {p.name: p.read_text() for p in folder.iterdir()} if folder.exists() else {}


def ledger(repo: Path) -> dict[str, Any]:
    path = repo / ".git/chord-memory/ledger.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    assert isinstance(data, dict)
    return data


def nothing_written(repo: Path) -> None:
    """No memory file, no ledger entry, no journal, no temporary file."""
    assert record_files(repo) == {}
    assert not (repo / "MEMORY.md").exists()
    assert ledger(repo) == {}
    assert not (repo / ".git/chord-memory/journal.json").exists()
    assert not list(repo.rglob(".chord-*.tmp"))
