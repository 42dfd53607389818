from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from chord_memory.transcripts import claude_code_project_dir, discover, read_session
from chord_memory.transcripts.discover import _js_hash, belongs, encode_claude_code
from tests.helpers import make_repo
from tests.transcripts.helpers import CHORD, CLAUDE_CODE, CODEX, CODEX_OTHER, jsonl, relocated


@pytest.mark.parametrize(
    ("path", "folder"),
    [
        ("/home/me/src/app", "-home-me-src-app"),
        ("/home/me/my_app.v2", "-home-me-my-app-v2"),
        ("/Users/me/.agents", "-Users-me--agents"),
        ("/srv/Open Source/x~y", "-srv-Open-Source-x-y"),
        ("C:\\Users\\me\\proj", "C--Users-me-proj"),
        ("/p/Проект", "-p-------"),
        ("/p/caf\u00e9", "-p-caf-"),
        ("/p/\U0001f600", "-p---"),  # one astral character is two UTF-16 units
    ],
)
def test_claude_code_folder_name(path: str, folder: str) -> None:
    assert encode_claude_code(path) == folder


def test_long_folder_name_is_cut_with_a_hash() -> None:
    path = "/" + "/".join(["segment-" + "x" * 20] * 10)
    name = encode_claude_code(path)
    head, _, tail = name.rpartition("-")
    assert head == encode_claude_code(path)[:200] == path.replace("/", "-")[:200]
    assert tail.isalnum() and tail == tail.lower()


def test_js_hash_is_java_string_hashcode() -> None:
    assert _js_hash("hello") == 99162322
    assert _js_hash("") == 0
    assert -(2**31) <= _js_hash("x" * 1000) < 2**31


def test_claude_code_project_dir(tmp_path: Path) -> None:
    home = tmp_path / "home"
    root = tmp_path / "my_app.v2"
    root.mkdir()
    name = re.sub("[^A-Za-z0-9]", "-", os.path.realpath(root))
    assert claude_code_project_dir(str(root), str(home)) == str(home / ".claude/projects" / name)
    other = claude_code_project_dir(str(root), str(home), claude_config_dir=str(tmp_path / "cfg"))
    assert other.startswith(str(tmp_path / "cfg" / "projects") + os.sep)


def _claude_session(folder: Path, name: str, cwd: str) -> Path:
    return relocated(CLAUDE_CODE, folder / name, cwd)


def test_claude_code_only_this_projects_sessions(tmp_path: Path) -> None:
    home, root = tmp_path / "home", tmp_path / "my-app"
    root.mkdir()
    folder = Path(claude_code_project_dir(str(root), str(home)))
    ours = _claude_session(folder, "11111111-aaaa.jsonl", str(root))
    _claude_session(folder, "agent-3b1c.jsonl", str(root))  # a sub-agent file
    _claude_session(folder / "11111111-aaaa" / "subagents", "agent-1.jsonl", str(root))
    # /tmp/.../my.app encodes to the same folder as /tmp/.../my-app: not ours.
    _claude_session(folder, "22222222-bbbb.jsonl", str(tmp_path / "my.app"))
    other = Path(claude_code_project_dir(str(tmp_path / "other"), str(home)))
    _claude_session(other, "33333333-cccc.jsonl", str(tmp_path / "other"))

    found = discover("claude-code", str(root), home=str(home))
    assert found == [str(ours)]
    assert read_session("claude-code", found[0]).cwd == str(root)


def test_claude_code_nothing_there(tmp_path: Path) -> None:
    assert discover("claude-code", str(tmp_path / "app"), home=str(tmp_path / "home")) == []


def test_claude_code_symlinked_project_root(tmp_path: Path) -> None:
    home, real = tmp_path / "home", tmp_path / "real-app"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    folder = Path(claude_code_project_dir(str(real), str(home)))
    ours = _claude_session(folder, "s.jsonl", str(real))
    assert discover("claude-code", str(link), home=str(home)) == [str(ours)]


