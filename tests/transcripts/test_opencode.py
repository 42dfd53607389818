from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from chord_memory.config import SessionSource
from chord_memory.extract.sources import find
from chord_memory.transcripts import Turn, checkpoint, counts_bytes, opencode, read_session, stamp
from chord_memory.transcripts.discover import belongs, discover
from tests.transcripts.helpers import FIXTURE_CWD, FIXTURES

STORAGE = FIXTURES / "opencode" / "storage"
PROJECT = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
SID = "ses_63e1f2a4bffeQm8Zt1kVd0Wn3P"
CHILD = "ses_63e1f0c9dffeHb2Lq7Xr5Yt9Ua"
OTHER = "ses_63e1ef11affeKs4Nw8Pz2Rc6Vb"
SESSION = STORAGE / "session" / PROJECT / f"{SID}.json"

FIXTURE_TURNS = [
    Turn("user", "Add a --json flag to the status command.", 1),
    Turn("assistant", "Added `--json` to `status`; it prints one JSON object.", 3),
    Turn("user", "Please keep the output keys in snake_case.", 4),
    Turn("history", "The user wants `status --json` with snake_case keys; the flag is in src/app/cli.py.", 9),
    Turn("assistant", "Nothing is left to do; the change is in place.", 11),  # the turn's last reply
    Turn("user", "Run the tests and show me the summary line.", 12),
    Turn("assistant", "All 42 tests pass.", 13),
    Turn("user", "Thanks.", 15),
]


# -- a session written the way OpenCode writes one ----------------------------------------------

_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


class Writer:
    """Sessions in OpenCode's JSON storage: ascending ids, one file a message and a part."""

    def __init__(self, data: Path, sid: str = "ses_5f0a00000000AAAAAAAAAAAAAA", cwd: str = FIXTURE_CWD,
                 **extra: Any) -> None:
        self.storage = data / "storage"
        self.sid, self.count, self.now = sid, 0, 1_759_482_600_000
        self.path = self.storage / "session" / PROJECT / f"{sid}.json"
        info = {"id": sid, "version": "1.1.36", "projectID": PROJECT, "directory": cwd, "title": "t",
                "time": {"created": self.now, "updated": self.now}, **extra}
        if cwd == "":
            del info["directory"]
        self._write(self.path, info)

    def _id(self, prefix: str) -> str:
        self.count += 1
        self.now += 1000
        stamp = (self.now * 4096 + self.count) & ((1 << 48) - 1)  # ascending: ms * 4096 + counter
        return f"{prefix}_{stamp:012x}" + _B62[self.count % 62] * 14

    @staticmethod
    def _write(path: Path, obj: object) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(obj, indent=2), encoding="utf-8")

    def message(self, role: str, *parts: dict[str, Any], complete: bool = True, **extra: Any) -> str:
        mid = self._id("msg")
        info: dict[str, Any] = {"id": mid, "sessionID": self.sid, "role": role, "time": {"created": self.now}}
        if role == "assistant":
            info.update({"parentID": "msg_x", "modelID": "m", "providerID": "p", "mode": "build",
                         "path": {"cwd": FIXTURE_CWD, "root": FIXTURE_CWD}, "cost": 0,
                         "tokens": {"input": 1, "output": 1, "reasoning": 0,
                                    "cache": {"read": 0, "write": 0}}})
            if complete:
                info["time"]["completed"] = self.now + 10
                info["finish"] = "stop"
        info.update(extra)
        self._write(self.storage / "message" / self.sid / f"{mid}.json", info)
        for part in parts:
            pid = self._id("prt")
            self._write(self.storage / "part" / mid / f"{pid}.json",
                        {"id": pid, "messageID": mid, "sessionID": self.sid, **part})
        return mid

    def user(self, *texts: str, **flags: Any) -> str:
        return self.message("user", *(text(t, **flags) for t in texts))

    def reply(self, *texts: str, complete: bool = True, **extra: Any) -> str:
        return self.message("assistant", {"type": "step-start"}, *(text(t) for t in texts),
                            complete=complete, **extra)

    def read(self, start: int = 0) -> opencode.Session:
        return read_session("opencode", str(self.path), start)


