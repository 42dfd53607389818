"""`chord-memory recall --format claude-code`: Claude Code's UserPromptSubmit hook, run as installed."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_memory.agents import prompt
from chord_memory.recall import Hit
from tests.agents.helpers import installed, shell
from tests.helpers import cli, git

UV = "20261120-use-uv-for-installs-3f9a1c"
CLOCK = "20261124-flaky-clock-tests-5c2d88"
TOKEN = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"


@pytest.fixture
def project(example_repo: Path) -> Path:
    done = cli("install", "--agent", "claude-code", cwd=example_repo)
    assert done.returncode == 0, done.stderr
    return example_repo


def submit(repo: Path, text: str, session: str = "s-1", cwd: Path | None = None) -> dict[str, str] | None:
    stdin = json.dumps({"session_id": session, "transcript_path": "/nowhere.jsonl", "cwd": str(repo),
                        "permission_mode": "default", "hook_event_name": "UserPromptSubmit",
                        "prompt": text})
    done = shell(installed(repo, "UserPromptSubmit"), cwd or repo, stdin)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    if not done.stdout:
        return None
    out = json.loads(done.stdout)
    assert set(out) == {"hookSpecificOutput"}
    assert out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    return dict(out["hookSpecificOutput"])


def test_the_relevant_record_once_per_session(project: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    got = submit(project, "Please add the requests dependency to the project", cwd=elsewhere)
    assert got is not None
    context = got["additionalContext"]
    assert context.startswith(prompt.HEADING) and "verify" in context and "not instructions" in context
    assert UV in context and "uv add NAME" in context and CLOCK not in context
    assert submit(project, "and another dependency, httpx") is None  # this session has it already
    again = submit(project, "add a dependency", session="s-2")  # a new session gets it again
    assert again is not None and UV in again["additionalContext"]
    clock = submit(project, "a billing test fails around midnight; the clock?")
    assert clock is not None and CLOCK in clock["additionalContext"] and UV not in clock["additionalContext"]
    given = (project / ".git/chord-memory/prompts/s-1").read_text().split()
    assert given[0] == UV and CLOCK in given and len(given) == len(set(given))
    assert git(project, "status", "--porcelain").stdout.strip() == "?? .claude/"  # nothing else


def test_nothing_for_nothing_relevant_or_bad_input(project: Path) -> None:
    assert submit(project, "hello there") is None
    assert submit(project, "   ") is None
    command = installed(project, "UserPromptSubmit")
    for stdin in ("", "not json", "[1, 2]", '{"prompt": 5}', '{"cwd": "/nope", "prompt": null}'):
        done = shell(command, project, stdin)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), stdin


def test_max_recall_and_a_secret(project: Path) -> None:
    (project / ".chord/config.yaml").write_text("memory:\n  maxRecall: 1\n")
    got = submit(project, "dependency tests clock migrations review", session="one")
    assert got is not None and got["additionalContext"].count("\n- ") == 1
    record = project / ".chord/memory/records" / f"{UV}.md"
    record.write_text(record.read_text().replace("do not call", f"the index token is {TOKEN}; do not call"))
    got = submit(project, "add a dependency", session="two")
    assert got is not None and UV in got["additionalContext"]
    assert TOKEN not in got["additionalContext"] and "[REDACTED" in got["additionalContext"]


def test_an_unusable_region_is_one_line_and_never_blocks_the_prompt(project: Path) -> None:
    (project / "MEMORY.md").write_text("<!-- chord-memory:begin -->\n- fact: broken\n")
    stdin = json.dumps({"cwd": str(project), "prompt": "add a dependency", "session_id": "x"})
    done = shell(installed(project, "UserPromptSubmit"), project, stdin)
    assert done.returncode == 1, done  # 2 would block the prompt and erase it
    assert done.stdout == "" and done.stderr.startswith("chord-memory: ") and done.stderr.count("\n") == 1


def hit(i: int, size: int) -> Hit:
    return Hit(f"r{i}", "fact", "user", "stated", "auto", f"summary {i}", "x" * size, "", "", b"", 1.0)


def test_the_budget_keeps_what_fits_in_rank_order() -> None:
    text, shown = prompt.render([hit(1, 1000), hit(2, prompt.BUDGET), hit(3, 900), hit(4, 900)])
    assert shown == ["r1", "r3"] and len(text) <= prompt.BUDGET
    assert prompt.render([]) == ("", [])


def test_the_per_session_state_is_bounded(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prompt, "MAX_SESSIONS", 3)
    for i in range(6):
        assert UV in prompt.recall_context(str(project), "add a dependency", f"s{i}", None, None)
    assert len(list((project / ".git/chord-memory/prompts").iterdir())) == 3
    assert prompt.recall_context(str(project), "add a dependency", "s5", None, None) == ""
