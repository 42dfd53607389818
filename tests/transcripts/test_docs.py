"""docs/transcripts.md stays true: its example reads cleanly, its names exist."""
from __future__ import annotations

import re
from pathlib import Path

from chord_memory.transcripts import KINDS, read_session
from chord_memory.transcripts.claude_code import _AUXILIARY

DOC = Path(__file__).resolve().parents[2] / "docs" / "transcripts.md"


def test_chord_example_in_the_docs_reads_without_skips(tmp_path: Path) -> None:
    block = re.search(r"```jsonl\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert block is not None
    path = tmp_path / "example.jsonl"
    path.write_text(block.group(1), encoding="utf-8")
    session = read_session("chord", str(path))
    assert session.skipped == 0
    assert [t.role for t in session.turns] == ["user", "assistant", "history", "user", "assistant"]
    assert session.id == "2025-10-03-demo"


def test_docs_name_every_kind_and_every_ignored_claude_code_line_type() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in (*KINDS, *_AUXILIARY):
        assert f"`{name}`" in text


def test_docs_give_every_agents_harness_table() -> None:
    """Every rule of every reader's harness table is in docs/transcripts.md, as written."""
    from chord_memory.transcripts import reader

    text = DOC.read_text(encoding="utf-8")
    for kind in KINDS:
        harness = getattr(reader(kind), "HARNESS", None)
        for rule in harness.rules if harness is not None else ():
            for piece in rule.start.split("\n"):
                assert f"`{piece}" in text, (kind, rule)
