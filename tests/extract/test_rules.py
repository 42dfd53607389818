"""The offline extractor: the shapes it keeps and the ones it leaves out (docs/extraction.md).

Every example here is in docs/extraction.md's tables too (test_docs_show_every_example);
the labelled sets in tests/extract/statements/ measure it at scale (bench/statements.py).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chord_memory.extract import rules, sentences, similar

DOC = Path(__file__).resolve().parents[2] / "docs" / "extraction.md"

KEPT = [  # (what the user typed, the type, words the record must say)
    ("the CLI flags should stay kebab-case", "preference", "CLI flags should stay kebab-case"),
    ("On Android, background work goes through WorkManager only.", "preference", "WorkManager only"),
    # a rule to one careful reader, a trap or a process to others: the type model's call (never a
    # fact: a modal rule)
    ("Anything touching the payment SDK has to be reviewed by the payments team.",
     ("preference", "pitfall", "workflow"),
     "reviewed by the payments team"),
    ("going forward please squash commits when merging", "preference", "Squash commits when merging"),
    ("keep in mind the search index is rebuilt nightly", "fact", "search index is rebuilt nightly"),
    ("I'd rather have small PRs than one big one", "preference", "small PRs"),
    ("The mobile builds are signed on the release runner.", "fact", "signed on the release runner"),
    ("we train with bf16 on the A100s, fp16 gives NaNs on this model", "fact", "train with bf16"),
    ("To release:\n1. bump the version\n2. run make changelog\n3. push the tag", "workflow",
     "1. bump the version; 2. run make changelog; 3. push the tag"),
    ("The e2e suite times out unless the emulator is warm.", "pitfall",
     "times out unless the emulator is warm"),
    ("no, the API base URL comes from the env, not the config file", "fact", "comes from the env"),
    ("tabs not spaces, snake_case for files, 100 char lines", "preference", "snake_case for files"),
    ("can you please always run the type checker before you say it's done?", "preference",
     "always run the type checker"),
    ("like I said: BigDecimal for money, HALF_EVEN.", "preference", "BigDecimal for money"),
    # a fact to one careful reader and a trap to another (a limit, a skip): the type model's call
    ("fyi the CI box has no GPU so anything cuda-related gets skipped there", ("fact", "pitfall"),
     "CI box has no GPU"),
    ("The API at https://api.example.com/v2 is rate-limited to 10 requests per second per key.",
     ("fact", "pitfall"), "The API is rate-limited to 10 requests per second per key."),
    ("my lead told me that we never run a new trajectory on the real arm before the simulator run",
     "preference", "never run a new trajectory on the real arm"),
]

DROPPED = [  # (what the user typed, why it is not memory)
    ("fix the failing test in test_api.py", "a one-off request"),
    ("can you add a button that exports CSV?", "a question, and a request"),
    ("thanks, looks good!", "thanks"),
    ("No worries mate.", "thanks in other words: not a rule that opens with \"no\""),
    ("that's wrong, try again", "a remark about the assistant's last answer"),
    ("for this PR don't touch the tests", "a rule for the task at hand"),
    ("Pretend the cache is always cold, then the sync job has to fetch every tenant's settings first.",
     "a hypothetical: what to pretend, not what is"),
    ("First commit what is left of the previous task, then start on this new plan and run the migrations.",
     "steps for the task at hand: the previous task, this new plan"),
    ("push it to my branch for now", "temporary git state"),
    ("my checkout is at /home/me/src/app", "a machine's path as the point"),
    ("make it better", "too vague to use"),
    ("never mind, use the other function", "a one-off change, however it is phrased"),
    ("Traceback (most recent call last):", "a pasted trace"),
    ("I restarted the server", "a status report"),
    ("the settings page crashes when I click save", "today's bug, not a known trap"),
    ("maybe we should rewrite this in rust someday", "speculation"),
    ("the staging db password is hunter2-Xk29", "it was about the secret: nothing is left without it"),
    ("the tenant id comes from the jwt claims, please write me a middleware that checks it",
     "a request rides on it: the fact is the task's context"),
    ("I don't know where the fixtures for the api tests are supposed to go", "the user on what they know"),
    ("no feature flag for the importer then", "a conclusion of the dialogue"),
    ("actually use pathlib instead of os.path in the new helper", "X instead of Y for one thing: a one-off"),
    ("the ingest worker OOMs on the big tenants", "today's bug in general words"),
    ("the 502 is because the proxy drops idle connections after 30s", "why today's bug happens"),
    ("the client wants the invoice page to show VAT per line", "a feature someone wants"),
    ('the style guide says "Prefer composition over inheritance in new widgets."',
     "a document quoted: it says so already"),
    ("Task: add CSV export to the invoice list; semicolon separator; UTF-8 with BOM.",
     "the task's own spec under its label"),
    ("Some context before we start, since you'll be in this repo a lot.", "it only says what is coming"),
]


@pytest.mark.parametrize(("text", "kind", "says"), KEPT)
def test_kept(text: str, kind: str | tuple[str, ...], says: str) -> None:
    records = rules.extract([text], "s").records
    assert len(records) == 1, records
    assert records[0].type in ((kind,) if isinstance(kind, str) else kind)
    assert says.lower() in records[0].conclusion.lower()
    assert records[0].source == "user" and records[0].status == "stated"


@pytest.mark.parametrize(("text", "why"), DROPPED)
def test_dropped(text: str, why: str) -> None:
    assert rules.extract([text], "s").records == [], why


@pytest.mark.parametrize("text", [
    "the android release build got rejected for the second time",  # an event with its date
    "we may move billing into its own service next quarter",  # a plan
    "Cause: Could not resolve the dependency graph for the web package",  # a log's line as prose
    "the cache keys are per tenant, right",  # a question without its mark
    "should the retry delay be configurable or is that overkill",
    "I suspect the retry decorator swallows the timeout",  # the user on what they think
])
def test_the_task_at_hand_in_words_no_shape_reads_is_left_out(text: str) -> None:
    assert rules.extract([text], "s").records == []


def test_a_request_that_carries_a_rule_keeps_only_the_rule() -> None:
    records = rules.extract(["wire up the new /health endpoint. and for the future, health checks must not "
                             "touch the db, the load balancer hits them every 2s"], "s").records
    assert [r.conclusion for r in records] == [
        "Health checks must not touch the db, the load balancer hits them every 2s."]


@pytest.mark.parametrize(("text", "summary"), [
    ("Lesson learned: hotfixes go on a hotfix/* branch cut from the release tag, not from develop.",
     "Hotfixes go on a hotfix/* branch cut from the release tag, not from develop."),
    ("Attention: the invoice numbers are gapless per tenant, never reuse one.",
     "The invoice numbers are gapless per tenant, never reuse one."),
    ("context managers must always be closed in the worker",
     "Context managers must always be closed in the worker."),
])
def test_a_label_that_leads_the_statement_is_not_kept(text: str, summary: str) -> None:
    assert [r.summary for r in rules.extract([text], "s").records] == [summary]


def test_a_capital_r_is_the_language_not_chat_for_are() -> None:
    records = rules.extract(["Base R only under R/, test helpers can use anything."], "s").records
    assert [r.summary for r in records] == ["Base R only under R/, test helpers can use anything."]


def test_a_reason_after_a_comma_with_no_word_for_it_is_the_why() -> None:
    said = rules.extract(["never use rand() in the helm templates, argo re-renders them all the time"], "s")
    assert said.records[0].why == "Because argo re-renders them all the time."
    first = rules.extract(["the app store review takes 2-3 days, so we release on monday, never on friday"],
                          "s")
    assert first.records[0].why == "Because the app store review takes 2-3 days."
    contrast = rules.extract(["always run the e2e suite with one worker, not in parallel"], "s")
    assert contrast.records[0].why in rules.DEFAULT_WHYS


@pytest.mark.parametrize(("text", "why"), [
    # a directive after a scope, then a clause of how things are
    ("In the iOS app, never edit the generated Strings.swift, swiftgen rewrites it on every build",
     "Because swiftgen rewrites it on every build."),
    ("use the shared http client for partner calls, that's where the retries and the mTLS cert live",
     "Because that's where the retries and the mTLS cert live."),
    ("always lock the ledger rows before a transfer, we lost a day of balances to a race in march",
     "Because we lost a day of balances to a race in march."),
    # what happens otherwise, said with "or" or with a trailing "otherwise"
    ("always set TZ=UTC in the cron wrapper or the nightly rollup double counts the DST hour",
     "Otherwise the nightly rollup double counts the DST hour."),
    ("pin the node image by digest, the cache misses every build otherwise",
     "Otherwise the cache misses every build."),
    # what the rule is for
    ("never log request bodies in the gateway, so nothing with card data ends up in the log store",
     "So nothing with card data ends up in the log store."),
])
def test_a_reason_the_user_gave_without_a_because_is_the_why(text: str, why: str) -> None:
    records = rules.extract([text], "s").records
    assert len(records) == 1 and records[0].why == why, records


@pytest.mark.parametrize("text", [
    "no lodash or moment anywhere in the bundle",  # "or" between two things: no clause
    "don't pass -X flags to the compiler by hand, use the toolchain file",  # an option's dash
    "always seed with set_seed in utils/seed.py, i see you used random.seed in the loader",  # the answer
    "always store durations as integer milliseconds, so the exporter has to divide by 1000",  # "so" + a rule
])
def test_what_is_no_reason_is_not_the_why(text: str) -> None:
    records = rules.extract([text], "s").records
    assert records, text  # each is a rule that is kept: only its Why is in question
    for record in records:
        assert record.why in rules.DEFAULT_WHYS, (text, record.why)


def test_a_why_from_the_next_sentence_holds_no_url_host_or_path() -> None:
    records = rules.extract(["Always run the smoke tests against staging before a release. Otherwise the "
                             "gateway at https://gw.internal.example.com/health breaks for everyone on "
                             "/home/deploy/app."], "s").records
    assert records[0].why == "Otherwise the gateway breaks for everyone."


@pytest.mark.parametrize("host", ["lic01.cs.example.ac.uk", "build.intra.example.de", "ci.example.gov"])
def test_a_host_under_a_country_or_public_domain_is_taken_out(host: str) -> None:
    assert sentences.names_a_place(f"the licence server is {host} on port 27000")
    said = f"fyi the licence server is {host} on port 27000, never hardcode it"
    for r in rules.extract([said], "s").records:
        assert host not in r.conclusion and host.split(".")[-1] not in r.conclusion.split(), r.conclusion


@pytest.mark.parametrize("text", [
    "New component: a searchable select with async options, in the shared ui lib.",
    "New endpoint: GET /invoices with cursor pagination.",
])
def test_a_new_thing_under_its_label_is_the_task(text: str) -> None:
    assert rules.extract([text], "s").records == []
    assert rules._TASK_LABEL.match("New component: x") and rules._TASK_LABEL.match("New Kafka topic: x")
    for rule in ("New rule: always x", "New code: no any types", "New endpoints: behind auth",
                 "New hires: pair"):
        assert not rules._TASK_LABEL.match(rule), rule


def test_no_record_of_any_labelled_set_holds_a_url_host_path_or_secret() -> None:
    sets = DOC.parent.parent / "tests" / "extract" / "statements"
    for path in sorted(sets.glob("*.jsonl")):
        sessions: dict[str, list[str]] = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            turn = json.loads(line)
            # as extract/run.py does: scrubbed, then of what only the extraction takes for a secret
            session = turn.get("session") or turn["id"]
            sessions.setdefault(session, []).append(sentences.scrubbed(turn["text"]))
        for texts in sessions.values():
            for r in rules.extract(texts, "s").records:
                for text in (r.summary, r.conclusion, r.why):
                    assert not sentences.names_a_place(text), (path.name, text)
                    assert sentences.unnamed_secrets(text) == text, (path.name, text)


def test_a_statement_after_a_kept_one_is_a_record_of_its_own_and_a_rule_is_no_why() -> None:
    said = ("fyi releases are cut by cargo-dist off a `v*` tag. dont edit .github/workflows/release.yml by "
            "hand, `cargo dist generate` rewrites it")
    records = rules.extract([said], "s").records
    assert [r.conclusion for r in records] == [
        "Releases are cut by cargo-dist off a `v*` tag.",
        "Don't edit .github/workflows/release.yml by hand, `cargo dist generate` rewrites it."]
    assert records[0].why in rules.DEFAULT_WHYS  # a second rule is not the reason for the first
    for after in ("got it.", "and dont enable the watchdog in the bootloader.",
                  "so thats probably part of it."):
        fact = rules.extract([f"usart2 is PA2/PA3 on all our boards. {after}"], "s").records[0]
        assert fact.why in rules.DEFAULT_WHYS, after
    reason = rules.extract(["please always squash when merging into main. because the history gets "
                            "unreadable otherwise"], "s").records
    assert len(reason) == 1  # a sentence that opens with "because" is the reason and nothing else


@pytest.mark.parametrize(("text", "conclusion"), [
    ("`pnpm check` is svelte-check, run it before you say it's done",
     "`pnpm check` is svelte-check, run it before you say it's done."),
    ("queries are sqlc: one file per table in db/queries, then `make sqlc`",
     "Queries are sqlc: one file per table in db/queries, then `make sqlc`."),
    ("**never force-push to main, we lost a release that way**",
     "Never force-push to main, we lost a release that way."),
    ("buttons say 'Speichern' not 'Speichere', the UI uses the infinitive everywhere",
     "Buttons say 'Speichern' not 'Speichere', the UI uses the infinitive everywhere."),
])
def test_marks_around_the_sentence_go_and_those_that_belong_to_it_stay(text: str, conclusion: str) -> None:
    assert [r.conclusion for r in rules.extract([text], "s").records] == [conclusion]


@pytest.mark.parametrize("text", [
    "Done when: the schema is updated and both sort orders have tests.",
    "AC:\n- managers can approve pending requests of their reports\n- a rejection needs a comment of 10 "
    "characters\n- the employee is notified",
    "ok a few things before you start",
])
def test_the_tasks_own_spec_and_an_announcement_are_not_memory(text: str) -> None:
    assert rules.extract([text], "s").records == []


def test_an_announcement_before_a_statement_is_not_part_of_its_record() -> None:
    records = rules.extract(["some context first: we deploy with argo, never by hand"], "s").records
    assert [r.conclusion for r in records] == ["We deploy with argo, never by hand."]
    # and a reason after a comma is never a record of its own
    assert not any(r.conclusion.startswith("Since") for r in rules.extract(
        ["Some context before we start, since you'll be in this repo a lot."], "s").records)


def test_a_mark_in_brackets_does_not_end_the_sentence() -> None:
    said = "no partial functions: head/fromJust/(!) are banned, hlint enforces some of it"
    assert [s.text for s in sentences.split(said)] == [said]
    assert [s.text for s in sentences.split("we ship on fridays (really.) Then we rest")] == [
        "we ship on fridays (really.)", "Then we rest"]


def test_for_this_repo_scopes_a_standing_rule_not_the_task() -> None:
    assert rules._TASK_ONLY.search("for this PR skip the changelog")
    assert not rules._TASK_ONLY.search("for this whole project we use uv")
    said = ("Non-negotiables for this repo:\n* no secrets in the repo, not even test ones\n"
            "* no PII in logs, ever\n* dependencies come from the internal mirror, not public npm")
    records = rules.extract([said], "s").records
    assert len(records) == 1 and "no PII in logs" in records[0].conclusion


def test_a_request_after_a_rule_is_not_its_why() -> None:
    records = rules.extract(["Secrets go in secrets.yaml which is gitignored, always use !secret. i saw "
                             "you put the weather api key inline, move it."], "s").records
    assert len(records) == 1 and "move it" not in records[0].why


def test_the_why_is_the_users_own_reason() -> None:
    because = rules.extract(["We use uv for installs because pip drifts from the lock file."], "s").records
    assert because[0].why == "Because pip drifts from the lock file."
    after = rules.extract(["please always squash when merging into main. the history gets unreadable "
                           "otherwise"], "s").records
    assert after[0].why == "Otherwise the history gets unreadable."
    none = rules.extract(["The mobile builds are signed on the release runner."], "s").records
    assert none[0].why == "The user stated it as a fact about this project."


def test_a_summary_is_a_complete_sentence_never_cut() -> None:
    text = ("Migrations for the reporting warehouse must run in their own deploy window on Tuesdays after "
            "the nightly batch has finished, because the batch locks the fact tables for most of the night "
            "and a migration that waits on those locks times out halfway")
    record = rules.extract([text], "s", summary_chars=160).records[0]
    assert len(record.summary) <= 160 and "…" not in record.summary
    assert record.summary.endswith(".") and record.summary[0].isupper()
    assert record.conclusion.startswith(record.summary[:-1])


def test_near_duplicates_are_one_record_within_a_session() -> None:
    records = rules.extract(["the CLI flags should stay kebab-case", "ok. like I said, CLI flags should stay "
                             "kebab-case!"], "s").records
    assert len(records) == 1


def test_a_rule_said_again_with_more_is_one_record_the_fuller_one() -> None:
    records = rules.extract(["fyi staging deploys from the develop branch",
                             "also staging deploys automatically from the develop branch after every merge, "
                             "production needs a manual approval"], "s").records
    assert [r.conclusion for r in records] == [
        "Staging deploys automatically from the develop branch after every merge, production needs a manual "
        "approval."]
    assert not similar.same(similar.words("no emojis in commit messages"), similar.words("no emojis in logs"))


def test_a_rule_said_again_shorter_with_a_cue_is_one_record() -> None:
    first = ("for the reports service: queries always go to the read replica through ReportsDb, the primary "
             "is sized for writes only")
    records = rules.extract([first, "fix the totals", "again: reports queries hit the replica"], "s").records
    assert [r.conclusion for r in records] == [rules._sentence(first)]
    # said again of what AGENTS.md says: nothing new (the cue is the sentence's, taken off the record)
    assert rules.extract(["again: reports queries hit the replica"], "s", known=first).records == []
    # across sessions: the plan leaves it out as the same as a record (extract/plan.py)
    assert similar.duplicate("As I said before, reports queries hit the replica.", [similar.words(first)])
    # no cue, or a cue on another rule, or the opposite rule: a record of its own
    assert not similar.duplicate("Reports queries hit the replica.", [similar.words(first)])
    assert not similar.duplicate("Again: reports exports go to the bucket.", [similar.words(first)])
    assert not similar.duplicate("Like I said, reports never hit the replica.", [similar.words(first)])


def test_near_duplicates_are_told_apart_by_a_negation() -> None:
    a, b = similar.words("use the shared cache in CI"), similar.words("never use the shared cache in CI")
    assert not similar.same(a, b)
    assert similar.same(similar.words("The CLI flags should stay kebab-case."),
                        similar.words("CLI flags should stay kebab-case"))


def test_a_rule_said_again_in_other_words_is_one_record() -> None:
    # "package" and "dependency", "recap" and "summarize" are one word to the near-duplicate test
    assert similar.same(similar.words("ask before adding a new dependency"),
                        similar.words("always ask me before you install new packages"))
    assert similar.same(similar.words("don't summarize what you did at the end of every answer"),
                        similar.words("don't recap changes at the end of an answer"))
    assert not similar.same(similar.words("pin every dependency in the lock file"),
                            similar.words("no new dependency without asking"))
    records = rules.extract(["don't summarize what you did at the end of every answer",
                             "run the linter", "remember: don't recap changes at the end of an answer"],
                            "s").records
    assert len(records) == 1


def test_one_person_says_i_where_a_team_says_we() -> None:
    assert rules.judge("I use gpiozero, not RPi.GPIO") is not None
    assert rules.judge("I deploy the blog with netlify") is not None
    assert rules.judge("I used the staging db") is None  # what they did, not how things are
    assert rules.judge("I deployed it yesterday") is None


def test_what_the_user_says_of_themselves_is_kept_when_it_carries_a_rule() -> None:
    for text in ("I'm in Canada so currency is CAD and dates should be YYYY-MM-DD everywhere",
                 "im on zig 0.13, dont give me 0.11 syntax"):
        assert rules.extract([text], "s").records, text
    assert rules.extract(["I'm moving my blog to hugo"], "s").records == []


def test_a_feature_is_wanted_by_a_person_not_needed_by_a_change() -> None:
    assert rules.extract(["Public API changes need a CHANGELOG entry and a YARD @since tag."], "s").records
    for text in ("for my AP computer science class I need a bank account program in Java",
                 "the client wants a dashboard for the refunds"):
        assert rules.extract([text], "s").records == [], text


def test_a_sentence_that_names_what_its_it_is_does_not_point_back() -> None:
    assert rules.judge("objstore config is in the thanos-objstore secret, dont inline it") is not None
    assert rules.judge("scripts downstream depend on that") is None


def test_where_the_working_copy_is_now_is_neither_kept_nor_rescued() -> None:
    # "I'm on ..." reads as a fact of the user's setup ("I'm on python 3.12"), unless it is a branch
    assert rules.judge("I'm on python 3.12") is not None
    for text in ("I'm on branch `seats-endpoint`, go ahead and commit", "we're on release/3.2 locally",
                 "I'm on a detached HEAD after the bisect", "I'm in the middle of an interactive rebase, "
                 "don't run any git commands for a sec"):
        assert rules.judge(text) is None and rules._rescue(text) is None, text
        assert rules.extract([text], "s").records == [], text


def test_a_standing_ask_may_say_in_general() -> None:
    assert rules._cued("could you explain things a bit more step by step in general?")
    assert not rules._cued("could you explain this step a bit more?")


def test_always_of_nothing_of_the_task_at_hand_is_not_overruled() -> None:
    assert rules._cued("always run the e2e suite with one worker, not in parallel")
    assert not rules._cued("always use a fresh session for this write")
    assert not rules._cued("never do that again")


def test_what_agents_md_says_is_not_written_again() -> None:
    known = "# Rules\n\n- The CLI flags should stay kebab-case.\n"
    assert rules.extract(["the cli flags should stay kebab-case"], "s", known=known).records == []


def test_deterministic() -> None:
    texts = [t for t, _, _ in KEPT] + [t for t, _ in DROPPED]
    assert rules.extract(texts, "s") == rules.extract(texts, "s")


def test_docs_show_every_example() -> None:
    doc = DOC.read_text(encoding="utf-8")
    for text in [t for t, _, _ in KEPT] + [t for t, _ in DROPPED]:
        first = re.split(r"\n", text)[0]
        assert first in doc, first


def test_a_pasted_diff_is_not_read_as_sentences() -> None:
    diff = ("here is what I changed\n"
            "diff --git a/app/config.py b/app/config.py\n"
            "index 3f2a1b9..8c7d0e4 100644\n"
            "--- a/app/config.py\n"
            "+++ b/app/config.py\n"
            "@@ -1,4 +1,5 @@\n"
            " import os\n"
            "+# The API base URL must come from the environment.\n"
            "+BASE_URL = os.environ['BASE_URL']\n"
            "-BASE_URL = 'http://localhost'\n"
            "\n"
            "we always deploy from the release branch")
    assert [r.conclusion for r in rules.extract([diff], "s").records] == [
        "We always deploy from the release branch."]


def test_a_list_with_an_item_marked_as_lasting_is_kept_whatever_the_model_says(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An item cued as a sentence would be ("always ...") keeps its list, as the sentence alone
    would be kept; a list with no such item is left to the model."""
    monkeypatch.setattr(rules, "KEEP_LIST", 1.01)  # no list the model weighs can reach it
    cued = "PR description:\n- always link the ticket\n- say how you tested it"
    plain = "PR description:\n- link the ticket\n- say how you tested it"
    assert [r.conclusion for r in rules.extract([cued], "s").records] == [
        "PR description: always link the ticket; say how you tested it."]
    assert rules.extract([plain], "s").records == []


