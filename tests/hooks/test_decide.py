"""The hook's O(1) decision and the pending files, in process (nothing here forks)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chord_memory import gitio, lock, settings
from chord_memory.background import decide, queue, start, worker
from chord_memory.cli import main
from tests.helpers import git
from tests.hooks.helpers import STATE, enable

SHA_A, SHA_B = "a" * 40, "b" * 40


@pytest.mark.parametrize(("argv", "env", "want"), [
    (["post-commit"], {}, ("post-commit", [])),
    (["post-checkout", SHA_A, SHA_B, "1"], {}, ("post-checkout", [SHA_A, SHA_B, "1"])),
    ([], {}, ("post-commit", [])),
    ([], {"PRE_COMMIT_FROM_REF": SHA_A, "PRE_COMMIT_TO_REF": SHA_B, "PRE_COMMIT_CHECKOUT_TYPE": "0"},
     ("post-checkout", [SHA_A, SHA_B, "0"])),
    ([], {"PRE_COMMIT_REWRITE_COMMAND": "rebase"}, ("post-rewrite", ["rebase"])),
    ([], {"PRE_COMMIT_IS_SQUASH_MERGE": "0"}, ("post-merge", ["0"])),
])
def test_event_from_argv_or_pre_commit(argv: list[str], env: dict[str, str],
                                       want: tuple[str, list[str]]) -> None:
    assert decide.event_and_args(argv, env) == want


@pytest.mark.parametrize(("event", "args", "env", "skipped"), [
    ("post-commit", [], {}, False),
    ("post-merge", ["0"], {}, False),
    ("post-rewrite", ["amend"], {}, False),
    ("post-checkout", [SHA_A, SHA_B, "1"], {}, False),
    ("post-checkout", [decide.NULL_SHA, SHA_B, "1"], {}, False),  # clone, worktree add
    ("post-checkout", [SHA_A, SHA_B, "0"], {}, True),           # a file checkout
    ("post-checkout", [SHA_A, SHA_A, "1"], {}, True),           # HEAD did not move
    ("post-commit", [], {"CHORD_MEMORY_SKIP": "1"}, True),
    ("post-commit", [], {"CHORD_MEMORY_SKIP": "0"}, False),
    ("post-commit", [], {"CI": "true"}, True),
    ("post-commit", [], {"CI": "1"}, True),
    ("post-commit", [], {"CI": "false"}, False),
    ("post-commit", [], {"CI": ""}, False),
    ("pre-push", [], {}, True),
])
def test_env_skip(event: str, args: list[str], env: dict[str, str], skipped: bool) -> None:
    assert (decide.env_skip(event, args, env) is not None) == skipped


def _git_dir(tmp_path: Path, *names: str, todo: int = 0) -> str:
    for name in names:
        (tmp_path / name).mkdir()
    if todo:
        (tmp_path / "sequencer").mkdir(exist_ok=True)
        (tmp_path / "sequencer/todo").write_text("# comment\n" + "pick 1234567 x\n" * todo)
    return str(tmp_path)


@pytest.mark.parametrize(("names", "todo", "event", "later"), [
    ((), 0, "post-commit", None),
    (("rebase-merge",), 0, "post-commit", "rebase"),
    (("rebase-merge",), 0, "post-checkout", "rebase"),
    (("rebase-apply",), 0, "post-commit", "rebase"),
    (("rebase-merge",), 0, "post-rewrite", None),   # the last event of a rebase
    (("MERGE_HEAD",), 0, "post-merge", None),       # git still shows MERGE_HEAD then
    (("MERGE_HEAD",), 0, "post-commit", "merge"),
    (("CHERRY_PICK_HEAD",), 0, "post-commit", None),  # a single cherry-pick: its only event
    ((), 3, "post-commit", "cherry-pick"),          # more picks follow
    ((), 1, "post-commit", None),                   # the last pick
    (("BISECT_LOG",), 0, "post-checkout", "bisect"),
])
def test_more_events_follow(tmp_path: Path, names: tuple[str, ...], todo: int, event: str,
                            later: str | None) -> None:
    assert gitio.more_events_follow(_git_dir(tmp_path, *names, todo=todo), event) == later


@pytest.mark.parametrize(("state", "last", "later"), [("rebase-merge", "post-rewrite", "rebase"),
                                                    ("MERGE_HEAD", "post-merge", "merge")])
def test_waits_for_the_last_event_only_when_its_hook_is_installed(
        repo: Path, state: str, last: str, later: str) -> None:
    """A pre-commit config that installs post-commit but not post-rewrite must not lose a rebase."""
    git_dir = str(repo / ".git")
    (repo / ".git" / state).mkdir()
    assert gitio.more_events_follow(git_dir, "post-commit") is None
    script = repo / ".git/hooks" / last
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    assert gitio.more_events_follow(git_dir, "post-commit") == later
    git(repo, "config", "core.hooksPath", "other-hooks")  # git's own setting decides where
    assert gitio.more_events_follow(git_dir, "post-commit") is None


def test_in_progress_sees_every_sequence(tmp_path: Path) -> None:
    assert gitio.in_progress(str(tmp_path)) is None
    (tmp_path / "REVERT_HEAD").write_text("x")
    assert gitio.in_progress(str(tmp_path)) == "revert"


def test_enabled_reads_the_settings_cache(repo: Path) -> None:
    assert decide.enabled(str(repo)) is False  # no configuration: off by default
    enable(repo)
    assert decide.enabled(str(repo)) is None   # cold cache: the child decides
    assert settings.load(str(repo)).enabled is True
    assert decide.enabled(str(repo)) is True
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: false\n")
    assert decide.enabled(str(repo)) is None   # the bytes changed: the cache is stale
    assert settings.load(str(repo)).enabled is False
    assert decide.enabled(str(repo)) is False


def test_fire_skips_without_forking(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(start, "start", lambda *a: pytest.fail("must not start"))
    assert decide.fire("post-commit", [], {}) == "skipped: memory is disabled"
    enable(repo)
    settings.load(str(repo))
    (repo / ".git/rebase-merge").mkdir()
    (repo / ".git/hooks/post-rewrite").write_text("#!/bin/sh\n")
    (repo / ".git/hooks/post-rewrite").chmod(0o755)
    assert "rebase is in progress" in decide.fire("post-commit", [], {})
    assert decide.fire("post-commit", [], {"CHORD_MEMORY_SKIP": "1"}) == "skipped: CHORD_MEMORY_SKIP=1"
    monkeypatch.chdir(repo.parent)
    assert decide.fire("post-commit", [], {}) == "skipped: not in a git work tree"


def test_fire_starts_with_the_pre_commit_parent(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    enable(repo)
    started: list[tuple[object, ...]] = []
    monkeypatch.setattr(start, "start", lambda *a: started.append(a))
    assert decide.fire("post-commit", [], {"PRE_COMMIT": "1"}) == "started"
    assert decide.fire("post-merge", ["0"], {}) == "started"
    root, state, key, event, wait_pid, check = started[0]
    assert (root, key, event, wait_pid, check) == (str(repo), "main", "post-commit", os.getppid(), True)
    assert state == str(repo / STATE)
    assert started[1][4] == 0  # no pre-commit: no stash window to wait for


def test_main_never_fails(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def boom(*a: object) -> str:
        raise OSError("disk on fire")

    monkeypatch.setattr(decide, "fire", boom)
    assert decide.main(["post-checkout", SHA_A, SHA_B, "1"]) == 0
    assert "disk on fire (ignored)" in capsys.readouterr().err


def test_cli_hook_command_decides_the_same(repo: Path) -> None:
    assert main(["hook", "post-checkout", SHA_A, SHA_A, "1"]) == 0
    assert not (repo / STATE).exists()


@pytest.mark.parametrize("argv", [["post-checkout", "a", "a", "1"], ["post-commit"]])
def test_the_hook_imports_nothing_heavy(repo: Path, monkeypatch: pytest.MonkeyPatch,
                                        argv: list[str]) -> None:
    enable(repo)
    settings.load(str(repo))  # warm: the post-commit goes all the way to the fork
    monkeypatch.setenv(queue.ENV_DEBOUNCE, "0")
    code = (f"import sys, chord_memory.hook as h; print(h.fire({argv[0]!r}, {argv[1:]!r})); "
            "bad = {'argparse', 'yaml', 'pydantic', 'httpx', 'typing', 'subprocess', 'json', "
            "'chord_memory.settings', 'chord_memory.config'} & set(sys.modules); print(sorted(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [
        "started" if argv == ["post-commit"] else "skipped: HEAD did not move", "[]"], out.stdout


# -- pending files ---------------------------------------------------------------------------

def test_marks_append_claim_release(tmp_path: Path) -> None:
    state = str(tmp_path)
    assert queue.keys(state) == [] and queue.claim(state, "main") is None
    queue.append(state, "main", "post-commit", 0, "/src/app")
    queue.append(state, "main", "post-checkout", 4242, "/src/app")
    queue.append(state, "wt-feature", "post-commit", 0, "/src/app-feature")
    assert queue.keys(state) == ["main", "wt-feature"]
    mark = queue.claim(state, "main")
    assert mark is not None
    assert (mark.root, mark.events, mark.pids) == ("/src/app", ["post-commit", "post-checkout"], [4242])
    queue.append(state, "main", "post-merge", 0, "/src/app")  # arrives during the run
    assert queue.peek(state, "main") is not None
    queue.release(state, "main")
    again = queue.claim(state, "main")
    assert again is not None and again.events == ["post-merge"]
    queue.release(state, "main")
    assert queue.keys(state) == ["wt-feature"]


def test_a_dead_workers_claim_is_taken_over(tmp_path: Path) -> None:
    state = str(tmp_path)
    queue.append(state, "main", "post-commit", 0, "/src/app")
    queue.claim(state, "main")  # ...and the worker died
    assert queue.keys(state) == ["main"]
    queue.append(state, "main", "post-commit", 0, "/src/app")
    mark = queue.claim(state, "main")
    assert mark is not None and mark.root == "/src/app"


def test_torn_lines_are_ignored(tmp_path: Path) -> None:
    state = str(tmp_path)
    (tmp_path / queue.PENDING).mkdir()
    (tmp_path / queue.PENDING / "main").write_text("garbage\n12 post-commit x /r\n1 post-commit 0 /a b\n")
    mark = queue.peek(state, "main")
    assert mark is not None and (mark.root, mark.events) == ("/a b", ["post-commit"])


def test_deferred_keys_wait_for_a_new_trigger(tmp_path: Path) -> None:
    state = str(tmp_path)
    queue.append(state, "main", "post-commit", 0, "/src/app")
    deferred = {"main": queue.stamp(state, "main")}
    assert queue.waiting(state, deferred) == []
    os.utime(tmp_path / queue.PENDING / "main", ns=(1, 1))
    assert queue.waiting(state, deferred) == ["main"]


def test_worktree_keys() -> None:
    assert queue.worktree_key("/r/.git", "/r/.git") == "main"
    assert queue.worktree_key("/r/.git/worktrees/feat x", "/r/.git") == "wt-feat_x"


def test_worker_env_is_clean() -> None:
    env = start.worker_env({"GIT_INDEX_FILE": ".git/index.lock", "GIT_DIR": ".git", "GIT_PREFIX": "",
                              "GIT_AUTHOR_DATE": "@1 +0000", "GIT_WORK_TREE": ".", "GIT_EDITOR": ":",
                              "GIT_CONFIG_GLOBAL": "/dev/null", "HOME": "/home/u", "OPENAI_API_KEY": "k"})
    assert env == {"GIT_CONFIG_GLOBAL": "/dev/null", "HOME": "/home/u", "OPENAI_API_KEY": "k",
                   "GIT_OPTIONAL_LOCKS": "0"}


def test_debounce_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(queue.ENV_DEBOUNCE, "0.25")
    assert queue.debounce() == 0.25
    monkeypatch.setenv(queue.ENV_DEBOUNCE, "soon")
    assert queue.debounce() == queue.DEBOUNCE


def test_lock_holder_and_patience(tmp_path: Path) -> None:
    state = str(tmp_path)
    assert lock.holder(state) is None
    with lock.held(state) as mine:
        assert mine and lock.holder(state) == os.getpid()
        with lock.held(state, 0.05) as other:
            assert not other
        assert not lock.is_free(state, 0.05)
    assert lock.is_free(state)


# -- the extract command's sides of the protocol ---------------------------------------------

def test_worker_with_nothing_pending_does_nothing(repo: Path) -> None:
    enable(repo)
    assert worker.main() == 0
    assert not (repo / STATE / "extract.log").exists()


def test_extract_while_a_worker_runs_leaves_a_trigger(
    repo: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    enable(repo)
    state = str(repo / STATE)
    with lock.held(state) as mine:
        assert mine
        assert main(["extract"]) == 0
    assert "it will pick this up" in capsys.readouterr().out
    mark = queue.peek(state, "main")
    assert mark is not None and mark.events == ["extract"] and mark.root == str(repo)


def test_extract_satisfies_its_own_trigger(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    enable(repo)
    state = str(repo / STATE)
    queue.append(state, "main", "post-commit", 0, str(repo))
    monkeypatch.setattr(start, "start_worker", lambda *a: pytest.fail("nothing left to start"))
    assert main(["extract"]) == 0
    assert queue.keys(state) == []


def test_worker_defers_during_a_rebase(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    enable(repo)
    monkeypatch.setattr(worker, "SEQUENCE_WAIT", 0.05)
    monkeypatch.setenv(queue.ENV_DEBOUNCE, "0")
    state = str(repo / STATE)
    (repo / ".git/rebase-merge").mkdir()
    queue.append(state, "main", "post-commit", 0, str(repo))
    assert worker.main() == 0
    assert queue.keys(state) == ["main"]  # remembered for the rebase's last event
    assert "deferred: a rebase is in progress" in (repo / STATE / "extract.log").read_text()


def test_a_trigger_for_a_removed_worktree_is_dropped(repo: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(queue.ENV_DEBOUNCE, "0")
    state = str(repo / STATE)
    queue.append(state, "wt-gone", "post-commit", 0, str(tmp_path / "gone"))
    assert worker.main() == 0
    assert queue.keys(state) == []
