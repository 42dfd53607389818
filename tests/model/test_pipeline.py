"""What the model sees, busy sessions and preemption, consolidation: real HTTP on 127.0.0.1."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from chord_memory import index, records, summary
from chord_memory.cli import main
from chord_memory.extract import model
from tests.helpers import secrets
from tests.model.helpers import (
    EMPTY,
    GOOD,
    LINT,
    configure,
    endpoint,
    ledger,
    nothing_written,
    record_files,
    session,
    status,
)
from tests.model.server import ChatServer, completion
from tests.sessions import ClaudeSession

TOOL_OUTPUT = "TOOL-OUTPUT-MARKER-5e1f"


def _backdate(*paths: Path, seconds: float = 600) -> None:
    when = time.time() - seconds
    for p in paths:
        os.utime(p, (when, when))


def test_no_secret_and_no_tool_output_is_ever_sent(repo: Path, chat: ChatServer) -> None:
    values = secrets(random.Random(11))
    (repo / "AGENTS.md").write_text(f"# Rules\nDeploy with DEPLOY_TOKEN={values[1]} from CI only.\n")
    (repo / "MEMORY.md").write_text(
        "<!-- chord-memory:begin -->\n"
        f"- fact: the bucket key is AWS_SECRET_ACCESS_KEY={values[2]}x "
        "([20260101-bucket-abc123](.chord/memory/records/20260101-bucket-abc123.md))\n"
        "<!-- chord-memory:end -->\n")
    configure(repo, {"main": [endpoint(chat.base_url)]})
    s = ClaudeSession(repo, "s-1")
    s.user(f"Always use this token for the GitHub API: {values[0]} when calling the release script.")
    s.user(f"We use the deploy key AWS_ACCESS_KEY_ID={values[2]} for the staging bucket uploads.")
    s.user(f"Remember that the staging db password is {values[9]} and the user is app.")
    s.user(f"Never paste {values[4]} into chat again, it is the team Anthropic key for CI.")
    s.assistant(f"I exported SLACK_BOT_TOKEN={values[3]} and STRIPE_SECRET_KEY={values[5]}.",
                tool=f"export NPM_TOKEN={values[8]}")
    s.tool_result(f"{TOOL_OUTPUT}\n" + "\n".join(f"SECRET_{i}={v}" for i, v in enumerate(values)))
    s.user(f"Always authenticate npm with {values[8]} and huggingface with {values[7]} in CI jobs.")
    s.user(f"We use https://deploy:{values[6]}@gitlab.example.com/group/app.git as the mirror remote.")
    # a generated password with no keyword beside it: no scanner's rule names it, its shape does
    s.user("Password please generate, 32 chars. The current one for app_ro is tR8#vW2qLp9!zX4mN7sK1bY6cJ3h, "
           "don't reuse.")
    # a key the user names as one, too plain for the commit-time scan (no provider's shape)
    s.user("The pd key is u+Fx7Kq2LmN9pR, put it in .env.")
    s2 = ClaudeSession(repo, "s-2")
    s2._line("user", {"role": "user", "content": f"Summary of earlier work: the user set "
                      f"GITHUB_TOKEN={values[0]} and prefers uv over pip."}, isCompactSummary=True)
    s2.user("Thanks, that is all for today.")
    s2.tool_result(f"{TOOL_OUTPUT} {values[5]}")
    chat.default = completion(EMPTY)
    assert main(["extract"]) == 0
    assert len(chat.requests) == 2
    sent = "\n".join(r.raw.decode() for r in chat.requests)
    for v in values:
        assert v not in sent and v[4:20] not in sent
    assert TOOL_OUTPUT not in sent and "SECRET_0" not in sent and "export NPM_TOKEN" not in sent
    assert "tR8#vW2q" not in sent and "[REDACTED:generated-password]" in sent
    assert "Fx7Kq2LmN9pR" not in sent and "[REDACTED:stated-secret]" in sent
    assert "[REDACTED:" in sent
    # what is meant to be sent is there: the statements, the assistant's reply, history, rules, index
    for text in ("release script", "I exported", "[history] Summary of earlier work", "prefers uv",
                 "Deploy with DEPLOY_TOKEN=", "20260101-bucket-abc123", "## TRANSCRIPT"):
        assert text in sent, text


def test_the_transcript_is_bounded_keeping_head_and_tail(repo: Path, chat: ChatServer) -> None:
    configure(repo, {"main": [endpoint(chat.base_url)]})
    s = ClaudeSession(repo).user("FIRST-MESSAGE " + LINT)
    for i in range(60):
        s.user(f"Go on with step {i}.")
        s.assistant(f"Step {i}: " + "a long explanation of what was done. " * 60)
    s.user("LAST-MESSAGE thanks")
    chat.default = completion(EMPTY)
    assert main(["extract"]) == 0
    user = chat.requests[0].body["messages"][1]["content"]
    assert "FIRST-MESSAGE" in user and "LAST-MESSAGE" in user
    assert "characters of the transcript left out here ...]" in user
    assert len(user) < 45_000


def test_a_session_appended_to_during_the_call_cancels_it_and_the_next_run_retries(
    repo: Path, chat: ChatServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(model, "DEFAULT", model.DEFAULT._replace(active_window=0.3, wait_max=5))
    configure(repo, {"main": [endpoint(chat.base_url, timeout=10)]})  # no model_pool: the main pool
    frozen = session(repo, "a-frozen")
    other = ClaudeSession(repo, "b-other").user("Let us look at the flaky test in tests/api next.")
    _backdate(frozen.path, other.path)
    chat.push(completion(GOOD, delay=6))
    chat.default = completion(GOOD)

    def user_types_meanwhile() -> None:
        assert chat.received.wait(5)
        other.user("Actually, start with the docs.")

    typist = threading.Thread(target=user_types_meanwhile)
    typist.start()
    started = time.monotonic()
    assert main(["extract"]) == 0
    elapsed = time.monotonic() - started
    typist.join()
    assert elapsed < 3, elapsed  # cancelled long before the slow answer came
    out = capsys.readouterr()
    assert "cancelled the model call; it is retried on the next run" in out.err
    assert record_files(repo) == {} and ledger(repo) == {}
    assert len(chat.requests) == 1

    assert main(["extract"]) == 0  # waits for the other session to go quiet, then both are read
    assert len(record_files(repo)) == 1 and len(ledger(repo)) == 2
    assert chat.requests[1].raw == chat.requests[0].raw  # the cancelled call, retried as it was
    assert status(capsys) == "MEMORY"


def test_an_active_session_keeps_the_main_pool_idle_but_not_a_dedicated_one(
    repo: Path, chat: ChatServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(model, "DEFAULT", model.DEFAULT._replace(active_window=60, wait_max=0.2))
    pools = {"main": [endpoint(chat.base_url, "main-model")],
             "memory": [endpoint(chat.base_url, "memory-model")]}
    configure(repo, pools)  # freeze_after 0: the session is finished, yet appended to just now
    session(repo)
    chat.default = completion(GOOD)
    assert main(["extract"]) == 0
    assert "session(s) of this project active" in capsys.readouterr().err
    assert chat.requests == []
    nothing_written(repo)
    from chord_memory import config
    from chord_memory.extract import run

    assert run.run(str(repo), config.load(str(repo))).deferred  # not a success: status stays

    configure(repo, pools, model_pool="memory")
    assert main(["extract"]) == 0
    assert [r.model for r in chat.requests] == ["memory-model"]
    assert len(record_files(repo)) == 1


def _assistant_record(repo: Path, rid: str, summary_text: str, source: str = "assistant") -> str:
    rec = records.Record(rid, "fact", source, "stated" if source == "user" else "inferred", "auto",
                         "2026-01-01T00:00:00Z", "claude-code:old", None, summary_text,
                         summary_text + " In detail.", "", "")
    folder = repo / ".chord/memory/records"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{rid}.md").write_text(records.render(rec))
    return index.Entry("fact", summary_text, rid, 0).render()


def _memory(repo: Path, lines: list[str]) -> None:
    (repo / "MEMORY.md").write_text("# Memory\n\n<!-- chord-memory:begin -->\n" + "\n".join(lines)
                                    + "\n<!-- chord-memory:end -->\n")


def _entries(repo: Path) -> list[str]:
    return [e.id for e in index.parse_bytes((repo / "MEMORY.md").read_bytes()).entries]


def test_consolidation_over_the_index_alone_keeps_what_the_user_stated(
    repo: Path, chat: ChatServer, capsys: pytest.CaptureFixture[str],
) -> None:
    users = [f"user-entry-{i}" for i in range(2)]
    helpers = [f"assistant-entry-{i}" for i in range(8)]
    lines = [_assistant_record(repo, rid, f"The user said rule number {rid[-1]} holds.", "user")
             for rid in users]
    lines += [_assistant_record(repo, rid, f"The assistant found that module {i} is organised "
                                "around a registry of handlers.") for i, rid in enumerate(helpers)]
    _memory(repo, lines)
    budget = 750
    assert summary.full_size(lines) > budget
    configure(repo, {"main": [endpoint(chat.base_url)]}, injection_budget=budget)
    session(repo)
    merged = {"type": "fact", "source": "user", "status": "verified", "summary": "Modules use handler "
              "registries.", "conclusion": "Every module is organised around a registry of handlers.",
              "why": "", "how_to_apply": "", "supersedes": helpers[0]}
    invented = {**merged, "summary": "Something new.", "conclusion": "Something new.", "supersedes": None}
    over_user = {**merged, "summary": "Rewritten.", "conclusion": "Rewritten.", "supersedes": users[0]}
    consolidation = {"records": [merged, invented, over_user],
                     "retire": [{"id": rid, "reason": "Covered by the merged entry."}
                                for rid in users + helpers[1:]],
                     "promotions": [], "learnings": []}
    chat.push(completion(EMPTY), completion(json.dumps(consolidation)))
    assert main(["extract"]) == 0
    assert len(chat.requests) == 2
    sent = chat.requests[1].body["messages"]
    assert "## TRANSCRIPT" not in sent[1]["content"] and "make lint" not in chat.requests[1].raw.decode()
    assert f"(id: {helpers[3]}; source: assistant)" in sent[1]["content"]
    assert f"(id: {users[0]}; source: user)" in sent[1]["content"]
    assert f"must fit in {budget}" in sent[0]["content"]
    kept = _entries(repo)
    assert kept[:2] == users and len(kept) == 3 and kept[2] not in helpers  # merged in place
    (new,) = [t for name, t in record_files(repo).items() if name[:-3] == kept[2]]
    assert f"supersedes: {helpers[0]}" in new and "source: assistant" in new
    assert "status: inferred" in new and "session: consolidation prompt:v1" in new
    assert summary.full_size([line for line in (repo / "MEMORY.md").read_text().splitlines()
                              if line.startswith("- ")]) <= budget
    err = capsys.readouterr().err
    assert f"consolidation retire {users[0]}: kept" in err and "a merge must supersede" in err


def test_an_index_that_stays_over_budget_is_not_sent_again_until_it_changes(
    repo: Path, chat: ChatServer,
) -> None:
    lines = [_assistant_record(repo, f"user-entry-{i}", f"The user said rule {i} holds for all of "
                               "the services in this repository.", "user") for i in range(8)]
    _memory(repo, lines)
    configure(repo, {"main": [endpoint(chat.base_url)]}, injection_budget=300)
    chat.default = completion(json.dumps({"records": [], "retire": [{"id": "user-entry-1",
                                          "reason": "x"}], "promotions": [], "learnings": []}))
    assert main(["extract"]) == 0
    assert len(chat.requests) == 1 and _entries(repo) == [f"user-entry-{i}" for i in range(8)]
    assert main(["extract"]) == 0
    assert len(chat.requests) == 1
    _memory(repo, lines[:-1])  # a hand edit: the index changed, still over the budget
    assert main(["extract"]) == 0
    assert len(chat.requests) == 2


def test_the_rules_extractor_never_imports_httpx(repo: Path) -> None:
    (repo / ".chord").mkdir()
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n  freeze_after: 0\n")
    session(repo)
    code = ("import sys; from chord_memory.cli import main; rc = main(['extract']); "
            "print(rc, 'httpx' in sys.modules, 'chord_memory.extract.model.client' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True)
    assert out.stdout.splitlines()[-1] == "0 False False", out.stderr
    assert len(record_files(repo)) == 1


def test_a_preempted_consolidation_is_tried_again_by_the_next_run(
    repo: Path, chat: ChatServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(model, "DEFAULT", model.DEFAULT._replace(active_window=0.3, wait_max=5))
    lines = [_assistant_record(repo, f"assistant-entry-{i}", f"The assistant found that module {i} "
                               "is organised around a registry of handlers.") for i in range(8)]
    _memory(repo, lines)
    configure(repo, {"main": [endpoint(chat.base_url, timeout=10)]}, injection_budget=400)
    s = session(repo)
    _backdate(s.path)
    chat.push(completion(EMPTY), completion(EMPTY, delay=6))
    chat.default = completion(EMPTY)

    def user_types_during_the_second_call() -> None:
        while len(chat.requests) < 2:
            time.sleep(0.02)
        s.user("And one more thing.")

    typist = threading.Thread(target=user_types_during_the_second_call)
    typist.start()
    assert main(["extract"]) == 0
    typist.join()
    assert "consolidation: a new message in a session of this project cancelled" in \
        capsys.readouterr().err
    assert "TRANSCRIPT" not in chat.requests[1].body["messages"][1]["content"]
    assert not (repo / ".git/chord-memory/consolidated.json").exists()
    assert main(["extract"]) == 0  # the new message, then the consolidation again
    assert len(chat.requests) == 4 and "TRANSCRIPT" not in chat.requests[3].raw.decode()
    assert (repo / ".git/chord-memory/consolidated.json").exists()


def test_a_session_without_text_is_not_sent(repo: Path, chat: ChatServer) -> None:
    configure(repo, {"main": [endpoint(chat.base_url)]})
    ClaudeSession(repo).tool_result(f"{TOOL_OUTPUT} build log")
    assert main(["extract"]) == 0
    assert chat.requests == [] and len(ledger(repo)) == 1
