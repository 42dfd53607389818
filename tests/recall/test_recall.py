"""Recall: ranking quality, candidates, the digest, the Doc Bridge, the index's freshness."""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from chord_memory.cli import main
from chord_memory.commands.recall import select
from chord_memory.recall import digest, schema, store, terms
from tests.helpers import add_record, cli, entry, git, set_region
from tests.recall import corpus

UV = "20261120-use-uv-for-installs-3f9a1c"
MIG = "20261121-migrations-need-review-b71e04"
CLOCK = "20261124-flaky-clock-tests-5c2d88"


def recall(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["recall", *args, "--format", "json"]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def ids(got: dict[str, object]) -> list[str]:
    return [r["id"] for r in got["records"]]  # type: ignore[attr-defined,index]


@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[corpus.Rec]]:
    repo = tmp_path_factory.mktemp("labelled")
    git(repo, "init", "-q")
    recs = corpus.records()
    corpus.write(repo, recs)
    return repo, recs


def precision_at_5(repo: Path, recs: list[corpus.Rec], backend: str) -> float:
    total = 0.0
    for query, sub, concern in corpus.QUERIES:
        hits, _, used = select(str(repo), query, 5, backend)
        assert used == backend
        total += sum(h.id in corpus.relevant(recs, sub, concern) for h in hits) / 5
    return total / len(corpus.QUERIES)


def test_sqlite_ranks_better_than_the_file_scan(labelled: tuple[Path, list[corpus.Rec]]) -> None:
    repo, recs = labelled
    assert len(recs) >= 300
    sqlite_p5 = precision_at_5(repo, recs, "sqlite")
    file_p5 = precision_at_5(repo, recs, "file")
    assert sqlite_p5 >= 0.9 > file_p5 + 0.5, (sqlite_p5, file_p5)


def test_the_windowed_query_returns_what_the_exact_one_does(tmp_path: Path) -> None:
    """Ranking a window of the best scores first must not change the answer: not when records
    outside the index take the window's places, nor when the window's edge falls in a tie
    (the corpus repeats texts, so ties are common)."""
    git(tmp_path, "init", "-q")
    recs = corpus.records()
    corpus.write(tmp_path, recs)
    md = tmp_path / "MEMORY.md"
    md.write_text("".join(line for i, line in enumerate(md.read_text().splitlines(True))
                          if not (line.startswith("- ") and i % 3 == 0)))  # a third unindexed
    root = str(tmp_path)
    select(root, "warm", 5, "sqlite")  # builds the index
    conn = schema.connect(root)
    settled = fell_back = 0
    queries = [q for q, _, _ in corpus.QUERIES] + ["payments", "deploys release branch", "release"]
    for query in queries:
        match = store.fts_query(terms(query))
        for limit in (1, 5, 30):
            exact = conn.execute(store._QUERY, (match, limit)).fetchall()
            windowed = store._windowed(conn, match, limit)
            assert windowed in (None, exact)
            assert store._ranked(conn, match, limit) == exact
            settled += windowed is not None
            fell_back += windowed is None
    conn.close()
    assert settled and fell_back  # both paths were compared


def test_every_labelled_record_loads(labelled: tuple[Path, list[corpus.Rec]]) -> None:
    repo, recs = labelled
    conn = schema.connect(str(repo))
    assert conn.execute("SELECT count(*) FROM records WHERE loads = 1").fetchone()[0] == len(recs)