def test_what_someone_else_wrote_is_not_the_users_words() -> None:
    quoted = ("fwd from the auditors:\n\n"
              "Per clause 9, all exports must be encrypted at rest. We recommend rotating keys monthly.\n\n"
              "> Also, access logs should be kept for two years.\n\n"
              "@mkrol: Nit: we usually sort imports alphabetically.\n"
              "[Priya] never deploy the exporter on fridays\n\n"
              "INFRA-2231 Exporter writes plaintext files\n"
              "AC: every export file is encrypted with the tenant key\n\n"
              "we always keep the exporter's keys in the vault, never in env vars")
    assert [r.conclusion for r in rules.extract([quoted], "s").records] == [
        "We always keep the exporter's keys in the vault, never in env vars."]
    # what the user types after a colon of their own is theirs
    own = "one more rule for this repo:\nwe never commit generated protobuf code"
    assert [r.conclusion for r in rules.extract([own], "s").records] == [
        "We never commit generated protobuf code."]
    listed = "PR description:\n- always link the ticket\n- say how you tested it"  # a list of theirs
    assert [r.conclusion for r in rules.extract([listed], "s").records] == [
        "PR description: always link the ticket; say how you tested it."]


def test_a_long_list_cut_by_commas_does_not_make_a_pattern_backtrack_without_end() -> None:
    import time

    text = "we " + ", ".join(["use x"] * 60) + " and more"  # 22 items took 3 s, 60 would take years
    start = time.perf_counter()
    rules.extract([text], "s")
    assert time.perf_counter() - start < 2.0


