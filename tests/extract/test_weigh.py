"""The second opinion on each sentence (extract/weigh.py): trained, current, deterministic."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from chord_memory.extract import rules, sentences, weigh

ROOT = Path(__file__).resolve().parents[2]


def test_weights_are_current() -> None:
    """The weights are those the labelled sets and the rules' patterns give: a change to
    either without `bench/train_rules.py` run again fails here."""
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "train_rules.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_weights_ship_in_the_package_and_never_learn_from_a_held_out_set() -> None:
    data = json.loads((files("chord_memory") / "data" / weigh.WEIGHTS).read_text("utf-8"))
    assert data["sentence_tables"] and not any(name.startswith("heldout") for name in data["sets"])
    assert weigh.trained_on() == data["sets"]
    tables = weigh.columns(data["sentence_tables"])
    assert weigh.weights() == tables["keep"] and len(weigh.weights()) > 1000
    assert weigh.types() == {k: t for k, t in tables.items() if k != "keep"} and len(weigh.types()) == 4
    assert weigh.unpack(weigh.pack({"w:a": 0.5, "b:x_y": -1.25, "bias": 1e-4})) == \
        {"w:a": 0.5, "b:x_y": -1.25, "bias": 1e-4}
    with pytest.raises(ValueError, match="space"):
        weigh.pack({"w:two words": 1.0})


def test_tables_packed_as_columns_read_back_as_they_were_and_weigh_as_dictionaries_do() -> None:
    """The sentence model and the type models share one index of features in the file and in
    memory; each reads back as the table it was, and weighs a sentence as that table would."""
    keep, fact = {"w:a": 0.5, "b:x_y": -1.25, "bias": 1e-4}, {"w:a": -2.0, "w:z": 3.0}
    read = weigh.columns(weigh.pack_columns({"keep": keep, "fact": fact}))
    assert read == {"keep": keep, "fact": fact}
    assert "w:z" not in read["keep"] and len(read["keep"]) == 3 and read["fact"]["w:z"] == 3.0
    feats = ["w:a", "w:z", "w:never-seen", "bias"]
    for name, table in (("keep", keep), ("fact", fact)):
        assert weigh.total(read[name], feats) == weigh.total(table, feats)
        assert weigh.probability(read[name], feats) == weigh.probability(table, feats)
    with pytest.raises(ValueError, match="a weight for each feature"):
        weigh.columns({"features": "w:a w:b", "keep": weigh.pack({"w:a": 1.0})["values"]})


def test_the_score_does_not_depend_on_the_order_of_the_features() -> None:
    feats = sorted(weigh.features("the CLI flags should stay kebab-case", ["modal"]))
    mixed = list(feats)
    random.Random(3).shuffle(mixed)
    assert weigh.probability(weigh.weights(), feats) == weigh.probability(weigh.weights(), mixed)


def test_tokens_fold_names_numbers_and_code() -> None:
    assert weigh.tokens("Run `make itest` on db/migrate with Python 3.11, not snake_case!") == [
        "run", "<code>", "on", "<name>", "with", "python", "<num>", ",", "not", "<name>", "!"]


def test_a_url_a_machine_path_or_a_host_is_one_token() -> None:
    """A link is one token; both models weigh the text without it, so a statement with a pasted
    link is weighed as the same statement without it, and so is a turn of it."""
    assert weigh.tokens("The API at https://api.example.com/v2 is rate-limited, see /home/me/notes or "
                        "db01.corp.internal:5432") == [
        "the", "api", "at", "<place>", "is", "rate-limited", ",", "see", "<place>", "or", "<place>"]
    linked, bare = ("The API at https://api.example.com/v2 is rate-limited to 10 requests per second.",
                    "The API is rate-limited to 10 requests per second.")
    assert weigh.features(linked, ()) == weigh.features(bare, ())
    assert weigh.turn_features(linked) == weigh.turn_features(bare)


def test_what_the_rules_keep_the_model_can_veto_and_what_they_miss_it_can_keep() -> None:
    vetoed = "okay cool can you run a quick smoke test with like 50 steps"
    rescued = ("those pages are generated from the docstrings, so edit the docstrings in the package, "
               "not the html")
    assert rules.judge(vetoed) is not None and rules.decide(vetoed) is None
    assert rules.judge(rescued) is None
    kept = rules.decide(rescued)
    assert kept is not None and "edit the docstrings in the package" in kept.statement


def test_a_rescued_sentence_is_cleaned_like_a_kept_one() -> None:
    got = rules._rescue("btw the nightly job writes to https://example.com/bucket, so check the quota first")
    assert got is not None and "https://" not in got.statement and not got.statement.startswith("btw")
    assert rules._rescue("is the nightly job writing to the bucket?") is None


def test_the_type_model_overrules_the_rules_only_when_it_is_surer_by_the_margin() -> None:
    table = {"preference": {"w:x": 1.0}, "workflow": {"w:x": 2.5}}
    assert weigh.kind(table, ["w:x"], "preference", margin=2.0) == "preference"
    assert weigh.kind(table, ["w:x"], "preference", margin=1.0) == "workflow"
    assert weigh.kind({}, ["w:x"], "fact") == "fact"
    assert set(weigh.types()) == {"preference", "fact", "workflow", "pitfall"}


def test_a_warning_is_a_pitfall_and_a_directive_is_never_steps() -> None:
    warned = rules.decide("careful, the seed script wipes the local db unless you pass --keep")
    directive = rules.decide("we never run a migration on prod before it ran on staging")
    assert warned is not None and warned.kind == "pitfall"
    assert directive is not None and directive.kind in ("preference", "pitfall")


def test_steps_in_one_sentence_are_a_workflow_and_a_modal_rule_is_never_a_fact() -> None:
    steps = rules.decide("flashing the board: hold BOOT, tap RESET, release BOOT, then run make flash")
    rule = rules.decide("new endpoints in the public api should always be behind auth")
    assert steps is not None and steps.kind == "workflow"
    assert rule is not None and rule.kind != "fact"


def test_a_taste_a_warning_or_a_standing_ask_said_in_so_many_words_is_never_vetoed() -> None:
    for text in ("i'd rather keep the sql hand-written in the reports module",
                 "careful with the tokenizer config, the vocab file is the cased one",
                 "would you mind always running the linter before you say it's done?"):
        assert rules._cued(text), text
    asked = rules.decide("would you mind always running the linter before you say it's done?")
    assert asked is not None and asked.statement.startswith("always running the linter")


def test_a_turn_that_holds_only_a_task_and_its_details_gives_no_record() -> None:
    """The turn model (rules.quiet): "the toggle state is stored in user_prefs.theme" is a
    fact of the task asked for in the same turn, not a fact of the project."""
    for text in ("add a dark mode toggle to the settings screen. the toggle state is stored in "
                 "user_prefs.theme",
                 "morning! we need an endpoint that lists a customer's open invoices. the handler goes in "
                 "src/billing/handlers, the table is Invoices"):
        assert rules.quiet(list(sentences.split(text))), text
        assert rules.extract([text], "t").records == [], text


def test_what_the_user_marks_as_lasting_is_kept_in_a_quiet_turn() -> None:
    text = ("morning! we need an endpoint that lists a customer's open invoices. from now on every new "
            "endpoint gets a rate limit")
    kept = [r.conclusion for r in rules.extract([text], "t").records]
    assert kept == ["Every new endpoint gets a rate limit."]
    # hushed by the turn model or not (its score moves when it is trained again), the cue keeps it
    assert rules.decide("from now on every new endpoint gets a rate limit", hushed=True) is not None
    assert rules.decide("the handler goes in src/billing/handlers", hushed=True) is None


def test_the_turn_model_ships_with_the_others() -> None:
    data = json.loads((files("chord_memory") / "data" / weigh.WEIGHTS).read_text("utf-8"))
    assert data["turns"] and weigh.turns() == weigh.unpack(data["turns"]) and len(weigh.turns()) > 1000