def test_claude_code_long_path_found_by_prefix_and_cwd(tmp_path: Path) -> None:
    home = tmp_path / "home"
    root = tmp_path.joinpath(*["deeply-nested-folder-" + "x" * 30] * 5, "app")
    twin = root.parent / ("app" + "y" * 50)  # same first 200 characters
    root.mkdir(parents=True)
    name = encode_claude_code(os.path.realpath(root))
    assert len(name) > 200 and encode_claude_code(str(twin))[:200] == name[:200]
    projects = home / ".claude" / "projects"
    ours = _claude_session(projects / (name[:200] + "-1bun2hash"), "s.jsonl", str(root))
    _claude_session(projects / (name[:200] + "-k3o9z"), "t.jsonl", str(twin))
    assert discover("claude-code", str(root), home=str(home)) == [str(ours)]


def _rollout(home: Path, day: str, name: str, source: Path, cwd: str) -> Path:
    return relocated(source, home / "sessions" / day / name, cwd)


def test_codex_only_sessions_whose_cwd_is_this_project(tmp_path: Path) -> None:
    codex_home, root = tmp_path / "codex-home", tmp_path / "app"
    root.mkdir()
    ours = _rollout(codex_home, "2025/10/03", CODEX.name, CODEX, str(root))
    _rollout(codex_home, "2025/10/03", CODEX_OTHER.name, CODEX_OTHER, str(tmp_path / "other"))
    _rollout(codex_home, "2025/10/04", "rollout-sub.jsonl", CODEX, str(root / "src"))
    _rollout(codex_home, "2025/10/04", "notes.jsonl", CODEX, str(root))  # not a rollout name
    garbage = codex_home / "sessions" / "2025" / "10" / "04" / "rollout-garbage.jsonl"
    garbage.write_bytes(b"not json\n")
    nameless = codex_home / "sessions" / "2025" / "10" / "04" / "rollout-nometa.jsonl"
    nameless.write_bytes(jsonl({"type": "response_item", "payload": {}}))
    spawn = {"subagent": {"thread_spawn": {"parent_thread_id": "p", "depth": 1}}}
    sub_agent = codex_home / "sessions" / "2025" / "10" / "04" / "rollout-sub-agent.jsonl"
    sub_agent.write_bytes(
        jsonl({"type": "session_meta", "payload": {"id": "c", "cwd": str(root), "source": spawn}})
    )

    found = discover("codex", str(root), home=str(tmp_path / "home"), codex_home=str(codex_home))
    assert found == [str(ours)]


def test_codex_home_defaults_under_home(tmp_path: Path) -> None:
    home, root = tmp_path / "home", tmp_path / "app"
    root.mkdir()
    ours = _rollout(home / ".codex", "2025/10/03", CODEX.name, CODEX, str(root))
    assert discover("codex", str(root), home=str(home)) == [str(ours)]


def test_chord_sessions_in_the_state_folder(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    sessions = root / ".git" / "chord-memory" / "sessions"
    ours = relocated(CHORD, sessions / "a.jsonl", str(root))
    relocated(CHORD, sessions / "b.jsonl", str(tmp_path / "worktree"))
    headerless = sessions / "c.jsonl"
    headerless.write_bytes(jsonl({"type": "message", "role": "user", "text": "hi"}))
    found = discover("chord", str(root), home=str(tmp_path / "home"))
    assert found == [str(ours), str(headerless)]


def test_chord_outside_a_repository(tmp_path: Path) -> None:
    assert discover("chord", str(tmp_path), home=str(tmp_path / "home")) == []


def test_belongs_for_configured_globs(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    ours = relocated(CODEX, tmp_path / "a" / CODEX.name, str(root))
    theirs = relocated(CODEX_OTHER, tmp_path / "b" / CODEX_OTHER.name, "/elsewhere")
    assert belongs("codex", str(ours), str(root))
    assert not belongs("codex", str(theirs), str(root))
    assert belongs("chord", str(relocated(CHORD, tmp_path / "c.jsonl", str(root))), str(root))


def test_unknown_kind(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown transcript kind"):
        discover("windsurf", str(tmp_path), home=str(tmp_path))