_PLACE_TEXT = st.lists(st.sampled_from([*"ab.:/\\~ -_wWtTpPhHsScCoOmM0123456789", "https://", "www.", "C:\\x",
                                         "~/x", "10.0.0.1", "[REDACTED:aws-key]", "a.b.c", "e.g.", "file.py",
                                         "!", "#", "$", "@", "=", "+", "%", "&",
                                         "HTTP://", *(f"/{d}" for d in sentences._ROOT_DIRS),
                                         *(f".{e}" for e in sentences._HOST_ENDS)]),
                       max_size=16).map("".join)


@settings(max_examples=500, deadline=None)
@given(_PLACE_TEXT)
def test_the_cheap_test_for_a_place_misses_none_the_patterns_find(text: str) -> None:
    """sentences._may_name_a_place gates the place patterns: wherever they find something, it says so."""
    if sentences._BARE.search(text) or sentences._GONE.search(text) or sentences._PLACES.search(text):
        assert sentences._may_name_a_place(text), text


_PASTED_LINES = st.sampled_from([
    "2026-06-05 10:00:01 INFO worker 1 done", "[12:00:01] started", "INFO: ok", "ERROR x", "DEBUG",
    "  2026-06-05T10:00 debug", "10:00:01 tick", "we always deploy from main", "", "diff --git a/x b/x",
    "--- a/x", "+++ b/x", "@@ -1 +1 @@", "+added", "-removed", " context", "here's the ticket:",
    "JIRA-12: Fix the export", "> quoted", "the release job runs on main", "[INFO] hi", "WARNING: careful",
])


