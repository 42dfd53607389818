from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chord_memory import index, region
from chord_memory.index import Entry

outside = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=200,
).filter(lambda t: all(
    line.strip(" \t\r\n") not in (region.BEGIN, region.END) for line in t.split("\n")
))
ids = st.from_regex(r"[a-z0-9][a-z0-9-]{2,30}", fullmatch=True)
summaries = st.text(
    alphabet=st.characters(whitelist_categories=("L", "N", "P", "Zs"), blacklist_characters="\r\n()[]"),
    min_size=1, max_size=80,
).map(str.strip).filter(bool)
entries = st.lists(st.builds(lambda t, s, i: Entry(t, s, i, 0),
                             st.sampled_from(index.TYPES), summaries, ids), max_size=8)


@settings(max_examples=300, deadline=None)
@given(before=outside, after=outside, old=entries, new=entries, crlf=st.booleans(), bom=st.booleans())
def test_round_trip_keeps_outside_bytes(
    before: str, after: str, old: list[Entry], new: list[Entry], crlf: bool, bom: bool,
) -> None:
    nl = "\r\n" if crlf else "\n"
    if before and not before.endswith("\n"):
        before += nl
    body = "".join(e.render() + nl for e in old)
    text = f"{before}{region.BEGIN}{nl}{body}{region.END}{nl}{after}"
    data = (("\ufeff" if bom else "") + text).encode()
    had_bom, decoded = region.decode(data)
    idx = index.parse(decoded, had_bom)
    assert idx.usable
    assert [(e.type, e.summary, e.id) for e in idx.entries] == [(e.type, e.summary, e.id) for e in old]
    written = index.render(idx, new)
    again = index.parse_bytes(written)
    assert [(e.type, e.summary, e.id) for e in again.entries] == [(e.type, e.summary, e.id) for e in new]
    prefix = (("\ufeff" if bom else "") + before + region.BEGIN + nl).encode()
    suffix = (region.END + nl + after).encode()
    assert written.startswith(prefix)
    assert written.endswith(suffix)


@settings(max_examples=200, deadline=None)
@given(text=outside, new=entries)
def test_first_write_appends_a_region_and_keeps_the_file(text: str, new: list[Entry]) -> None:
    idx = index.parse(text)
    assert idx.usable and not idx.region.present and idx.entries == []
    written = index.render(idx, new).decode()
    assert written.startswith(text)
    again = index.parse(written)
    assert again.region.present
    assert [e.id for e in again.entries] == [e.id for e in new]


def test_no_trailing_newline_and_text_after_end() -> None:
    text = f"intro\r\n{region.BEGIN}\r\n{region.END}\r\ntail without newline"
    idx = index.parse(text)
    out = index.render(idx, [Entry("fact", "A fact.", "20261129-abc-123456", 0)]).decode()
    assert out == (
        f"intro\r\n{region.BEGIN}\r\n- fact: A fact. "
        f"([20261129-abc-123456](.chord/memory/records/20261129-abc-123456.md))\r\n"
        f"{region.END}\r\ntail without newline"
    )


def test_markers_tolerate_spaces_and_cr() -> None:
    idx = index.parse(f"  {region.BEGIN}  \r\n\t{region.END}\r\n")
    assert idx.usable and idx.region.present


def test_split_lines_only_on_newline() -> None:
    assert region.split_lines("a\u2028b\x0bc\nd") == ["a\u2028b\x0bc\n", "d"]