def text(value: str, **flags: Any) -> dict[str, Any]:
    return {"type": "text", "text": value, **flags}


def tool(name: str, output: str) -> dict[str, Any]:
    return {"type": "tool", "callID": "call_1", "tool": name,
            "state": {"status": "completed", "input": {"command": "ls"}, "output": output, "title": name,
                      "metadata": {}, "time": {"start": 1, "end": 2}}}


def copy_storage(dest: Path, cwd: str = FIXTURE_CWD) -> Path:
    """The fixture's storage folder under ``dest`` (a data folder), its directories set to ``cwd``."""
    target = dest / "storage"
    shutil.copytree(STORAGE, target)
    for path in target.rglob("*.json"):
        raw = path.read_text(encoding="utf-8")
        if FIXTURE_CWD in raw:
            path.write_text(raw.replace(FIXTURE_CWD, json.dumps(cwd)[1:-1]), encoding="utf-8")
    return target


# -- a database written the way OpenCode 1.2+ writes one -----------------------------------------

V1_SCHEMA = """
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, sandboxes text,
  time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL,
  directory text NOT NULL, title text NOT NULL, version text NOT NULL, share_url text,
  time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer,
  time_archived integer, revert text);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL, type text NOT NULL,
  seq integer NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
"""


def migrate(storage: Path, db: Path) -> None:
    """Copy a storage folder into a database as OpenCode's JSON migration does: a row a file,
    ``data`` the object without its ids."""
    con = sqlite3.connect(db)
    con.executescript(V1_SCHEMA)
    for path in sorted((storage / "project").glob("*.json")):
        p = json.loads(path.read_text())
        con.execute("INSERT INTO project VALUES (?, ?, ?, NULL, '[]', 1, 1)",
                    (p["id"], p["worktree"], p["vcs"]))
    for path in sorted((storage / "session").glob("*/*.json")):
        s = json.loads(path.read_text())
        con.execute("INSERT INTO session VALUES (?, ?, ?, 'slug', ?, ?, ?, NULL, ?, ?, NULL, NULL, NULL)",
                    (s["id"], s["projectID"], s.get("parentID"), s["directory"], s["title"], s["version"],
                     s["time"]["created"], s["time"]["updated"]))
        for mpath in sorted((storage / "message" / s["id"]).glob("*.json")):
            m = json.loads(mpath.read_text())
            data = {k: v for k, v in m.items() if k not in ("id", "sessionID")}
            con.execute("INSERT INTO message VALUES (?, ?, ?, ?, ?)",
                        (m["id"], s["id"], m["time"]["created"], m["time"]["created"], json.dumps(data)))
            for ppath in sorted((storage / "part" / m["id"]).glob("*.json")):
                raw = ppath.read_text()
                try:
                    part = json.loads(raw)
                    data = {k: v for k, v in part.items() if k not in ("id", "sessionID", "messageID")}
                    pid, body = part["id"], json.dumps(data)
                except ValueError:
                    pid, body = ppath.stem, raw  # the broken part stays broken
                con.execute("INSERT INTO part VALUES (?, ?, ?, 1, 1, ?)", (pid, m["id"], s["id"], body))
    con.commit()
    con.close()


# -- the fixture ------------------------------------------------------------------------------


def test_fixture_turns() -> None:
    session = read_session("opencode", str(SESSION))
    assert (session.kind, session.id, session.cwd) == ("opencode", SID, FIXTURE_CWD)
    assert session.turns == FIXTURE_TURNS
    assert session.end_offset == 15  # message 16 is a reply still being written
    assert session.skipped == 1  # the truncated part file of message 12
    assert not counts_bytes("opencode")