@settings(max_examples=500, deadline=None)
@given(st.lists(_PASTED_LINES, max_size=16), st.booleans())
@example(["@@ -1 +1 @@", "  2026-06-05T10:00 debug", "  2026-06-05T10:00 debug", "+added"], False)
def test_a_run_of_log_lines_read_as_one_leaves_what_was_typed_as_it_was(lines: list[str], end: bool) -> None:
    """typed() reads a run of log lines in one pass (sentences._LOG_RUN): it keeps and drops
    the same lines as reading each line on its own would."""
    text = "\n".join(lines) + ("\n" if end else "")
    saved = sentences._LOG_RUN
    try:
        sentences._LOG_RUN = re.compile(r"(?!)")
        one_by_one = sentences.typed(text)
    finally:
        sentences._LOG_RUN = saved
    assert sentences.typed(text) == one_by_one


def test_user_texts_reads_the_users_turns_only_typed_and_scrubbed() -> None:
    """What the rules read of a session (extract/run.py): the user's turns, their pasted logs
    left out and their secrets taken out; the replies and compaction summaries are not read."""
    from chord_memory.extract.run import user_texts
    from chord_memory.transcripts import Turn

    key = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    log = "\n".join(f"2026-06-05 10:00:{i:02d} INFO worker {i} done" for i in range(5))
    turns = [
        Turn("user", f"we always deploy from main, token {key}\n\n{log}", 1),
        Turn("assistant", "we never deploy on fridays", 2),
        Turn("history", "the user likes tabs", 3),
        Turn("user", log, 4),  # nothing typed: no text at all
        Turn("user", "thanks", 5),
    ]
    texts = user_texts(turns)
    assert len(texts) == 2
    assert texts[0].startswith("we always deploy from main, token [REDACTED:")
    assert key not in texts[0] and "INFO worker" not in texts[0]
    assert texts[1] == "thanks"