def test_the_file_backend_is_index_order(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    got = recall(capsys, "tests dependencies migrations", "--backend", "file")
    assert got["ranked"] is False and ids(got) == [UV, MIG, CLOCK]
    assert ids(recall(capsys, "tests uv", "--backend", "file", "--max", "1")) == [UV]


def test_results_show_source_status_and_cost(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    got = recall(capsys, "frozen clock fixture")
    first = got["records"][0]  # type: ignore[index]
    assert first["id"] == CLOCK and first["source"] == "user" and first["status"] == "stated"
    assert first["chars"] == len("\n".join((first["summary"], first["conclusion"], first["why"],
                                            first["how_to_apply"])))
    assert got["chars"] == sum(r["chars"] for r in got["records"])  # type: ignore[attr-defined]
    assert main(["recall", "frozen clock fixture"]) == 0
    text = capsys.readouterr().out
    assert "source: user | status: stated" in text and "ranked by BM25" in text and got["digest"] in text


def test_only_indexed_records_that_load_are_candidates(
        example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    add_record(example_repo, "20261129-orphan-aaaaaa", conclusion="Zebra crossings are orphaned.")
    add_record(example_repo, "20261129-too-long-aaaaaa", summary="zebra " * 40)
    set_region(example_repo, [entry("20261129-too-long-aaaaaa"), entry("20261129-absent-aaaaaa")])
    for backend in ("sqlite", "file"):
        assert recall(capsys, "zebra", "--backend", backend)["records"] == []
    set_region(example_repo, [entry("20261129-orphan-aaaaaa")])
    assert ids(recall(capsys, "zebra")) == ["20261129-orphan-aaaaaa"]


def test_max_and_the_configured_defaults(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (example_repo / ".chord").mkdir(exist_ok=True)
    (example_repo / ".chord/config.yaml").write_text("memory:\n  maxRecall: 1\n  backend: file\n")
    got = recall(capsys, "tests dependencies")
    assert got["backend"] == "file" and got["max"] == 1 and len(got["records"]) == 1  # type: ignore[arg-type]
    assert len(recall(capsys, "tests dependencies", "--max", "2")["records"]) == 2  # type: ignore[arg-type]
    (example_repo / ".chord/config.yaml").write_text("memory:\n  backend: sqlite\n")
    assert recall(capsys, "tests")["backend"] == "sqlite"


def test_a_query_of_stop_words_and_an_empty_one(
        example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert terms("how do we do it") == ["how", "do", "we", "it"]
    assert terms("What is the Frozen_Clock?") == ["frozen_clock"]
    assert recall(capsys, "  ?? ")["records"] == []


def test_an_unusable_region_is_an_error_not_a_traceback(example_repo: Path) -> None:
    set_region(example_repo, ["just a note"])
    for backend in ("sqlite", "file"):
        proc = cli("recall", "uv", "--backend", backend, cwd=example_repo)
        assert proc.returncode == 1 and "CM104" in proc.stderr and "Traceback" not in proc.stderr


def test_digest_changes_exactly_when_a_selected_record_changes(
        example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = recall(capsys, "frozen clock")
    assert ids(first) == [CLOCK]
    add_record(example_repo, "20261129-unrelated-aaaaaa", conclusion="Release notes go in CHANGES.")
    set_region(example_repo, [entry("20261129-unrelated-aaaaaa")])
    assert recall(capsys, "frozen clock")["digest"] == first["digest"]
    path = example_repo / f".chord/memory/records/{CLOCK}.md"
    path.write_text(path.read_text().replace("midnight UTC", "midnight, UTC"))  # in place, same size+1
    second = recall(capsys, "frozen clock")
    assert ids(second) == [CLOCK] and second["digest"] != first["digest"]
    assert "midnight, UTC" in second["records"][0]["conclusion"]  # type: ignore[index]
    assert recall(capsys, "frozen clock", "--backend", "file")["digest"] == second["digest"]


def test_digest_is_over_ids_and_contents_in_order() -> None:
    from chord_memory.recall import Hit

    def hit(rid: str, data: bytes) -> Hit:
        return Hit(rid, "fact", "user", "stated", "auto", "s", "c", "", "", data, None)

    a, b = hit("a-1", b"one"), hit("b-1", b"two")
    assert digest([a, b]) != digest([b, a])
    assert digest([a]) == digest([hit("a-1", b"one")])
    assert len({digest([a]), digest([hit("a-1", b"one!")]), digest([hit("a-2", b"one")])}) == 3
    assert digest([]).startswith("sha256:")


def test_records_added_removed_and_reindexed_incrementally(
        example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert ids(recall(capsys, "uv")) == [UV]
    for i in range(3):
        add_record(example_repo, f"20261129-new-{i}-aaaaaa", conclusion=f"Wombat rule number {i}.")
        set_region(example_repo, [entry(f"20261129-new-{i}-aaaaaa")])
        assert len(recall(capsys, "wombat")["records"]) == i + 1  # type: ignore[arg-type]
    text = (example_repo / "MEMORY.md").read_text()
    (example_repo / "MEMORY.md").write_text(text.replace(entry("20261129-new-1-aaaaaa") + "\n", ""))
    (example_repo / ".chord/memory/records/20261129-new-0-aaaaaa.md").unlink()
    assert ids(recall(capsys, "wombat")) == ["20261129-new-2-aaaaaa"]


def test_a_damaged_index_is_rebuilt(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert ids(recall(capsys, "uv")) == [UV]
    db = Path(schema.db_path(str(example_repo)))
    db.write_bytes(b"this is not a database" * 100)
    assert ids(recall(capsys, "uv")) == [UV]
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 0")
    assert ids(recall(capsys, "uv")) == [UV]


def test_outside_a_git_repository_the_index_is_in_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import add_examples

    add_examples(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert ids(recall(capsys, "uv")) == [UV]
    assert not (tmp_path / ".git").exists()


def test_a_record_behind_a_symbolic_link_is_never_read(
        example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outside = example_repo.parent / "outside.md"
    outside.write_text(corpus.make(1, "billing", corpus.CONCERNS[0], 0).text
                       .replace(corpus.make(1, "billing", corpus.CONCERNS[0], 0).id, "20261129-link-aaaaaa"))
    (example_repo / ".chord/memory/records/20261129-link-aaaaaa.md").symlink_to(outside)
    set_region(example_repo, [entry("20261129-link-aaaaaa")])
    for backend in ("sqlite", "file"):
        assert "20261129-link-aaaaaa" not in ids(recall(capsys, "billing", "--backend", backend))


def test_doc_bridge_drops_covered_documents(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = example_repo / "docs"
    docs.mkdir()
    (docs / "deps.md").write_text("# Dependencies\nWe install dependencies with uv.\n" * 20)
    (docs / "other.md").write_text("# Dependencies elsewhere\nSomething about dependencies and pip.\n")
    add_record(example_repo, "20261129-deps-doc-aaaaaa", summary="Dependencies are in docs/deps.md.",
               conclusion="Install dependencies with uv, as docs/deps.md explains.")
    set_region(example_repo, [entry("20261129-deps-doc-aaaaaa", summary="Dependencies are in docs/deps.md.")])
    got = recall(capsys, "install dependencies", "--docs", "docs/deps.md", "docs/other.md")
    bridge = got["docs"]
    assert bridge == {
        "before": ["docs/deps.md", "docs/other.md"], "after": ["docs/other.md"],
        "covered": {"docs/deps.md": ["20261129-deps-doc-aaaaaa"]},
        "saved_chars": len((docs / "deps.md").read_text()), "prefer_over_doc_bridge": True,
    }
    (example_repo / ".chord").mkdir(exist_ok=True)
    (example_repo / ".chord/config.yaml").write_text("memory:\n  preferOverDocBridge: false\n")
    got = recall(capsys, "install dependencies", "--docs", "docs/deps.md")
    assert got["docs"]["after"] == ["docs/deps.md"] and got["docs"]["saved_chars"] == 0  # type: ignore[index]
    assert got["docs"]["covered"] == {"docs/deps.md": ["20261129-deps-doc-aaaaaa"]}  # type: ignore[index]


def test_doc_bridge_keeps_a_cited_document_that_adds_query_words(
        example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (example_repo / "docs").mkdir()
    (example_repo / "docs/deps.md").write_text("Install dependencies with uv. Mirrors and proxies too.\n")
    add_record(example_repo, "20261129-deps-doc-aaaaaa", conclusion="Install dependencies per docs/deps.md.")
    set_region(example_repo, [entry("20261129-deps-doc-aaaaaa")])
    got = recall(capsys, "install dependencies proxies", "--docs", "docs/deps.md")
    assert got["docs"]["covered"] == {} and got["docs"]["after"] == ["docs/deps.md"]  # type: ignore[index]
    assert main(["recall", "x", "--docs", "docs/missing.md"]) == 2
    assert main(["recall", "x", "--docs", str(example_repo.parent)]) == 2
    assert "outside the project" in capsys.readouterr().err


def test_doc_bridge_text_output(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (example_repo / "README.md").write_text("Read me.\n")
    assert main(["recall", "uv", "--docs", "README.md"]) == 0
    assert "docs: 1 references before, 1 after; covered: none" in capsys.readouterr().out


def test_the_index_lives_in_the_state_folder(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recall(capsys, "uv")
    assert os.path.isfile(example_repo / ".git/chord-memory/recall.sqlite")
    assert git(example_repo, "status", "--porcelain").stdout == ""


def test_a_record_caught_half_written_is_picked_up_when_complete(
        example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rid = "20261129-half-written-aaaaaa"
    text = (example_repo / f".chord/memory/records/{UV}.md").read_text().replace(UV, rid) \
        .replace("Use uv, not pip", "Wombats use uv, not pip")
    set_region(example_repo, [entry(rid, "preference")])
    path = example_repo / f".chord/memory/records/{rid}.md"
    cut = text.index("summary:")  # cut in the front matter: the first half does not load
    path.write_text(text[:cut])
    assert recall(capsys, "wombats")["records"] == []
    with path.open("a") as f:  # completed in place: the folder's mtime does not change
        f.write(text[cut:])
    assert ids(recall(capsys, "wombats")) == [rid]


def test_new_limits_decide_again_which_records_load(
        example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert ids(recall(capsys, "uv")) == [UV]
    (example_repo / ".chord").mkdir(exist_ok=True)
    (example_repo / ".chord/config.yaml").write_text("memory:\n  limits: {summary_chars: 20}\n")
    assert recall(capsys, "uv")["records"] == []
    (example_repo / ".chord/config.yaml").write_text("memory:\n  maxRecall: 3\n")
    assert ids(recall(capsys, "uv")) == [UV]


@pytest.mark.parametrize("data", [b"", b"abc\n", bytes(range(256)) * 100])
def test_blob_sha_is_gits(data: bytes) -> None:
    from chord_memory.gitio import blob_sha as gits
    from chord_memory.recall import blob_sha

    assert blob_sha(data) == gits(data)


def test_each_worktree_has_its_own_index(example_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = example_repo.parent / "other-worktree"
    git(example_repo, "worktree", "add", "-q", str(other))
    (other / f".chord/memory/records/{UV}.md").unlink()
    assert ids(recall(capsys, "uv")) == [UV]
    os.chdir(other)
    assert recall(capsys, "uv")["records"] == []
    os.chdir(example_repo)
    assert ids(recall(capsys, "uv")) == [UV]
    assert schema.db_path(str(other)) != schema.db_path(str(example_repo))
