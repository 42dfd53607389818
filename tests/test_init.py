from __future__ import annotations

from pathlib import Path

import pytest

from chord_memory.cli import main
from chord_memory.region import BEGIN, END


def test_init_creates_both(repo: Path) -> None:
    assert main(["init"]) == 0
    text = (repo / "MEMORY.md").read_text()
    assert BEGIN in text and END in text
    assert "enabled: false" in (repo / ".chord/config.yaml").read_text()
    assert main(["check"]) == 0


def test_init_adds_region_and_keeps_user_bytes(repo: Path) -> None:
    original = b"\xef\xbb\xbf# Mine\r\nno trailing newline"
    (repo / "MEMORY.md").write_bytes(original)
    assert main(["init"]) == 0
    data = (repo / "MEMORY.md").read_bytes()
    assert data.startswith(original)
    assert data.endswith(f"{BEGIN}\r\n{END}\r\n".encode())


def test_init_never_overwrites(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / ".chord").mkdir()
    (repo / ".chord/config.yaml").write_text("memory: {enabled: true}\n")
    (repo / "MEMORY.md").write_text(f"mine\n{BEGIN}\n{END}\n")
    assert main(["init"]) == 0
    assert (repo / ".chord/config.yaml").read_text() == "memory: {enabled: true}\n"
    assert (repo / "MEMORY.md").read_text() == f"mine\n{BEGIN}\n{END}\n"
    assert "nothing to do" in capsys.readouterr().out


def test_init_refuses_a_broken_region(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "MEMORY.md").write_text(f"{BEGIN}\n")
    assert main(["init"]) == 1
    assert (repo / "MEMORY.md").read_text() == f"{BEGIN}\n"
    assert "CM101" in capsys.readouterr().err