def test_a_yes_or_no_question_gets_the_answer_the_pattern_gives() -> None:
    """``_Rx.finds``/``opens`` ask lowered ASCII text of a copy compiled without re.I: for every
    pattern, in every case, the answer is ``search``/``match``'s (and non-ASCII text is asked of
    the pattern as it is)."""
    sets = Path(__file__).resolve().parent / "statements"
    lines = [line for row in (sets / "dev.jsonl").read_text("utf-8").splitlines()[:120]
             for line in json.loads(row)["text"].splitlines() if line.strip()]
    lines += ["Never Push To MAIN", "ALWAYS run the TESTS first", "Straße und ſ: never",
              "İstanbul team owns it"]
    patterns = [p for p in vars(rules).values() if isinstance(p, rules._Rx)]
    assert sum(p._lower_search is not None for p in patterns) > len(patterns) * 0.9  # most have the fast copy
    for text in lines:
        for variant in (text, text.upper(), text.title()):
            for p in patterns:
                assert p.finds(variant) == (p.search(variant) is not None), (p.pattern[:40], variant)
                assert p.opens(variant) == (p.match(variant) is not None), (p.pattern[:40], variant)


@pytest.mark.parametrize(("said", "expected"), [
    # an aside word inside quotes, or an adverb of its clause, does not start a sentence
    ("apparently having 'best note app' in the subtitle counts as 'irrelevant'",
     ["apparently having 'best note app' in the subtitle counts as 'irrelevant'"]),
    ("which is fine, BUT the converter also mangled the export hints",
     ["which is fine, BUT the converter also mangled the export hints"]),
    ("we also use ruff for imports", ["we also use ruff for imports"]),
    # a range of numbers does not end one
    ("the sensor range is 0 .. 12_000, so use the subtype",
     ["the sensor range is 0 .. 12_000, so use the subtype"]),
    # where the subject changes, it still does
    ("fixed the port there btw the CI box is slow", ["fixed the port there", "btw the CI box is slow"]),
    ("ok also please bump it. note: tabs. run ps aux to see",
     ["ok", "also please bump it.", "note: tabs.", "run ps aux to see"]),
])
def test_a_sentence_is_cut_where_the_subject_changes_not_inside_a_clause(said: str,
                                                                       expected: list[str]) -> None:
    assert [s.text for s in sentences.split(said)] == expected


