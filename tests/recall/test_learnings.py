"""Learnings: sightings per distinct session, the threshold and the cap, who acted, revocation."""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from chord_memory import decisions, learnings, records
from chord_memory.cli import main

LESSON = {"key": "run-unit-tests-first", "lesson": "Run the unit tests before pushing."}


def config(repo: Path, text: str) -> None:
    (repo / ".chord").mkdir(exist_ok=True)
    (repo / ".chord/config.yaml").write_text(f"memory:\n{text}")


def seen(repo: Path, key: str, sessions: int, lesson: str | None = None) -> None:
    for n in range(sessions):
        learnings.record_sightings(str(repo), f"claude-code:{key}-{n}",
                                   [{"key": key, "lesson": lesson or f"Lesson {key} holds for the team."}])


def record_of(repo: Path, rid: str) -> records.Record:
    data = (repo / f".chord/memory/records/{rid}.md").read_bytes()
    rec = records.parse(data, rid).record
    assert rec is not None
    return rec


def test_sightings_count_once_per_session(repo: Path) -> None:
    root = str(repo)
    assert learnings.record_sightings(root, "codex:1", [LESSON, {"key": "Bad Key", "lesson": "x"}]) == \
        ["run-unit-tests-first"]
    assert learnings.record_sightings(root, "codex:1", [LESSON]) == []
    learnings.record_sightings(root, "claude-code:2", [{**LESSON, "lesson": "Other words."}])
    lr = learnings.load(root, "run-unit-tests-first")
    assert lr is not None and lr.sessions == 2 and lr.lesson == LESSON["lesson"]
    assert [s["session"] for s in lr.sightings] == ["codex:1", "claude-code:2"]
    raw = json.loads((repo / ".chord/memory/learnings/run-unit-tests-first.json").read_text())
    assert raw["status"] == "open" and raw["actions"] == []


def test_lessons_are_scrubbed_of_secrets(repo: Path) -> None:
    token = "ghp_" + "x7Kq2mZp9RtLw4VbN8cYd3Hj6Fs1Ga5Ue0Ti"
    learnings.record_sightings(str(repo), "s:1", [{"key": "deploy-token", "lesson": f"Deploy with {token}."}])
    text = (repo / ".chord/memory/learnings/deploy-token.json").read_text()
    assert token not in text and "[REDACTED:" in text


