"""`chord-memory install --agent claude-code`: real settings files merged in tmp_path."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import cli

USERS = {
    "permissions": {"allow": ["Bash(make test)"], "deny": ["Read(./.env)"]},
    "env": {"FOO": "1"},
    "hooks": {
        "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hello"}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}],
        "UserPromptSubmit": [{"hooks": [
            {"type": "command", "command": "date"},
            {"type": "command", "command": "chord-memory recall --format claude-code"}]}],
    },
}
OURS = {
    "SessionStart": "chord-memory summary --format claude-code",
    "UserPromptSubmit": "chord-memory recall --format claude-code",
    "SessionEnd": "chord-memory hook session-end",
}


def commands(settings: dict[str, object], event: str) -> list[str]:
    groups = settings.get("hooks", {}).get(event, [])  # type: ignore[attr-defined]
    return [h["command"] for g in groups for h in g["hooks"]]


def test_a_new_file_gets_every_hook_and_the_status_line(repo: Path) -> None:
    done = cli("install", "--agent", "claude-code", cwd=repo)
    assert done.returncode == 0, done.stderr
    settings = json.loads((repo / ".claude/settings.json").read_text())
    for event, command in OURS.items():
        assert commands(settings, event) == [command]
    assert settings["statusLine"] == {"type": "command", "command": "chord-memory status --short"}
    assert "/" not in json.dumps(settings).replace("startup|resume", "")  # no machine path anywhere
    again = (repo / ".claude/settings.json").read_bytes()
    assert cli("install", "--agent", "claude-code", cwd=repo).returncode == 0
    assert (repo / ".claude/settings.json").read_bytes() == again
    done = cli("uninstall", "--agent", "claude-code", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert not (repo / ".claude").exists()  # install created it: it goes


def test_a_file_the_user_had_stays_even_when_only_ours_was_added_to_it(repo: Path) -> None:
    """Uninstall removes only what install added: a `{}` of the user's is not install's file."""
    (repo / ".claude").mkdir()
    (repo / ".claude/settings.json").write_text("{}\n")
    assert cli("install", "--agent", "claude-code", cwd=repo).returncode == 0
    assert cli("uninstall", "--agent", "claude-code", cwd=repo).returncode == 0
    assert (repo / ".claude/settings.json").read_text() == "{}\n"


@pytest.mark.parametrize("local", [False, True])
def test_the_users_keys_and_hooks_stay(repo: Path, local: bool) -> None:
    name = ".claude/settings.local.json" if local else ".claude/settings.json"
    (repo / ".claude").mkdir()
    users = {**USERS, "statusLine": {"type": "command", "command": "~/.claude/line.sh"}}
    original = json.dumps(users, indent=4) + "\n"
    (repo / name).write_text(original)
    args = ("--agent", "claude-code", *(["--local"] if local else []))
    done = cli("install", *args, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "kept your statusLine" in done.stdout
    settings = json.loads((repo / name).read_text())
    assert settings["permissions"] == USERS["permissions"] and settings["env"] == {"FOO": "1"}
    assert settings["statusLine"] == users["statusLine"]
    assert commands(settings, "SessionStart") == ["echo hello", OURS["SessionStart"]]
    assert commands(settings, "PreToolUse") == ["./guard.sh"]
    # already there (the user pasted it): not added twice
    assert commands(settings, "UserPromptSubmit") == ["date", OURS["UserPromptSubmit"]]
    assert commands(settings, "SessionEnd") == [OURS["SessionEnd"]]
    assert list(settings) == list(users)  # the user's order; nothing new at the top level
    assert (repo / name).read_text().startswith('{\n    "permissions"')  # their indentation
    other = ".claude/settings.json" if local else ".claude/settings.local.json"
    assert not (repo / other).exists()
    once = (repo / name).read_bytes()
    assert cli("install", *args, cwd=repo).returncode == 0
    assert (repo / name).read_bytes() == once
    done = cli("uninstall", *args, cwd=repo)
    assert done.returncode == 0, done.stderr
    after = json.loads((repo / name).read_text())
    assert after["permissions"] == USERS["permissions"] and after["statusLine"] == users["statusLine"]
    assert commands(after, "SessionStart") == ["echo hello"]
    assert commands(after, "UserPromptSubmit") == ["date"]
    assert "SessionEnd" not in after["hooks"]


@pytest.mark.parametrize(("text", "where"), [
    ('{"hooks": {\n  "SessionStart": [}\n}', ".claude/settings.json:2:"),
    ("[1, 2]", ".claude/settings.json: holds a JSON list"),
    ('{"hooks": []}', '.claude/settings.json: "hooks" is not an object'),
    ('{"hooks": {"SessionEnd": {"a": 1}}}', '.claude/settings.json: "hooks"."SessionEnd" is not a list'),
    ('{"hooks": {"SessionEnd": [1]}}', '.claude/settings.json: "hooks"."SessionEnd"[0] is not an object'),
])
def test_a_broken_file_is_one_line_and_stays_as_it_was(repo: Path, text: str, where: str) -> None:
    (repo / ".claude").mkdir()
    (repo / ".claude/settings.json").write_text(text)
    for command in ("install", "uninstall"):
        done = cli(command, "--agent", "claude-code", cwd=repo)
        assert done.returncode == 2, done.stdout
        assert done.stderr.startswith(f"chord-memory: {where}"), done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert (repo / ".claude/settings.json").read_text() == text
    assert sorted(p.name for p in (repo / ".claude").iterdir()) == ["settings.json"]


def test_uninstall_without_our_hooks_touches_nothing(repo: Path) -> None:
    assert "not there" in cli("uninstall", "--agent", "claude-code", cwd=repo).stdout
    (repo / ".claude").mkdir()
    text = json.dumps({"statusLine": {"type": "command", "command": "x"}})
    (repo / ".claude/settings.json").write_text(text)
    done = cli("uninstall", "--agent", "claude-code", cwd=repo)
    assert done.returncode == 0 and "nothing to remove" in done.stdout
    assert (repo / ".claude/settings.json").read_text() == text


def test_local_without_an_agent_is_a_usage_error(repo: Path) -> None:
    done = cli("install", "--local", cwd=repo)
    assert done.returncode == 2 and "--agent claude-code" in done.stderr
    assert not (repo / ".git/hooks/post-commit").exists()


def test_the_installed_session_start_and_status_line_run_as_claude_code_runs_them(
        example_repo: Path, tmp_path: Path) -> None:
    from tests.agents.helpers import installed, shell

    assert cli("install", "--agent", "claude-code", "--local", cwd=example_repo).returncode == 0
    start = json.dumps({"session_id": "abc", "transcript_path": str(tmp_path / "t.jsonl"),
                        "cwd": str(example_repo), "hook_event_name": "SessionStart", "source": "startup"})
    done = shell(installed(example_repo, "SessionStart", local=True), example_repo, start)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "SessionStart" and "use-uv-for-installs" in out["additionalContext"]
    line = installed(example_repo, "statusLine", local=True)
    stdin = json.dumps({"workspace": {"current_dir": str(example_repo)}})
    assert shell(line, example_repo, stdin).stdout == ""  # extraction off: nothing
    (example_repo / ".chord/config.yaml").parent.mkdir(exist_ok=True)
    (example_repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n")
    assert shell(line, example_repo, stdin).stdout == "MEMORY\n"