def test_an_errors_message_a_warning_and_a_documents_sections_are_pasted() -> None:
    said = ("Error in checkFullRank(modelMatrix) :\n"
            "  the model matrix is not full rank, so the model cannot be fit as specified.\n"
            "  One or more variables in the design formula are linear\n"
            "  combinations of the others and must be removed.\n"
            "we always put the batch first in the design formula")
    assert [s.text for s in sentences.split(said)] == ["we always put the batch first in the design formula"]
    warned = "RemovedInAirflow3Warning: Param `schedule_interval` is deprecated.\nwe always use schedule"
    assert [s.text for s in sentences.split(warned)] == ["we always use schedule"]
    spec = ("3.2 The 2D symbol shall be PDF417 or QR Code.\n3.4 Labels shall be printed at 203 dpi.\n"
            "we always print at 300 dpi")  # a document's numbered sections
    assert [s.text for s in sentences.split(spec)] == ["we always print at 300 dpi"]


# A page copied out of a browser: the user's words, then the page, whose headings lost their marks
_PAGE = ("we always pin the tool's version in CI. Does this page from their docs help?\n\n"
         "Caches are directories that hold the packages a build downloaded.\n\n"
         "Note\n\n"
         "See the caching guide for an introduction; this page covers the details.\n\n"
         "Cache locations\n"
         "The cache is stored in the user's cache directory and is shared by every project on the machine.\n"
         "It is never removed unless you run the clean command.\n\n"
         "Cache versions\n"
         "Each entry is keyed by the package version, so two versions never overwrite each other.\n\n"
         "Pruning the cache\n"
         "You should prune the cache regularly, otherwise it grows without bound.\n")


