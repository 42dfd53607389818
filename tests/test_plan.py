"""Planning and applying a reply: SPEC section 5's writing rules, on real files."""
from __future__ import annotations

from pathlib import Path

import pytest

from chord_memory import index, memory_md, records
from chord_memory.extract import apply, plan
from chord_memory.extract.reply import NewRecord, Promotion, Reply, Retire
from tests.helpers import MIG, UV, add_record, entry, set_region

LIMITS = records.Limits()
NOW = "2026-11-30T10:00:00Z"


def new(conclusion: str, **kw: str) -> NewRecord:
    fields = {"type": "fact", "source": "user", "status": "stated",
              "summary": conclusion[:60], "conclusion": conclusion} | kw
    return NewRecord.model_validate(fields)


def run(repo: Path, reply: Reply) -> plan.Plan:
    p = plan.make(reply, plan.load_memory(str(repo), LIMITS), LIMITS, created=NOW, session="test:1")
    apply.apply(str(repo), p)
    return p


def ids(repo: Path) -> list[str]:
    return [e.id for e in index.parse_bytes((repo / "MEMORY.md").read_bytes()).entries]


def test_new_entries_go_on_top_in_order(example_repo: Path) -> None:
    run(example_repo, Reply(records=[new("The API is versioned in the URL path."),
                                     new("Deploys happen from the release pipeline only.")]))
    got = ids(example_repo)
    assert "api-is-versioned" in got[0] and "deploys-happen" in got[1]
    assert got[2:] == [UV, MIG, "20261124-flaky-clock-tests-5c2d88"]


def test_supersedes_replaces_the_line_in_place(example_repo: Path) -> None:
    p = run(example_repo, Reply(records=[new("Install with uv; pip is only for bootstrapping uv.",
                                             type="preference", supersedes=UV)]))
    got = ids(example_repo)
    assert UV not in got and got[0].startswith(NOW[:10].replace("-", "")) and len(got) == 3
    assert (example_repo / f".chord/memory/records/{UV}.md").exists()  # provenance stays
    assert isinstance(p.ops[0], memory_md.Replace)


def test_duplicates_are_skipped_even_of_orphans(example_repo: Path) -> None:
    text = (example_repo / f".chord/memory/records/{UV}.md").read_text()
    conclusion = text.split("## Conclusion\n")[1].split("\n\n")[0]
    set_region(example_repo, [], keep=False)  # every record is now an orphan
    p = run(example_repo, Reply(records=[new(conclusion.upper() + "  ")]))
    assert p.creates == [] and "duplicate" in p.skipped[0]


@pytest.mark.parametrize("record, reason", [
    (new("Logs are written to /home/ana/app/logs on the build box."), "machine-specific"),
    (new("x" * 1001), "conclusion over"),
    (new("A fine statement about the release checklist.", summary="s" * 161), "summary over"),
    (new("A revision of something that never existed.", supersedes="20261129-nope-aaaaaa"), "not a record"),
    (new("Use " + "very " * 800 + "long words.", summary="long"), "over 4096 bytes"),
])
def test_rules_skip_with_a_reason(example_repo: Path, record: NewRecord, reason: str) -> None:
    lim = records.Limits(statement_chars=1000 if "very" not in record.conclusion else 10_000)
    p = plan.make(Reply(records=[record]), plan.load_memory(str(example_repo), lim), lim,
                  created=NOW, session="t")
    assert p.creates == [] and reason in p.skipped[0], p.skipped


def test_secrets_are_scrubbed_before_planning_a_write(example_repo: Path) -> None:
    token = "ghp_" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c"
    p = run(example_repo, Reply(records=[new(f"The release job authenticates with {token} for uploads.")]))
    assert token not in p.creates[0][1] and "[REDACTED:" in p.creates[0][1]


def test_retire_only_assistant_entries(example_repo: Path) -> None:
    add_record(example_repo, "20261129-assistant-said-aaaaaa", source="assistant", status="inferred")
    set_region(example_repo, [entry("20261129-assistant-said-aaaaaa")])
    p = run(example_repo, Reply(retire=[Retire(id="20261129-assistant-said-aaaaaa", reason="outdated"),
                                        Retire(id=UV, reason="outdated"),
                                        Retire(id="20261129-not-indexed-aaaaaa", reason="x")]))
    got = ids(example_repo)
    assert "20261129-assistant-said-aaaaaa" not in got and UV in got
    assert len(p.skipped) == 2


def test_promotion_keeps_user_entries_and_drops_others(example_repo: Path) -> None:
    add_record(example_repo, "20261129-assistant-said-aaaaaa", source="assistant", status="inferred")
    set_region(example_repo, [entry("20261129-assistant-said-aaaaaa")])
    run(example_repo, Reply(promotions=[
        Promotion(id=UV, target="AGENTS.md", draft="Use uv for installs.", reason="always applies"),
        Promotion(id="20261129-assistant-said-aaaaaa", target="docs", path="docs/testing.md",
                  draft="Tests are serial.", reason="rarely needed"),
    ]))
    got = ids(example_repo)
    assert UV in got and "20261129-assistant-said-aaaaaa" not in got
    promo = (example_repo / f".chord/memory/promotions/{UV}.md").read_text()
    assert "target: AGENTS.md" in promo and "## Draft\nUse uv for installs." in promo


def test_promotion_paths_must_stay_in_the_project() -> None:
    with pytest.raises(ValueError):
        Promotion(id=UV, target="docs", path="../../etc/passwd", draft="x", reason="y")


def test_assistant_never_verified() -> None:
    with pytest.raises(ValueError):
        new("The cache is rebuilt nightly by the cron job.", source="assistant", status="verified")