def test_fixture_never_shows_what_the_user_did_not_type() -> None:
    said = "\n".join(t.text for t in read_session("opencode", str(SESSION)).turns)
    for dropped in (
        "Called the Read tool",  # synthetic: the attached file
        "00001|",
        "operational mode",  # <system-reminder> in a text part
        "Inspecting the CLI",  # reasoning
        "I'll look at the CLI first.",  # an intermediate reply
        "make test",  # tool input
        "42 passed",  # tool output
        "The following tool was executed",  # the shell command's synthetic prompt
        "Continue if you have next steps",  # synthetic, after compaction
        "remaining todo items",  # a plugin's prompt (internal initiator marker)
        "/compact",  # an ignored part
        "You're wel",  # the unfinished reply
        "caller of status()",  # the sub-agent session's prompt
        "another project",
    ):
        assert dropped not in said


def test_a_finished_reply_is_read_next_time(tmp_path: Path) -> None:
    data = tmp_path / "opencode"
    storage = copy_storage(data)
    session_file = storage / "session" / PROJECT / f"{SID}.json"
    first = read_session("opencode", str(session_file))
    assert read_session("opencode", str(session_file), first.end_offset).turns == []
    message = sorted((storage / "message" / SID).glob("*.json"))[-1]
    info = json.loads(message.read_text())
    info["time"]["completed"], info["finish"] = info["time"]["created"] + 900, "stop"
    message.write_text(json.dumps(info, indent=2))
    part = sorted((storage / "part" / info["id"]).glob("*.json"))[-1]
    part.write_text(json.dumps({**json.loads(part.read_text()), "text": "You're welcome."}, indent=2))
    second = read_session("opencode", str(session_file), first.end_offset)
    assert second.turns == [Turn("assistant", "You're welcome.", 16)]
    assert (second.id, second.cwd, second.end_offset, second.skipped) == (SID, FIXTURE_CWD, 16, 0)