def test_a_pasted_page_of_documentation_is_not_the_users_words() -> None:
    """Its bare headings ("Cache locations") tell it (sentences._without_document): the page is
    left out from the line after the user's own that hands it over to the turn's end."""
    assert [r.conclusion for r in rules.extract([_PAGE], "s").records] == [
        "We always pin the tool's version in CI."]
    man = ("if nothing is found print the help as we do now. Man page:\n\nbuildctl prune\n\n"
           "Remove the build cache of the current project.\n\nOptions\n\n-a, --all\n"
           "    Remove every cache\n\nSee also\n\nbuildctl\n\n"
           "In use\nBy default, we will prune items older than a week from the cache.\n")
    assert "By default" not in sentences.typed(man) and "Options" not in sentences.typed(man)
    assert sentences.typed(man).startswith("if nothing is found print the help")


@pytest.mark.parametrize("notes", [
    # the user's own notes: headings marked, or two at most, or a heading's line that ends in a colon
    "## Testing\nWe always use pytest, never unittest.\n\n## Deploy\nWe deploy from main only.\n\n"
    "## Style\nWe never use tabs in this repo, only spaces.\n",
    "some context first\n\nTesting\nWe always use pytest, never unittest, for every package.\n\n"
    "Deploy\nWe deploy from main only, the release job signs the build.\n",
    "Testing:\nWe always use pytest, never unittest.\n\n"
    "Deploy:\nWe deploy from main only, never a branch.\n\n"
    "Style:\nWe never use tabs in this repo, only spaces please.\n",
])
def test_notes_of_the_users_own_with_headings_are_read(notes: str) -> None:
    assert sentences.typed(notes) == notes.replace("\r\n", "\n")


@pytest.mark.parametrize("cue", ["Please remember this for all future changes.",
                                 "keep that in mind for anything stateful",
                                 "Don't forget this for new screens.",
                                 "That goes for anything that lists bookings, not just this."])
