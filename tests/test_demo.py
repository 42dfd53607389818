"""`make demo` as a CI job runs it: CI set, no stdin, nothing of the developer's machine."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

DEMO = Path(__file__).resolve().parents[1] / "examples" / "demo.sh"


@pytest.mark.slow
def test_demo_runs_end_to_end_with_ci_set_and_no_stdin(tmp_path: Path) -> None:
    env = {
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "CI": "true",
        "TMPDIR": str(tmp_path),
        "HOME": str(tmp_path / "home"),
        "LANG": "C.UTF-8",
    }
    done = subprocess.run(["bash", str(DEMO)], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "run done" in done.stdout
    assert "the pasted token is in no file chord-memory wrote" in done.stdout