def test_a_growing_session_read_in_two_parts_gives_the_turns_of_one_read(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    w.user("First question.")
    w.message("assistant", {"type": "step-start"}, text("Looking."), tool("bash", "out"), complete=True)
    w.reply("First answer.")
    first = w.read()
    w.user("Second question.")
    w.reply("Second answer.")
    second = w.read(first.end_offset)
    whole = w.read()
    assert first.turns + second.turns == whole.turns == [
        Turn("user", "First question.", 1), Turn("assistant", "First answer.", 3),
        Turn("user", "Second question.", 4), Turn("assistant", "Second answer.", 5)]
    assert (first.end_offset, second.end_offset) == (3, 5)
    assert (second.id, second.cwd) == (whole.id, whole.cwd)
    assert w.read(whole.end_offset).turns == []


def test_checkpoint_and_stamp(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    first = w.user("One.")
    w.reply("Two.")
    head = checkpoint("opencode", str(w.path), 2)
    assert head is not None and head == checkpoint("opencode", str(w.path), 2)
    assert checkpoint("opencode", str(w.path), 3) is None  # past the end
    before = stamp("opencode", str(w.path))
    time.sleep(0.01)
    w.reply("Three.")
    after = stamp("opencode", str(w.path))
    assert after != before and after[1] > before[1]
    (w.storage / "message" / w.sid / f"{first}.json").unlink()  # a revert removed a message
    assert checkpoint("opencode", str(w.path), 2) != head
    assert checkpoint("opencode", str(tmp_path / "gone.json"), 0) is None


# -- user text: synthetic parts, flags and the harness table ------------------------------------


def test_synthetic_ignored_and_plugin_parts_are_not_typed(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    w.message("user", text("Typed words."), text("file contents", synthetic=True),
              text("hidden", ignored=True),
              text("Do the next todo.\n<!-- OMO_INTERNAL_INITIATOR -->"),
              text("Slim prompt\n\u2063\u2060\u200b\u200c\u200d\u2063\u2060\u200b\u200c\u200d"),
              {"type": "file", "mime": "image/png", "filename": "a.png", "url": "data:image/png;base64,iV"})
    w.message("user", text("<!-- CREW_INTERNAL_INITIATOR --> a plugin's own prompt"))
    w.message("user", {"type": "file", "mime": "image/png", "filename": "a.png", "url": "data:,"})
    assert w.read().turns == [Turn("user", "Typed words.", 1)]


@pytest.mark.parametrize("rule", opencode.HARNESS.rules, ids=lambda r: f"{r.name}:{r.start[:24]}")
def test_every_harness_rule(tmp_path: Path, rule: opencode.Rule) -> None:
    w = Writer(tmp_path)
    if rule.keep == "cut":
        w.user(f"Keep this. {rule.start} injected words {rule.end} And this.")
        assert w.read().turns == [Turn("user", "Keep this.  And this.", 1)]
    else:
        assert rule.keep == "drop"
        w.message("user", text(f"{rule.start} injected words"), text("The typed request."))
        w.message("user", text(f"  {rule.start.upper()}\nmore injected words"))
        assert w.read().turns == [Turn("user", "The typed request.", 1)]


def test_command_template_is_not_typed_but_ends_no_turn(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    w.user("Fix the parser.")
    w.reply("Fixed the parser.")
    w.user("Please analyze this codebase and create an AGENTS.md file containing:\n1. Build/lint/test "
           "commands\n\nIf there's already an AGENTS.md, improve it if it's located in /home/dev/src/app")
    w.reply("Wrote AGENTS.md.")
    assert w.read().turns == [Turn("user", "Fix the parser.", 1), Turn("assistant", "Wrote AGENTS.md.", 4)]


def test_agent_mention_keeps_the_typed_text(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    w.message("user", text("@explore find every caller of status()"), {"type": "agent", "name": "explore"},
              text(" Use the above message and context to generate a prompt and call the task tool with "
                   "subagent: explore", synthetic=True))
    w.message("user", {"type": "subtask", "prompt": "Review the diff", "description": "review",
                       "agent": "general", "command": "review"})
    assert w.read().turns == [Turn("user", "@explore find every caller of status()", 1)]


def test_an_echo_of_the_assistant_never_reaches_a_user_turn(tmp_path: Path) -> None:
    plan = ("The plan: move the status formatting into its own module, add a JSON encoder for the state "
            "object, and cover both output modes with tests before touching the CLI.")
    w = Writer(tmp_path)
    w.user("How should we restructure status?")
    w.reply(plan)
    w.user(f"{plan}\n\nGo ahead with that.")
    turns = w.read().turns
    assert turns[-1] == Turn("user", "Go ahead with that.", 3)
    resumed = w.read(2).turns  # the reply before the offset still counts as the assistant's words
    assert resumed == [Turn("user", "Go ahead with that.", 3)]


def test_the_prompt_sent_again_after_compaction_is_said_once(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    w.user("Port the importer to the new API.")
    w.message("user", {"type": "compaction", "auto": True, "overflow": True})
    w.reply("Summary: porting the importer.", summary=True, mode="compaction")
    w.user("Port the importer to the new API.")  # OpenCode replays the prompt it compacted away
    w.reply("Ported.")
    w.user("Port the importer to the new API.")  # typed again: a prompt
    assert [t.role for t in w.read().turns] == ["user", "history", "assistant", "user"]


# -- replies ----------------------------------------------------------------------------------


def test_the_reply_is_the_text_after_the_last_tool_call(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    w.user("Go.")
    w.message("assistant", {"type": "step-start"}, text("Checking."), tool("bash", "ok"),
              {"type": "step-finish", "reason": "tool-calls"}, {"type": "step-start"}, text("Part one."),
              text("Part two.", synthetic=True), text("Part three."),
              {"type": "step-finish", "reason": "stop"})
    w.message("assistant", {"type": "step-start"}, tool("bash", "later"))  # tool only: the reply stands
    assert w.read().turns[-1] == Turn("assistant", "Part one.\n\nPart three.", 2)


def test_an_abandoned_unfinished_reply_does_not_block(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    w.user("One.")
    w.reply("Half", complete=False)  # OpenCode died here
    w.user("Two.")
    w.reply("Done.")
    session = w.read()
    assert session.end_offset == 4
    assert session.turns == [Turn("user", "One.", 1), Turn("assistant", "Half", 2), Turn("user", "Two.", 3),
                             Turn("assistant", "Done.", 4)]


def test_an_errored_reply_is_finished(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    w.user("One.")
    w.reply("Partial answer", complete=False, error={"name": "MessageAbortedError", "data": {}})
    assert w.read().end_offset == 2


def test_a_prompt_whose_parts_are_not_written_yet_is_read_next_time(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    w.user("One.")
    w.reply("Two.")
    w.message("user")
    assert w.read().end_offset == 2


def test_a_pending_undo_withholds_the_undone_messages(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    w.user("Keep this.")
    w.reply("Kept.")
    undone = w.user("Never mind this.")
    w.reply("Done the thing.")
    info = json.loads(w.path.read_text())
    w._write(w.path, {**info, "revert": {"messageID": undone, "snapshot": "abc"}})
    session = w.read()
    assert (session.end_offset, [t.text for t in session.turns]) == (2, ["Keep this.", "Kept."])
    w._write(w.path, info)  # redo
    assert [t.text for t in w.read(2).turns] == ["Never mind this.", "Done the thing."]
    db = tmp_path / "opencode.db"
    migrate(w.storage, db)
    con = sqlite3.connect(db)
    con.execute("UPDATE session SET revert = ?", (json.dumps({"messageID": undone}),))
    con.commit()
    con.close()
    assert read_session("opencode", f"{db}#{w.sid}").end_offset == 2


# -- malformed and other input ----------------------------------------------------------------


def test_malformed_messages_and_parts_are_skipped_and_counted(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    w.user("Good.")
    bad = w.user("Lost.")
    (w.storage / "message" / w.sid / f"{bad}.json").write_text("{not json")
    odd = w.user("Odd.")
    (w.storage / "message" / w.sid / f"{odd}.json").write_text(json.dumps({"id": odd, "role": "system"}))
    binary = w.user("Binary.")
    for part in (w.storage / "part" / binary).glob("*.json"):
        part.write_bytes(b"\x00\xff\xfe" * 100)
    empty = w.user("Empty.")
    for part in (w.storage / "part" / empty).glob("*.json"):
        part.write_bytes(b"")
    w.user("Still read.")
    session = w.read()
    assert session.turns == [Turn("user", "Good.", 1), Turn("user", "Still read.", 6)]
    assert (session.skipped, session.end_offset) == (4, 6)
    assert w.read(3).skipped == 2  # what lies before the offset is not counted again


@pytest.mark.parametrize("content", [b"", b"\x00\x01binary", b"{broken", b"[1, 2]",
                                     b'{"id": "msg_1", "role": "user", "sessionID": "ses_1"}',
                                     b'{"id": "prt_1", "messageID": "msg_1", "type": "text", "text": "hi"}'])
def test_a_file_that_is_not_a_session_reads_as_nothing(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "storage" / "message" / "ses_1" / "msg_1.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    session = read_session("opencode", str(path))
    assert (session.turns, session.skipped, session.id) == ([], 1, "msg_1")
    assert not belongs("opencode", str(path), FIXTURE_CWD)


def test_a_broken_session_file_still_names_its_messages(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    w.user("Typed.")
    w.path.write_text("{trunc")
    session = w.read()
    assert (session.turns, session.skipped, session.id, session.cwd) == (
        [Turn("user", "Typed.", 1)], 1, w.sid, None)


def test_an_unreadable_session_raises_oserror(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        read_session("opencode", str(tmp_path / "missing.json"))
    with pytest.raises(OSError):
        read_session("opencode", f"{tmp_path / 'missing.db'}#ses_1")
    (tmp_path / "not.db").write_bytes(b"plain text, not a database" * 100)
    with pytest.raises(OSError):
        read_session("opencode", f"{tmp_path / 'not.db'}#ses_1")


def test_big_parts_are_streamed_past_or_skipped(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    w.user("Dump the log.")
    big = "x" * (20 * 1024 * 1024)
    w.message("assistant", {"type": "step-start"}, tool("bash", big), text("The log is 20 MB of x."))
    w.user(big)  # a 20 MB prompt part: over the cap, skipped and counted
    w.user("Done.")
    started = time.monotonic()
    session = w.read()
    assert time.monotonic() - started < 1.5
    assert session.turns == [Turn("user", "Dump the log.", 1), Turn("assistant", "The log is 20 MB of x.", 2),
                             Turn("user", "Done.", 4)]
    assert session.skipped == 1  # the prompt part; the tool part is known by its type and not read


# -- older JSON layouts -----------------------------------------------------------------------


def test_parts_inside_the_message_of_the_first_releases(tmp_path: Path) -> None:
    w = Writer(tmp_path)
    mid = w._id("msg")
    w._write(w.storage / "message" / w.sid / f"{mid}.json",
             {"id": mid, "role": "user", "parts": [{"type": "text", "text": "Old prompt."}],
              "metadata": {"sessionID": w.sid, "time": {"created": 1}, "tool": {}}})
    mid = w._id("msg")
    w._write(w.storage / "message" / w.sid / f"{mid}.json",
             {"id": mid, "role": "assistant",
              "parts": [{"type": "step-start"}, {"type": "text", "text": "Looking."},
                        {"type": "tool-invocation", "toolInvocation": {"state": "result"}},
                        {"type": "text", "text": "Old answer."}],
              "metadata": {"sessionID": w.sid, "time": {"created": 2, "completed": 3}, "tool": {},
                           "assistant": {"modelID": "m", "providerID": "p",
                                         "path": {"cwd": "/", "root": "/"}}}})
    assert w.read().turns == [Turn("user", "Old prompt.", 1), Turn("assistant", "Old answer.", 2)]


def test_the_per_project_layout_before_0_4(tmp_path: Path) -> None:
    base = tmp_path / "opencode" / "project" / "home-dev-src-app" / "storage" / "session"
    sid, mid, pid = "ses_1", "msg_000000000001aaaaaaaaaaaaaa", "prt_000000000002aaaaaaaaaaaaaa"
    Writer._write(base / "info" / f"{sid}.json", {"id": sid, "title": "t", "version": "0.3.0",
                                                  "time": {"created": 1, "updated": 2}})
    Writer._write(base / "message" / sid / f"{mid}.json",
                  {"id": mid, "sessionID": sid, "role": "assistant", "time": {"created": 1, "completed": 2},
                   "path": {"cwd": FIXTURE_CWD, "root": FIXTURE_CWD}})
    Writer._write(base / "part" / sid / mid / f"{pid}.json",
                  {"id": pid, "messageID": mid, "sessionID": sid, "type": "text", "text": "Hello."})
    path = base / "info" / f"{sid}.json"
    session = read_session("opencode", str(path))
    assert (session.turns, session.cwd) == ([Turn("assistant", "Hello.", 1)], FIXTURE_CWD)
    home = tmp_path / "home"
    env = {"XDG_DATA_HOME": str(tmp_path)}
    assert discover("opencode", FIXTURE_CWD, home=str(home), env=env) == [str(path)]


# -- the database -----------------------------------------------------------------------------


def test_a_database_session_reads_like_its_json_files(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    migrate(STORAGE, db)
    path = f"{db}#{SID}"
    session = read_session("opencode", path)
    assert (session.id, session.cwd, session.path) == (SID, FIXTURE_CWD, path)
    assert session.turns == FIXTURE_TURNS
    assert (session.end_offset, session.skipped) == (15, 1)
    assert read_session("opencode", path, 15).turns == []
    assert read_session("opencode", path, 9).turns == FIXTURE_TURNS[4:]
    head = checkpoint("opencode", path, 15)
    assert head is not None and head == checkpoint("opencode", path, 15)
    assert stamp("opencode", path)[1] > 0
    assert read_session("opencode", f"{db}#ses_missing").turns == []


def _v2_db(path: Path, rows: list[tuple[str, dict[str, Any]]], parent: str | None = None) -> str:
    con = sqlite3.connect(path)
    con.executescript(V1_SCHEMA)
    con.execute("CREATE TABLE session_v2 (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, "
                "slug text NOT NULL, directory text NOT NULL, title text, version text NOT NULL, "
                "time_created integer NOT NULL, time_updated integer NOT NULL)")
    con.execute("INSERT INTO session_v2 VALUES ('ses_v2', 'p', ?, 's', ?, 't', '2.0.12', 1, 2)",
                (parent, FIXTURE_CWD))
    # the 1.x tables are frozen at the upgrade: a stale copy must not be read as well
    con.execute("INSERT INTO session VALUES ('ses_v2', 'p', NULL, 's', ?, 't', '1.17', NULL, 1, 1, "
                "NULL, NULL, NULL)", (FIXTURE_CWD,))
    con.execute("INSERT INTO message VALUES ('msg_stale', 'ses_v2', 1, 1, ?)",
                (json.dumps({"role": "user", "time": {"created": 1}}),))
    con.execute("INSERT INTO part VALUES ('prt_stale', 'msg_stale', 'ses_v2', 1, 1, ?)",
                (json.dumps(text("Stale v1 copy.")),))
    for seq, (kind, data) in enumerate(rows):
        con.execute("INSERT INTO session_message VALUES (?, 'ses_v2', ?, ?, ?, ?, ?)",
                    (f"evt_{seq:04d}", kind, seq, seq, seq, json.dumps(data)))
    con.commit()
    con.close()
    return f"{path}#ses_v2"


def test_opencode_2_session_messages(tmp_path: Path) -> None:
    done = {"created": 1, "completed": 2}
    path = _v2_db(tmp_path / "opencode.db", [
        ("agent-switched", {"agent": "build", "time": {"created": 1}}),
        ("user", {"text": "Add a --json flag.", "files": [], "agents": [], "time": {"created": 1}}),
        ("synthetic", {"sessionID": "ses_v2", "text": "Called the Read tool", "time": {"created": 1}}),
        ("assistant", {"agent": "build", "model": {"id": "m", "providerID": "p"}, "time": done,
                       "finish": "tool-calls",
                       "content": [{"type": "reasoning", "id": "r", "text": "thinking"},
                                   {"type": "text", "text": "Looking first."},
                                   {"type": "tool", "id": "t", "name": "bash",
                                    "state": {"status": "completed"}}]}),
        ("assistant", {"agent": "build", "time": done, "finish": "stop",
                       "content": [{"type": "text", "text": "Added the flag."}]}),
        ("shell", {"callID": "c", "command": "make test", "output": "42 passed", "time": done}),
        ("compaction", {"reason": "auto", "summary": "The user wants --json.", "time": {"created": 3}}),
        ("user", {"text": "<system-reminder>plan</system-reminder>Thanks.", "time": {"created": 4}}),
        ("assistant", {"agent": "build", "time": {"created": 5},
                       "content": [{"type": "text", "text": "You're"}]}),
    ])
    session = read_session("opencode", path)
    assert session.turns == [Turn("user", "Add a --json flag.", 2), Turn("assistant", "Added the flag.", 5),
                             Turn("history", "The user wants --json.", 7), Turn("user", "Thanks.", 8)]
    assert (session.end_offset, session.cwd, session.id) == (8, FIXTURE_CWD, "ses_v2")
    assert read_session("opencode", path, 8).turns == []
    assert checkpoint("opencode", path, 8) is not None


# -- discovery --------------------------------------------------------------------------------


def test_discovery_finds_this_projects_top_level_sessions_only(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "src" / "app"
    project.mkdir(parents=True)
    copy_storage(home / ".local" / "share" / "opencode", str(project))
    found = discover("opencode", str(project), home=str(home), env={})
    assert [os.path.basename(p) for p in found] == [f"{SID}.json"]  # not the sub-agent's, not another's
    assert discover("opencode", str(tmp_path / "src"), home=str(home), env={}) == []
    assert discover("opencode", str(project), home=str(tmp_path / "nobody"), env={}) == []


def test_discovery_follows_xdg_data_home_and_reads_the_databases(tmp_path: Path) -> None:
    data, project = tmp_path / "xdg" / "opencode", tmp_path / "app"
    project.mkdir()
    storage = copy_storage(data, str(project))
    migrate(storage, data / "opencode.db")  # 1.2 copies the JSON sessions and leaves the files
    shutil.copy(data / "opencode.db", data / "opencode-dev.db")  # another channel's database
    env = {"XDG_DATA_HOME": str(tmp_path / "xdg")}
    found = discover("opencode", str(project), home=str(tmp_path / "home"), env=env)
    assert found == [f"{data / 'opencode.db'}#{SID}"]  # once: not again from the copy or the files
    custom = tmp_path / "custom.db"
    shutil.move(data / "opencode.db", custom)
    os.remove(data / "opencode-dev.db")
    found = discover("opencode", str(project), home=str(tmp_path / "home"),
                     env={**env, "OPENCODE_DB": str(custom)})
    assert found == [f"{custom}#{SID}"]


def test_belongs(tmp_path: Path) -> None:
    sessions = STORAGE / "session"
    assert belongs("opencode", str(SESSION), FIXTURE_CWD)
    assert not belongs("opencode", str(SESSION), "/home/dev/src")
    assert not belongs("opencode", str(sessions / PROJECT / f"{CHILD}.json"), FIXTURE_CWD)  # a sub-agent
    assert not belongs("opencode", str(sessions / "global" / f"{OTHER}.json"), FIXTURE_CWD)
    assert not belongs("opencode", str(tmp_path / "missing.json"), FIXTURE_CWD)
    named_by_project = Writer(tmp_path / "a", cwd="")  # no directory: the project file's worktree decides
    Writer._write(named_by_project.storage / "project" / f"{PROJECT}.json", {"id": PROJECT, "worktree": "/x"})
    assert belongs("opencode", str(named_by_project.path), "/x")
    assert not belongs("opencode", str(named_by_project.path), FIXTURE_CWD)
    named_by_nothing = Writer(tmp_path / "b", cwd="")
    assert belongs("opencode", str(named_by_nothing.path), FIXTURE_CWD)
    db = tmp_path / "opencode.db"
    migrate(STORAGE, db)
    assert belongs("opencode", f"{db}#{SID}", FIXTURE_CWD)
    assert not belongs("opencode", f"{db}#{CHILD}", FIXTURE_CWD)
    assert not belongs("opencode", f"{db}#{SID}", "/elsewhere")
    assert not belongs("opencode", f"{db}#ses_missing", FIXTURE_CWD)


def test_expand_and_configured_globs(tmp_path: Path) -> None:
    data, project = tmp_path / "opencode", tmp_path / "app"
    project.mkdir()
    storage = copy_storage(data, str(project))
    root = str(project)
    session_file = str(storage / "session" / PROJECT / f"{SID}.json")
    assert list(opencode.expand(str(data), root)) == [session_file]
    assert list(opencode.expand(str(storage), root)) == [session_file]
    assert list(opencode.expand(str(storage / "session"), root)) == [session_file]
    assert list(opencode.expand(session_file, root)) == [session_file]
    message = next((storage / "message" / SID).glob("*.json"))
    assert list(opencode.expand(str(message), root)) == []
    migrate(storage, data / "opencode.db")
    assert list(opencode.expand(str(data / "opencode.db"), root)) == [f"{data / 'opencode.db'}#{SID}"]
    sources = [SessionSource(kind="opencode", path=str(tmp_path / "opencode" / "*.db")),
               SessionSource(kind="opencode", path=str(tmp_path / "opencode" / "storage" / "**" / "*.json"))]
    found = find(root, sources, {"HOME": str(tmp_path / "home")})
    assert found == sorted([("opencode", f"{data / 'opencode.db'}#{SID}"), ("opencode", session_file)])
