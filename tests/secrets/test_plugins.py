"""The optional detect-secrets layer, and what importing the package costs."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from chord_memory.cli import main
from chord_memory.secrets import scan_text

BLOB = "q8Zx3Lm9Vb2Nc7Tr4Ws1Yd6Kp0Hf5Gj/Ue+Ia8Ob3Pc9"
TOKEN = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
TEXT = f'config:\n  blob = "{BLOB}"\nGITHUB_TOKEN={TOKEN}\n'


def test_plugins_add_what_our_rules_leave() -> None:
    assert [f.kind for f in scan_text(TEXT)] == ["github-token"]
    found = [(f.kind, TEXT[f.start:f.end]) for f in scan_text(TEXT, detect_secrets_plugins=True)]
    assert found == [("base64-high-entropy-string", BLOB), ("github-token", TOKEN)]


def test_plugin_findings_honour_the_pragma() -> None:
    text = f'blob = "{BLOB}"  # pragma: allowlist secret\n'
    assert scan_text(text, detect_secrets_plugins=True) == []


def test_scan_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "n.md").write_text(TEXT)
    assert main(["scan", "--detect-secrets", "n.md"]) == 1
    out = capsys.readouterr().out
    assert "base64-high-entropy-string" in out and BLOB not in out and TOKEN not in out


def test_import_is_cheap() -> None:
    code = (
        "import sys, chord_memory.secrets as s; s.scan_text('DB_PASSWORD=Xk9#mQ2vLp token: x'); "
        "print(sorted(m for m in ('detect_secrets', 'yaml', 'pydantic', 'httpx', 'git') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_without_the_extra_the_flag_says_how_to_get_it(tmp_path: Path) -> None:
    """detect-secrets is the extra chord-memory[detect-secrets] (docs/hooks.md): without it the
    flag is one line and exit 2, and a scan without the flag needs nothing of it."""
    (tmp_path / "n.md").write_text(TEXT)
    code = ("import sys; sys.modules['detect_secrets'] = None; from chord_memory.cli import main; "
            "raise SystemExit(main(sys.argv[1:]))")
    flagged = subprocess.run([sys.executable, "-c", code, "scan", "--detect-secrets", "n.md"],
                             cwd=tmp_path, capture_output=True, text=True)
    assert flagged.returncode == 2 and flagged.stdout == ""
    assert "chord-memory[detect-secrets]" in flagged.stderr and len(flagged.stderr.splitlines()) == 1
    plain = subprocess.run([sys.executable, "-c", code, "scan", "n.md"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert plain.returncode == 1 and "github-token" in plain.stdout
