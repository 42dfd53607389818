"""Secrets never reach a file we write; a run killed at any write leaves whole files."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from chord_memory import index, records
from chord_memory.cli import main
from tests.helpers import enable, everything_written, secrets
from tests.helpers import records as record_files
from tests.sessions import ClaudeSession


def test_no_secret_reaches_any_file(repo: Path) -> None:
    enable(repo)
    rng = random.Random(7)
    values = secrets(rng)
    s = ClaudeSession(repo)
    s.user(f"Always use this token for the GitHub API: {values[0]} when calling the release script.")
    s.user(f"We use the deploy key AWS_ACCESS_KEY_ID={values[2]} for the staging bucket uploads.")
    s.user(f"Remember that the staging db password is {values[9]} and the user is app.")
    s.user(f"Never paste {values[4]} into chat again, it is the team Anthropic key for CI.")
    s.assistant(f"I exported SLACK_BOT_TOKEN={values[3]} and STRIPE_SECRET_KEY={values[5]}.", tool="env")
    s.tool_result("\n".join(f"SECRET_{i}={v}" for i, v in enumerate(values)))
    s.user(f"Always authenticate npm with {values[8]} and huggingface with {values[7]} in CI jobs.")
    s.user(f"We use https://deploy:{values[6]}@gitlab.example.com/group/app.git as the mirror remote.")
    assert main(["extract"]) == 0
    written = everything_written(repo)
    assert record_files(repo), "the statements around the secrets should still become records"
    for v in values:
        assert v not in written
        assert v[4:20] not in written
    # a statement is kept without its secret (issue 13), or not at all when the secret was its point
    assert "staging bucket uploads" in written
    assert "password is and" not in written and "use as the mirror" not in written


CHILD = r"""
import os, signal, sys
kill_at = int(sys.argv[1])
calls = [0]
def counting(real):
    def wrapper(*a, **k):
        calls[0] += 1
        if calls[0] == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*a, **k)
    return wrapper
os.replace = counting(os.replace)
os.link = counting(os.link)
from chord_memory.cli import main
raise SystemExit(main(["extract"]))
"""


def _whole(repo: Path, temps_allowed: bool) -> None:
    """Every memory file parses: nothing torn. A killed run may leave its temporary files."""
    data = (repo / "MEMORY.md").read_bytes() if (repo / "MEMORY.md").exists() else None
    if data is not None:
        assert index.parse_bytes(data).usable
    folder = repo / ".chord/memory/records"
    for p in folder.iterdir() if folder.exists() else []:
        if p.name.startswith(".chord-") and p.name.endswith(".tmp"):
            assert temps_allowed, p.name
            continue
        assert records.parse(p.read_bytes(), p.stem).record is not None, p.name
    assert temps_allowed or not list(repo.glob(".chord-*.tmp"))


@pytest.mark.parametrize("kill_at", range(1, 9))
def test_killed_at_each_write_then_finished(repo: Path, kill_at: int) -> None:
    enable(repo)
    (repo / "MEMORY.md").write_text("# Mine\n\n<!-- chord-memory:begin -->\n<!-- chord-memory:end -->\n")
    (ClaudeSession(repo)
     .user("Always run the linters with make lint before you hand work back.")
     .user("Never commit generated files under src/gen to the repository.")
     .user("Remember that the staging database is refreshed every Friday night."))
    child = subprocess.run([sys.executable, "-c", CHILD, str(kill_at)], cwd=repo, capture_output=True)
    _whole(repo, temps_allowed=True)
    if child.returncode == -9:
        assert main(["extract"]) == 0  # the next run finishes what the killed one left
    _whole(repo, temps_allowed=False)
    md = (repo / "MEMORY.md").read_text()
    assert md.startswith("# Mine\n")
    assert md.count("\n- ") == 3 and len(record_files(repo)) == 3
    assert not (repo / ".git/chord-memory/journal.json").exists()
