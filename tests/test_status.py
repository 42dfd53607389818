"""A failed run never leaves the status green (status.py, lock.py).

A run that fails writes `MEMORY-FAIL: <reason>` whenever the status can be written (an OSError
is a failure, not a crash); when it cannot (the state folder or .git read-only, a full disk, the
state folder a file), `status` finds out by itself. The lock refuses anything but a regular file.

Read-only and full file systems are real ones: as root `chmod` stops nothing, so those tests run
the commands in a private mount namespace (`unshare`) holding a read-only bind mount or a 64 KiB
tmpfs; they are skipped where `unshare` is not allowed.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chord_memory import status
from chord_memory.background import queue
from chord_memory.cli import main
from tests.helpers import cli
from tests.sessions import ClaudeSession

STATE = ".git/chord-memory"


def enabled_repo(repo: Path) -> Path:
    (repo / ".chord").mkdir(exist_ok=True)
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: true\n  freeze_after: 0\n")
    ClaudeSession(repo).user("We use uv for dependency management because pip drifts from the lock.")
    return repo


def status_line(repo: Path) -> str:
    done = cli("status", cwd=repo)
    assert done.returncode == 0 and done.stderr == ""
    return done.stdout


def one_line(text: str) -> str:
    assert text.count("\n") == 1 and "Traceback" not in text, text
    return text


def test_a_state_folder_that_is_a_file_is_not_green(repo: Path) -> None:
    enabled_repo(repo)
    (repo / STATE).write_text("")
    done = cli("extract", cwd=repo)
    assert done.returncode == 2 and STATE in one_line(done.stderr)
    line = status_line(repo)
    assert line.startswith(f"MEMORY-FAIL: {STATE} is not a folder") and "remove it" in line
    assert cli("status", "--short", cwd=repo).stdout == "MEMORY-FAIL\n"


def test_a_status_file_that_is_a_folder_is_not_green(repo: Path) -> None:
    enabled_repo(repo)
    (repo / STATE / "status.json").mkdir(parents=True)
    done = cli("extract", cwd=repo)  # (which file it names is atomic.py's: issue 12, another point)
    assert done.returncode == 2 and one_line(done.stderr)
    line = status_line(repo)
    assert line.startswith(f"MEMORY-FAIL: {STATE}/status.json cannot be read") and "remove it" in line


def test_a_status_file_we_did_not_write_is_not_green(repo: Path) -> None:
    enabled_repo(repo)
    (repo / STATE).mkdir()
    (repo / STATE / "status.json").write_text('["ok"]')
    assert status_line(repo).startswith(f"MEMORY-FAIL: {STATE}/status.json is not a status")


def test_an_os_error_in_a_run_is_an_honest_failure_not_a_crash(repo: Path) -> None:
    """Before: the status said the extraction crashed and pointed to a crash log nobody wrote."""
    enabled_repo(repo)
    (repo / ".chord/memory").mkdir(parents=True)
    (repo / ".chord/memory/records").write_text("")  # where a folder must be
    done = cli("extract", cwd=repo)
    assert done.returncode == 2 and ".chord/memory/records" in one_line(done.stderr)
    line = status_line(repo)
    assert line.startswith("MEMORY-FAIL: ") and ".chord/memory/records" in line
    assert "crash" not in line


def test_the_worker_records_an_os_error_as_a_failed_run(repo: Path) -> None:
    """The hooks' worker: before, the OSError was a crash (exit 3, "the extraction crashed" and a
    traceback). Now a failed run: one line, exit 1, the reason in the status, and the claim kept
    for the next trigger, as after a crash."""
    enabled_repo(repo)
    (repo / ".chord/memory").mkdir(parents=True)
    (repo / ".chord/memory/records").write_text("")
    state = str(repo / STATE)
    queue.append(state, "main", "post-commit", 0, str(repo))
    done = subprocess.run([sys.executable, "-m", "chord_memory.background.worker"], cwd=repo,
                          capture_output=True, text=True, env={**os.environ, queue.ENV_DEBOUNCE: "0"},
                          timeout=120)
    assert done.returncode == 1 and ".chord/memory/records" in one_line(done.stderr)
    last = status.read(str(repo))
    assert last["ok"] is False and ".chord/memory/records" in str(last["reason"])
    assert "crash" not in str(last["reason"]) and not (repo / STATE / "crash.log").exists()
    assert queue.keys(state) == ["main"]


def test_a_fifo_as_the_lock_is_refused_by_name(repo: Path) -> None:
    """Before: "chord-memory: Invalid argument", and the status stayed MEMORY."""
    enabled_repo(repo)
    (repo / STATE).mkdir()
    os.mkfifo(repo / STATE / "lock")
    done = cli("extract", cwd=repo)
    err = one_line(done.stderr)
    assert done.returncode == 2 and f"{STATE}/lock: is a FIFO, not a regular file" in err and "remove" in err
    assert status_line(repo).startswith("MEMORY-FAIL: ") and "lock" in status_line(repo)
    worked = subprocess.run([sys.executable, "-m", "chord_memory.background.worker"], cwd=repo,
                            capture_output=True, text=True)
    assert worked.returncode == 1 and "is a FIFO" in one_line(worked.stderr)
    assert (repo / STATE / "lock").is_fifo()


def test_a_fifo_as_the_lock_never_fails_the_git_hook(repo: Path) -> None:
    enabled_repo(repo)
    (repo / STATE).mkdir()
    os.mkfifo(repo / STATE / "lock")
    done = cli("hook", "post-commit", cwd=repo)
    assert (done.returncode, done.stderr) == (0, "")
    log = repo / STATE / "extract.log"
    deadline = time.monotonic() + 20
    while not (log.exists() and "is a FIFO" in log.read_text()):
        assert time.monotonic() < deadline, "the hook's child never logged the refused lock"
        time.sleep(0.05)
    assert status_line(repo).startswith(f"MEMORY-FAIL: {STATE}/lock is not a regular file")


@pytest.mark.parametrize("kind", ["symlink", "folder"])
def test_a_lock_that_is_a_link_or_a_folder_is_refused(repo: Path, tmp_path: Path, kind: str) -> None:
    enabled_repo(repo)
    (repo / STATE).mkdir()
    victim = tmp_path / "victim"
    victim.write_text("keep")
    if kind == "symlink":
        (repo / STATE / "lock").symlink_to(victim)
    else:
        (repo / STATE / "lock").mkdir()
    done = cli("extract", cwd=repo)
    label = "a symbolic link" if kind == "symlink" else "a folder"
    assert done.returncode == 2 and f"lock: is {label}, not a regular file" in one_line(done.stderr)
    assert victim.read_text() == "keep"  # never truncated through the link


# --- real read-only and full file systems, in a private mount namespace -------------------------

def _namespace_works() -> bool:
    if not shutil.which("unshare") or sys.platform != "linux":
        return False
    probe = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
                            "mount -t tmpfs -o size=64k tmpfs /mnt 2>/dev/null || "
                            "mount -t tmpfs -o size=64k tmpfs /tmp"], capture_output=True)
    return probe.returncode == 0


needs_namespace = pytest.mark.skipif(not _namespace_works(), reason="unshare --user --mount not allowed")


def in_namespace(repo: Path, setup: str) -> tuple[str, str]:
    """Run `setup`, then `extract` and `status` in a private mount namespace: (extract's stderr
    with its exit code, the status line)."""
    py = shlex.quote(sys.executable)
    script = (f"set -e; {setup}; set +e; {py} -m chord_memory extract >/dev/null; echo \"rc=$?\" >&2; "
              f"{py} -m chord_memory status")
    done = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script],
                          cwd=repo, capture_output=True, text=True, timeout=120)
    return done.stderr, done.stdout


@needs_namespace
@pytest.mark.parametrize("folder", [STATE, ".git"])
def test_a_read_only_state_folder_or_git_folder_is_not_green(repo: Path, folder: str) -> None:
    enabled_repo(repo)
    assert main(["status"]) == 0  # green before
    if folder == STATE:
        (repo / STATE).mkdir(exist_ok=True)
    else:
        shutil.rmtree(repo / STATE, ignore_errors=True)  # the run would make it in .git
    mount = f"mount --bind {folder} {folder}; mount -o remount,ro,bind {folder}"
    err, line = in_namespace(repo, mount)
    assert "rc=2" in err and "Read-only file system" in err
    assert line == (f"MEMORY-FAIL: {folder} is on a read-only file system: extraction cannot record "
                    "its work or its failures; make it writable and run chord-memory extract\n")


@needs_namespace
def test_a_full_disk_under_the_state_folder_is_not_green(repo: Path) -> None:
    enabled_repo(repo)
    (repo / STATE).mkdir()
    fill = f"mount -t tmpfs -o size=64k tmpfs {STATE}; head -c 1M /dev/zero > {STATE}/fill || true"
    err, line = in_namespace(repo, fill)
    assert "rc=2" in err and "No space left on device" in err
    assert line.startswith(f"MEMORY-FAIL: the file system of {STATE} is full (0 bytes free)")
    assert "free some space" in line


@needs_namespace
def test_a_full_disk_where_the_records_go_writes_the_failure(repo: Path) -> None:
    """The state folder is fine, the work tree's records folder is full: the run fails, and says
    so in the status (before: "the extraction crashed", and a crash log that was never written)."""
    enabled_repo(repo)
    (repo / ".chord/memory/records").mkdir(parents=True)
    fill = "mount -t tmpfs -o size=64k tmpfs .chord/memory/records; " \
           "head -c 1M /dev/zero > .chord/memory/records/fill || true"
    err, line = in_namespace(repo, fill)
    assert "rc=2" in err or "rc=1" in err
    assert line.startswith("MEMORY-FAIL: ") and "crash" not in line
    assert status.read(str(repo))["ok"] is False