def test_list_shows_what_is_ready_with_the_command(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seen(repo, "seen-once-only", 1)
    seen(repo, "seen-twice-now", 2)
    assert main(["learnings", "list"]) == 0
    out = capsys.readouterr().out
    assert "chord-memory learnings promote --ids seen-twice-now --by human" in out
    assert "seen-once-only 1/2" in out and "promote --ids seen-once-only" not in out
    config(repo, "  recurrence: {minSightings: 3}\n")
    assert main(["learnings", "list"]) == 0
    assert "Nothing is ready to promote" in capsys.readouterr().out


def test_at_most_max_per_run_are_reported(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for i in range(5):
        seen(repo, f"lesson-number-{i}", 2 + i)
    assert main(["learnings", "list"]) == 0
    out = capsys.readouterr().out
    assert "3 of 5 shown" in out
    assert "--ids lesson-number-4 lesson-number-3 lesson-number-2 --by human" in out


def test_human_promotion_is_recorded_as_human(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seen(repo, "run-unit-tests-first", 2, LESSON["lesson"])
    assert main(["learnings", "promote", "--ids", "run-unit-tests-first", "--by", "human"]) == 0
    lr = learnings.load(str(repo), "run-unit-tests-first")
    assert lr is not None and lr.status == "promoted" and lr.record
    assert lr.actions[-1]["action"] == "promote" and lr.actions[-1]["by"] == "human" and lr.actions[-1]["at"]
    rec = record_of(repo, lr.record)
    assert (rec.type, rec.actor, rec.source, rec.status) == ("decision", "human", "user", "stated")
    assert rec.conclusion == LESSON["lesson"] and rec.session == "learning:run-unit-tests-first"
    assert f"- decision: {LESSON['lesson']} ([{lr.record}]" in (repo / "MEMORY.md").read_text()
    assert main(["check"]) == 0
    assert main(["learnings", "promote", "--ids", "run-unit-tests-first", "--by", "human"]) == 1


def test_auto_promotion_is_never_human_and_is_capped(repo: Path) -> None:
    for i in range(5):
        seen(repo, f"lesson-number-{i}", 2)
    assert decisions.auto_promote(str(repo)) == []  # off unless memory.autoPromote.enabled
    config(repo, "  autoPromote: {enabled: true}\n  recurrence: {maxPerRun: 2}\n")
    done = decisions.auto_promote(str(repo))
    assert len(done) == 2
    for rid in done:
        rec = record_of(repo, rid)
        assert (rec.actor, rec.source) == ("auto", "assistant")
    promoted = [lr for lr in learnings.load_all(str(repo)) if lr.status == "promoted"]
    assert len(promoted) == 2 and all(lr.actions[-1]["by"] == "auto" for lr in promoted)
    assert len(decisions.auto_promote(str(repo))) == 2
    assert len(decisions.auto_promote(str(repo))) == 1


def test_reject_and_revoke(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seen(repo, "turned-down-lesson", 2)
    seen(repo, "promoted-then-revoked", 2)
    assert main(["learnings", "reject", "--ids", "turned-down-lesson", "--by", "human"]) == 0
    assert main(["learnings", "promote", "--ids", "promoted-then-revoked", "--by", "human"]) == 0
    rid = learnings.find(str(repo), "promoted-then-revoked").record
    assert rid and rid in (repo / "MEMORY.md").read_text()
    capsys.readouterr()
    assert main(["learnings", "list"]) == 0
    out = capsys.readouterr().out
    assert "Rejected: turned-down-lesson (by human" in out and f"Promoted as {rid}" in out
    assert "Nothing is ready to promote" in out
    assert main(["learnings", "revoke", "--ids", rid, "--by", "human"]) == 0  # by record id
    lr = learnings.find(str(repo), "promoted-then-revoked")
    assert lr.status == "revoked" and lr.actions[-1] == {**lr.actions[-1], "action": "revoke", "by": "human",
                                                         "record": rid}
    assert rid not in (repo / "MEMORY.md").read_text()
    assert (repo / f".chord/memory/records/{rid}.md").is_file()
    assert main(["learnings", "revoke", "--ids", "turned-down-lesson", "--by", "human"]) == 1
    assert main(["learnings", "reject", "--ids", "no-such-lesson", "--by", "human"]) == 2


@pytest.mark.parametrize("argv", [
    ["learnings", "promote", "--ids", "x-y-z"],
    ["learnings", "reject", "--by", "human"],
    ["learnings", "promote", "--ids", "x-y-z", "--by", "auto"],
])
def test_who_acts_must_be_said(repo: Path, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_a_duplicate_or_bad_lesson_is_not_promoted(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seen(repo, "same-as-record", 2, "Run the unit tests before pushing.")
    seen(repo, "machine-path", 2, "Logs are in /home/ana/app/logs for this project.")
    learnings.record_sightings(str(repo), "s:9", [{"key": "other-copy", "lesson": "Run the unit tests "
                                                  "before pushing."}])
    learnings.record_sightings(str(repo), "s:10", [{"key": "other-copy", "lesson": "x"}])
    assert main(["learnings", "promote", "--ids", "same-as-record", "--by", "human"]) == 0
    assert main(["learnings", "promote", "--ids", "other-copy", "--by", "human"]) == 1
    assert main(["learnings", "promote", "--ids", "machine-path", "--by", "human"]) == 1
    err = capsys.readouterr().err
    assert "same conclusion" in err and "CM401" in err


def test_a_broken_learning_file_is_one_line(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / ".chord/memory/learnings").mkdir(parents=True)
    (repo / ".chord/memory/learnings/broken-file.json").write_text("{not json")
    assert main(["learnings", "list"]) == 1
    assert "broken-file.json: not a learning file" in capsys.readouterr().err


def test_an_unusable_region_is_refused_before_anything_is_written(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seen(repo, "some-good-lesson", 2)
    (repo / "MEMORY.md").write_text("<!-- chord-memory:begin -->\njunk\n<!-- chord-memory:end -->\n")
    assert main(["learnings", "promote", "--ids", "some-good-lesson", "--by", "human"]) == 1
    assert "CM104" in capsys.readouterr().err
    assert not (repo / ".chord/memory/records").exists()


TOKEN = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"


def hand_edited(repo: Path, key: str, lesson: str, **extra: object) -> Path:
    """A learning file as a person might edit it: seen in two sessions, nothing scrubbed."""
    folder = repo / ".chord/memory/learnings"
    folder.mkdir(parents=True, exist_ok=True)
    f = folder / f"{key}.json"
    f.write_text(json.dumps({"key": key, "lesson": lesson, "status": "open", "record": None, "sightings": [
        {"session": "a:1", "at": "2026-11-01T00:00:00Z"}, {"session": "b:2", "at": "2026-11-02T00:00:00Z"}],
        "actions": [], **extra}))
    return f


@pytest.mark.parametrize("by", ["human", "auto"])
def test_a_hand_edited_secret_is_scrubbed_from_record_index_file_and_list(
        repo: Path, by: str, capsys: pytest.CaptureFixture[str]) -> None:
    f = hand_edited(repo, "deploy-token", f"Deploy with the token {TOKEN} from the vault.")
    assert main(["learnings", "list"]) == 0
    assert TOKEN not in capsys.readouterr().out
    if by == "human":
        assert main(["learnings", "promote", "--ids", "deploy-token", "--by", "human"]) == 0
    else:
        config(repo, "  autoPromote: {enabled: true}\n")
        assert len(decisions.auto_promote(str(repo))) == 1
    rid = learnings.find(str(repo), "deploy-token").record
    assert rid
    written = [(repo / "MEMORY.md").read_text(), (repo / f".chord/memory/records/{rid}.md").read_text(),
               f.read_text()]
    assert all(TOKEN not in text and "[REDACTED:" in text for text in written)
    assert record_of(repo, rid).conclusion == "Deploy with the token [REDACTED:github-token] from the vault."


def test_a_lesson_that_is_only_a_secret_is_not_promoted(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand_edited(repo, "only-a-token", f" {TOKEN}. ")
    assert main(["learnings", "promote", "--ids", "only-a-token", "--by", "human"]) == 1
    assert "nothing but a secret" in capsys.readouterr().err
    assert not (repo / ".chord/memory/records").exists() and not (repo / "MEMORY.md").exists()


def _directory(f: Path) -> None:
    f.mkdir()


def _deep_json(f: Path) -> None:
    f.write_text("[" * 100_000 + "]" * 100_000)


def _dev_zero(f: Path) -> None:
    f.symlink_to("/dev/zero")


def _fifo(f: Path) -> None:
    os.mkfifo(f)


def _link_out(f: Path) -> None:
    """A valid learning outside the project, linked in."""
    outside = hand_edited(f.parents[4], f.stem, "Outside the project.")
    f.symlink_to(outside)


BAD_FILES = [_directory, _deep_json, _dev_zero, _fifo, _link_out]


@pytest.mark.parametrize("make", BAD_FILES, ids=lambda m: m.__name__.strip("_"))
@pytest.mark.parametrize("action", ["list", "promote", "reject", "revoke"])
def test_a_bad_learning_file_is_one_line(
        repo: Path, make: Callable[[Path], None], action: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder = repo / ".chord/memory/learnings"
    folder.mkdir(parents=True)
    make(folder / "bad-lesson.json")
    argv = ["learnings", action] + ([] if action == "list" else ["--ids", "bad-lesson", "--by", "human"])
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".chord/memory/learnings/bad-lesson.json: " in err
    assert "unexpected" not in err and "Traceback" not in err
    assert not (repo / "MEMORY.md").exists()


def test_auto_promotion_logs_a_bad_file_and_carries_on(repo: Path) -> None:
    config(repo, "  autoPromote: {enabled: true}\n")
    hand_edited(repo, "good-lesson", "Run the linters before pushing.")
    _deep_json(repo / ".chord/memory/learnings/bad-lesson.json")
    assert decisions.auto_promote(str(repo)) == []


def test_a_record_field_that_is_not_an_id_is_refused(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand_edited(repo, "odd-record", "Run the linters before pushing.", record="../../MEMORY.md",
                status="promoted")
    assert main(["learnings", "revoke", "--ids", "odd-record", "--by", "human"]) == 1
    assert "`record` must be null or a record id" in capsys.readouterr().err


@pytest.mark.parametrize("action", ["list", "promote"])
def test_a_learnings_folder_that_links_out_is_not_followed(
        repo: Path, tmp_path: Path, action: str, capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "elsewhere"
    hand_edited(outside, "far-lesson", "Run the linters before pushing.")
    (repo / ".chord/memory").mkdir(parents=True)
    (repo / ".chord/memory/learnings").symlink_to(outside / ".chord/memory/learnings")
    argv = ["learnings", action] + ([] if action == "list" else ["--ids", "far-lesson", "--by", "human"])
    assert main(argv) == 1
    assert "links out of the project" in capsys.readouterr().err
    assert not (repo / "MEMORY.md").exists() and not (outside / "MEMORY.md").exists()