def test_a_sentence_that_marks_the_one_before_as_lasting_is_not_a_record_of_its_own(
        cue: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """It keeps the sentence before it, whatever the model says of that one."""
    monkeypatch.setattr(rules, "KEEP", 1.01)  # no sentence the model weighs can reach them
    monkeypatch.setattr(rules, "RESCUE", 1.01)
    said = "the patch window for prod is the weekend, Sat 22:00 to Sun 04:00 IST."
    records = rules.extract([f"{said} {cue}"], "s").records
    assert [r.conclusion for r in records] == ["The patch window for prod is the weekend, Sat 22:00 to Sun "
                                               "04:00 IST."]
    assert rules.extract([said], "s").records == []
    # "note that ..." says a thing of its own: it marks nothing
    assert not rules.back_cue("Note that in CI environments this setting is true by default.")


def test_a_generated_password_no_scanner_names_is_never_kept() -> None:
    """No keyword stands beside it ("Password please generate. The current one is ..."), so the
    scrubber leaves it: the extraction takes it for a secret by its shape (``sentences.scrubbed``,
    what extract/run.py gives the rules)."""
    said = ("Password please generate, 32 chars. The current one for app_ro is tR8#vW2qLp9!zX4mN7sK1, "
            "don't reuse.")
    assert rules.extract([sentences.scrubbed(said)], "s").records == []
    rotate = "Always rotate it with the vault CLI, never paste Xy7!kLm2#pQr9q in chat."
    kept = rules.extract([sentences.scrubbed(rotate)], "s").records
    assert kept and all("Xy7" not in r.conclusion for r in kept)
    for code in ("stacklevel=2 everywhere", "MACOSX_DEPLOYMENT_TARGET=11.0", "C#/.NET 8", "v1.2.3+build4"):
        assert not sentences.names_a_place(code), code
        assert sentences.unnamed_secrets(code) == code, code  # not a password by its shape


def test_chat_spelling_leaves_options_abbreviations_and_names_alone() -> None:
    """"r" is "are" and "u" is "you" in chat, not in `jest -u`, "w.r.t.", `r.Status`, "/r/" or
    "release-plz": a record that said `jest -you` would teach the next session a wrong command."""
    typed = "adb install -r, then `jest -u`; w.r.t. T; r.Status.Update; /r/[code]; release-plz; S.r.l."
    assert rules._spelled(typed) == typed
    assert rules._spelled("r u sure? pls dont") == "are you sure? please don't"
    said = ("When you update snapshots always run `pnpm test -- -u` only on the spec you changed, never the "
            "whole suite.")
    records = rules.extract([said], "s").records
    assert records and all("-u`" in r.conclusion and "-you" not in r.conclusion for r in records)


def test_a_passive_is_the_statement_not_a_stakeholder_lead() -> None:
    """"Those weights were agreed with the VP" is the rule's own subject, "this was decided in the
    assembly" points back at the sentence before; "What is decided:" and "my lead told me that"
    are leads the rules take off."""
    for said, left in (("Those weights were agreed with the VP of CS so don't tweak them", None),
                       ("this was decided in the assembly and is not negotiable", None),
                       ("What is decided: the raw zone stays as parquet", "the raw zone stays as parquet"),
                       ("my lead told me that we deploy on fridays", "we deploy on fridays")):
        assert (rules._HEARSAY.sub("", said) if rules._HEARSAY.opens(said) else None) == left, said


def test_something_going_wrong_as_the_user_speaks_is_not_kept() -> None:
    """Today's bug in the present progressive, or its cause, however sure the model is of it."""
    for said in ("the chat gateway is dropping messages for users with no `device_id`.",
                 "Payslips for November are not showing in the employee portal for the Nairobi office.",
                 "celery beat is double firing the cleanup task on the EU cluster.",
                 "so the retry after the timeout is the problem, FCM did deliver the first one."):
        assert rules.extract([said], "s").records == [], said
    # a decision, and a rule: not a malfunction
    assert not rules._MALFUNCTION.finds("we're NOT updating to 1.21 yet, half the mods are on 1.20.1")
    assert rules.extract(["Never backfill a team that is losing by more than 8 rounds, nobody wants that "
                          "slot."], "s").records


def test_a_key_the_user_names_as_one_is_never_kept() -> None:
    """Too plain for the commit-time scan (no provider's shape, not random enough), a value the
    user calls a key, token or password is a secret in the extraction: taken out before the rules
    read it, and the sentence dropped when it was the point."""
    for said in ("The bot token is 7712093311:AAH-fk29Qz_made_up_tok3nXy0, put it with the chat id.",
                 "Slack bot token is xoxb-2231-88812-Zq8WkT3mVn and the pd key is u+Fx7Kq2LmN9pR, put them "
                 "in .env.", "The Etsy API keystring is `etsy_k_8fj29dkq0pl3mzx7` and shared secret "
                 "`s3cr3tW1ck9aa`, put them wherever makes sense."):
        assert rules.extract([sentences.scrubbed(said)], "s").records == [], said  # as run.py gives it
    assert sentences.unnamed_secrets("the pd key is u+Fx7Kq2LmN9pR") == \
        "the pd key is [REDACTED:stated-secret]"
    for name in ("the cache key is UserProfile:v2:{id}", "The primary key is OrderId2024Line",
                 "the token is stored in Vault", "the key is PKCS12PrivateKeyTypes2",
                 "UserProfile:v2x is the cache key.", "Xk29fLQm0pVbA7zRt3Yw is the key point.",
                 "Pixel_4_API_30 is the avd name, keys are dot.separated.lowercase."):
        assert sentences.unnamed_secrets(name) == name
    # several values after one name, and the value before what the user calls it
    assert sentences.unnamed_secrets("RevenueCat keys are appl_kQxTzR8mPfW2vNeLs and goog_Zr4bWq9TmcXaVn, "
                                     "put them in the dart-define.") == \
        "RevenueCat keys are [REDACTED:stated-secret] and [REDACTED:stated-secret], " \
        "put them in the dart-define."
    assert sentences.unnamed_secrets("Careful, that one (ser.Qw81kLmZ0pVbA7zRt3Yx) is the server key.") == \
        "Careful, that one ([REDACTED:stated-secret]) is the server key."
    # after the name in the same sentence, a value that looks generated, or a quoted password
    for said, left in (
            ("with EXPO_ACCESS_TOKEN set to expo_Qm3vTzR8kWp2LxN9aYc4HdF7 and a phone", "set to [REDACTED"),
            ("the read-only stats key pl_9XcVb2NmQw7Er4Ty6Ui8 lives in Netlify env", "key [REDACTED"),
            ("sentry auth token (sntrys_eyJpYXQiOjE3MTAwMDAw) goes in CI", "token ([REDACTED"),
            ("the Vault password is in 1password, it's `hunter2-staging-9xQ` for a local run",
             "it's `[REDACTED"),
            ("Secret format is pcl_whsec_ + 32 base62, e.g. pcl_whsec_Hk29sLmQ0xPb7TzR4nVc.",
             "e.g. [REDACTED")):
        assert left in sentences.unnamed_secrets(said), said
    for name in ("The API key goes in .env, the model is Llama-3.1-70B-Instruct.",
                 "The key point: Llama-3.1-70B-Instruct is the teacher.",
                 "the password policy is in `PasswordPolicyV2`, the refresh in `refresh_token_v2`",
                 "the token expired. The build id is b9XcVb2NmQw7Er4Ty6Ui8 now"):
        assert sentences.unnamed_secrets(name) == name


def test_what_is_taken_out_leaves_no_quotes_brackets_or_cut_words() -> None:
    """A URL, path, host or secret goes with its quotes or brackets and the preposition before it
    ("at", "in" ... as a word: not the end of "PAT" or "annotation"); "~" alone is no home folder."""
    for text, left in (
            ("The private dns zone `privatelink.blob.core.windows.net` lives in the hub subscription.",
             "The private dns zone lives in the hub subscription."),
            ("I put my PAT `[REDACTED:azure-pat]` in nuget.config locally.",
             "I put my PAT in nuget.config locally."),
            ("runs on the bench pc (at 10.0.3.7 at the moment), so",
             "runs on the bench pc (at the moment), so"),
            ("the orders table has ~900M rows, pin with ~> 5.31",
             "the orders table has ~900M rows, pin with ~> 5.31"),
            ("my checkout is ~/src/app", "my checkout is")):
        assert sentences.without_places(text) == left, text
