"""A realistic, deterministic set of records and a labelled query set for recall.

Each record is about one subsystem and one concern ("payments" x "retries"),
written from templates that vary the wording the way extraction does. The
labelled queries ask about a subsystem and a concern in plain words; the
records that should come first are the ones about exactly that pair. Other
records share one of the two words, which is what a scan that does not rank
trips over.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import NamedTuple

REC = ".chord/memory/records"
SUBSYSTEMS = (
    "billing", "invoices", "auth", "sessions", "search", "payments", "notifications", "ingestion",
    "reporting", "scheduler", "exports", "uploads", "webhooks", "onboarding", "permissions",
    "analytics", "checkout", "inventory", "shipping", "pricing",
)
# (concern, the words a record uses for it, a reason, a way to apply it)
CONCERNS = (
    ("migrations", "schema migrations", "a migration mixed with code was rolled back twice",
     "ship the migration first, then the code that reads the new columns"),
    ("retries", "retries with exponential backoff", "a tight retry loop once flooded the provider",
     "wrap outbound calls in the shared backoff helper and cap attempts at five"),
    ("timeouts", "explicit timeouts on every outbound call", "a hung request held a worker for an hour",
     "pass a timeout argument; never rely on the library default"),
    ("logging", "structured logging without personal data", "support tickets leaked customer emails",
     "log ids and counts, never names, emails or addresses"),
    ("caching", "a cache keyed by tenant and version", "a stale cache served another tenant's data",
     "include the tenant id and the schema version in every cache key"),
    ("flags", "feature flags for risky changes", "a big-bang release could not be turned off",
     "guard the new path with a flag that defaults to off"),
    ("tests", "tests that use the fixtures in conftest", "ad-hoc fixtures drifted from production data",
     "reuse the shared fixtures and add new ones there"),
    ("deploys", "deploys only from the release branch", "a hotfix from a laptop skipped the checks",
     "merge to the release branch and let the pipeline deploy"),
    ("limits", "rate limits per tenant", "one tenant's batch job starved everyone else",
     "read the tenant's limit from settings before sending a batch"),
    ("secrets", "secrets from the vault, never from files", "a key committed in a fixture had to be rotated",
     "read credentials through the vault client at start-up"),
    ("alerts", "alerts that page only on customer impact",
     "night pages for harmless spikes burned people out",
     "alert on error rate and latency seen by customers, not on host metrics"),
    ("dependencies", "pinned dependencies updated weekly", "an unpinned minor release broke the build",
     "bump versions in the weekly update pull request, not in feature work"),
    ("review", "review by the owning team", "changes merged without the owners broke their on-call",
     "request review from the team listed in the owners file"),
    ("backfills", "backfills in small resumable batches", "a single huge backfill locked the table",
     "write backfills as jobs that commit every thousand rows"),
    ("queues", "idempotent queue consumers", "redelivered messages charged a customer twice",
     "store the message id and skip messages already handled"),
)
SUMMARY = (
    "Use {words} in {sub}.", "In {sub}, always use {words}.", "{Sub} needs {words}.",
    "For {sub} work, rely on {words}.",
)
CONCLUSION = (
    "The {sub} code must use {words}; the user asked for it explicitly.",
    "Whenever you touch {sub}, keep to {words}. Do not work around it.",
    "{Sub} follows one rule here: {words}. Exceptions need the owners' approval.",
)
# The labelled queries: (query, subsystem, concern). Five records exist for each pair.
QUERIES = (
    ("how should payments handle retries", "payments", "retries"),
    ("billing schema migrations", "billing", "migrations"),
    ("timeouts for webhooks calls", "webhooks", "timeouts"),
    ("what do we log in auth", "auth", "logging"),
    ("search cache keys", "search", "caching"),
    ("feature flags in checkout", "checkout", "flags"),
    ("rate limits for exports", "exports", "limits"),
    ("secrets used by notifications", "notifications", "secrets"),
    ("backfills of inventory data", "inventory", "backfills"),
    ("queue consumers in shipping", "shipping", "queues"),
)
RELEVANT_PER_QUERY = 5


class Rec(NamedTuple):
    id: str
    type: str
    summary: str
    text: str
    topic: tuple[str, str]


def make(i: int, sub: str, concern: tuple[str, str, str, str], variant: int) -> Rec:
    name, words, why, how = concern
    rid = f"20261129-{sub}-{name}-{variant}-{i:06d}"
    fill = {"sub": sub, "Sub": sub.capitalize(), "words": words}
    summary = SUMMARY[(i + variant) % len(SUMMARY)].format(**fill)
    conclusion = CONCLUSION[(i + 2 * variant) % len(CONCLUSION)].format(**fill)
    text = (
        f"---\nid: {rid}\ntype: workflow\nsource: user\nstatus: stated\nactor: auto\n"
        f"created: 2026-11-29T23:50:00Z\nsession: test:{i}\nsupersedes: null\nsummary: {summary}\n"
        f"---\n## Conclusion\n{conclusion}\n\n## Why\nThe user explained that {why}.\n\n"
        f"## How to apply\nIn {sub}, {how}.\n"
    )
    return Rec(rid, "workflow", summary, text, (sub, name))


def records(size: int | None = None, seed: int = 7) -> list[Rec]:
    """Every (subsystem, concern) once, five of each queried pair, in a shuffled index order.

    With `size`, pairs repeat (new variants) or the list is cut to that many.
    """
    out: list[Rec] = []
    queried = {(s, c) for _, s, c in QUERIES}
    pairs = [(s, c) for s in SUBSYSTEMS for c in CONCERNS]
    variant = 0
    while size is None or len(out) < size:
        for sub, concern in pairs:
            copies = RELEVANT_PER_QUERY if variant == 0 and (sub, concern[0]) in queried else 1
            for v in range(copies):
                out.append(make(len(out), sub, concern, variant * 10 + v))
        variant += 1
        if size is None:
            break
    random.Random(seed).shuffle(out)
    return out if size is None else out[:size]


def entry(rec: Rec) -> str:
    return f"- {rec.type}: {rec.summary} ([{rec.id}]({REC}/{rec.id}.md))"


def write(repo: Path, recs: list[Rec]) -> None:
    """The records and a MEMORY.md indexing them in list order."""
    folder = repo / REC
    folder.mkdir(parents=True, exist_ok=True)
    for rec in recs:
        (folder / f"{rec.id}.md").write_text(rec.text)
    body = "".join(entry(r) + "\n" for r in recs)
    (repo / "MEMORY.md").write_text(
        f"# Project memory\n\n<!-- chord-memory:begin -->\n{body}<!-- chord-memory:end -->\n")


def relevant(recs: list[Rec], sub: str, concern: str) -> set[str]:
    return {r.id for r in recs if r.topic == (sub, concern)}
