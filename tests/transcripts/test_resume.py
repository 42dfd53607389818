"""Reading from end_offset returns only what was appended since, for every format."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chord_memory.transcripts import read_session
from tests.transcripts.helpers import BY_KIND, complete_lines


@pytest.mark.parametrize("kind", sorted(BY_KIND))
def test_resume_at_every_line_boundary(kind: str, tmp_path: Path) -> None:
    data = complete_lines(BY_KIND[kind])
    whole = read_session(kind, str(BY_KIND[kind]))
    path = tmp_path / BY_KIND[kind].name
    boundaries = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    for cut in boundaries:
        path.write_bytes(data[:cut])
        first = read_session(kind, str(path))
        assert first.end_offset == cut
        path.write_bytes(data)
        rest = read_session(kind, str(path), start_offset=first.end_offset)
        assert (rest.id, rest.cwd) == (whole.id, whole.cwd)
        assert rest.end_offset == len(data)
        assert all(turn.line > data[:cut].count(b"\n") for turn in rest.turns)
        if kind == "chord":  # a format without cross-line state: the parts add up exactly
            assert first.turns + rest.turns == whole.turns


@pytest.mark.parametrize("kind", sorted(BY_KIND))
def test_a_cut_line_is_read_once_it_is_complete(kind: str, tmp_path: Path) -> None:
    fixture = BY_KIND[kind]
    path = tmp_path / fixture.name
    path.write_bytes(fixture.read_bytes())  # ends with a cut line
    first = read_session(kind, str(path))
    with open(path, "ab") as f:
        f.write(b"\n")  # the writer finishes the line (here: as garbage) ...
    second = read_session(kind, str(path), start_offset=first.end_offset)
    assert second.start_offset == first.end_offset
    assert second.end_offset == path.stat().st_size
    assert second.skipped == 1  # ... and it is read, once, from where the first read stopped


def test_resumed_claude_code_read_yields_only_the_new_turn(tmp_path: Path) -> None:
    fixture = BY_KIND["claude-code"]
    path = tmp_path / fixture.name
    path.write_bytes(complete_lines(fixture))
    first = read_session("claude-code", str(path))
    with open(path, "ab") as f:
        f.write(
            b'{"type":"user","cwd":"/home/dev/src/app","sessionId":"s","uuid":"n1",'
            b'"message":{"role":"user","content":"One more: keep CHANGELOG.md current."}}\n'
        )
    second = read_session("claude-code", str(path), start_offset=first.end_offset)
    assert [(t.role, t.text) for t in second.turns] == [
        ("user", "One more: keep CHANGELOG.md current.")
    ]
    assert second.turns[0].line == complete_lines(fixture).count(b"\n") + 1


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=400), kind=st.sampled_from(sorted(BY_KIND)))
def test_any_bytes_never_raise(tmp_path_factory: pytest.TempPathFactory, data: bytes,
                               kind: str) -> None:
    path = tmp_path_factory.mktemp("junk") / "x.jsonl"
    path.write_bytes(data)
    session = read_session(kind, str(path))
    assert session.end_offset == data.rfind(b"\n") + 1
    assert session.skipped <= data.count(b"\n") + 1


_KEYS = ["type", "message", "content", "role", "text", "payload", "id", "cwd", "uuid", "summary",
         "leafUuid", "isMeta", "isSidechain", "isCompactSummary", "attachment", "prompt",
         "commandMode", "origin", "kind", "last_agent_message", "complete", "model"]
_VALUES = ["user", "assistant", "message", "summary", "session", "text", "tool_result",
           "response_item", "event_msg", "task_complete", "session_meta", "compacted",
           "attachment", "queued_command", "prompt", "human", "input_text", "output_text",
           "<command-name>/x</command-name>"]
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from(_VALUES) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(_KEYS), inner,
                                                                max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(objects=st.lists(st.dictionaries(st.sampled_from(_KEYS), _JSON, max_size=6), max_size=8),
       kind=st.sampled_from(sorted(BY_KIND)))
def test_any_json_shape_never_raises(tmp_path_factory: pytest.TempPathFactory,
                                     objects: list[dict[str, object]], kind: str) -> None:
    path = tmp_path_factory.mktemp("shapes") / "x.jsonl"
    path.write_bytes(b"".join(json.dumps(o).encode() + b"\n" for o in objects))
    session = read_session(kind, str(path))
    assert all(turn.role in ("user", "assistant", "history") for turn in session.turns)
    assert all(isinstance(turn.text, str) and turn.text.strip() for turn in session.turns)
