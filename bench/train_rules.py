"""Train the offline extractor's second opinion (src/chord_memory/extract/weigh.py).

    make weights                                    # = bench/train_rules.py: write the weights file
    .venv/bin/python bench/train_rules.py --cv      # each training set left out in turn: what it costs
    .venv/bin/python bench/train_rules.py --check   # exit 1 when the weights are not those of the sets

The model learns from the labelled sets in tests/extract/statements/ except the held-out
ones (`heldout_*.jsonl`), which only measure it (bench/statements.py). Each sentence the
extractor would weigh (every sentence of a user turn, and the clauses of a sentence) is
an example; it is positive when it states a kept statement of its turn or part of one
(bench/statements.py's matching); the type of that statement trains the type model (one
model a type against the others, on the positive sentences); each turn is an example of the
turn model, positive when it holds a kept statement (rules.quiet). Training is plain logistic
regression by stochastic gradient descent with a fixed seed and exact sums, so the same sets give the same
weights on every machine; the weights file records a digest of the examples, and
tests/extract/test_weigh.py fails when the rules' patterns or the sets change and the
weights were not trained again.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import random
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
sys.path.insert(0, HERE)

import statements as bench  # noqa: E402

from chord_memory.extract import rules, sentences, weigh  # noqa: E402

KINDS = ("preference", "fact", "workflow", "pitfall")
OUT = os.path.join(HERE, "..", "src", "chord_memory", "data", weigh.WEIGHTS)
EPOCHS, RATE, L2, SEED = 30, 0.2, 1e-3, 1
MIN_COUNT = 2  # a feature seen once is a name, not a pattern


def training_sets() -> list[str]:
    """Every set but the held-out ones (`heldout_*`) and the probes (`probe_*`: sets that
    measure a kind of session the model does not learn from, tests/extract/statements/README.md)."""
    return sorted(f[:-6] for f in os.listdir(bench.SETS)
                  if f.endswith(".jsonl") and not f.startswith(("heldout", "probe")))


def examples(names: list[str]) -> list[tuple[str, int, str, tuple[str, ...]]]:
    """(sentence, label, set, context) for every sentence and clause the extractor weighs;
    the label is 0, or 1 + the index in rules.KINDS of the type of the statement it states."""
    out = []
    for name in names:
        for turn, first in _turns(name):
            keeps = turn.get("keep") or []
            split = list(sentences.split(sentences.scrubbed(turn["text"])))
            for sentence, around in zip(split, rules.context(split, first), strict=True):
                units = [rules.listed(sentence)[0]] if sentence.steps else \
                    [sentence.text, *rules._clauses(sentence.text)]
                for unit in units:
                    hit = next((k for k in keeps if bench.matches(unit, k["statement"]) or
                                bench.part_of(unit, k)), None)
                    label = 0 if hit is None else 1 + KINDS.index(hit.get("type") or "preference")
                    out.append((unit, label, name, ("list", *around) if sentence.steps else around))
    return out


def _turns(name: str) -> list[tuple[dict[str, Any], bool]]:
    """The turns of a set, each with whether it opens its session (rules.extract reads the first
    user turn of a session of several as its briefing). A turn with no `session` is a session of
    its own, as bench/statements.py extracts it, and opens none."""
    turns = bench.load(name)
    sizes = collections.Counter(t.get("session") or t["id"] for t in turns)
    out, seen = [], set()
    for turn in turns:
        session = turn.get("session") or turn["id"]
        out.append((turn, sizes[session] > 1 and session not in seen))
        seen.add(session)
    return out


def turn_examples(names: list[str]) -> list[tuple[list[str], int, str]]:
    """(features, label, set) for every turn: the label is 1 when the turn holds something to
    keep (the turn model of rules.quiet)."""
    out = []
    for name in names:
        for turn, first in _turns(name):
            split = list(sentences.split(sentences.scrubbed(turn["text"])))
            out.append((rules.turn_features(split, first), int(bool(turn.get("keep"))), name))
    return out


def featurize(rows: list[tuple[str, int, str, tuple[str, ...]]]) -> list[tuple[list[str], int]]:
    return [(sorted(rules.list_features(t, c[1:]) if c[:1] == ("list",) else
                    weigh.features(t, [*rules.signals(t, rules.judge(t)), *c])), y) for t, y, _, c in rows]


def digest(data: list[tuple[list[str], int]]) -> str:
    h = hashlib.sha256()
    for feats, y in data:
        h.update(("\x1f".join(feats) + f"\x1e{y}\n").encode())
    return h.hexdigest()


def train(data: list[tuple[list[str], int]]) -> dict[str, float]:
    counts: dict[str, int] = {}
    for feats, _ in data:
        for f in feats:
            counts[f] = counts.get(f, 0) + 1
    data = [([f for f in feats if counts[f] >= MIN_COUNT], y) for feats, y in data]
    w: dict[str, float] = {}
    order = list(range(len(data)))
    rnd = random.Random(SEED)
    for epoch in range(EPOCHS):
        rnd.shuffle(order)
        rate = RATE / (1 + epoch / 10)
        for i in order:
            feats, y = data[i]
            p = weigh.probability(w, feats)
            g = p - y
            for f in feats:
                old = w.get(f, 0.0)
                w[f] = old - rate * (g + L2 * old)
    return {k: round(v, 4) for k, v in sorted(w.items()) if abs(v) >= 0.0005}


def train_types(data: list[tuple[list[str], int]]) -> dict[str, dict[str, float]]:
    """One model a type, each against the others, on the sentences that state something
    (their own features: not those of the turn around them)."""
    kept = [(weigh.own(feats), y) for feats, y in data if y > 0 and "s:list" not in feats]
    return {kind: train([(feats, int(y == i + 1)) for feats, y in kept]) for i, kind in enumerate(KINDS)}


def cross_validate(names: list[str]) -> None:
    rows = examples(names)
    data = featurize(rows)
    turn_rows = turn_examples(names)
    print("| left out | sentences | rules: captured | rules: junk | weighed: captured | weighed: junk | "
          "type right |")
    print("|---|---|---|---|---|---|---|")
    total = [0, 0, 0, 0, 0]
    for held in names:
        rest = [d for d, r in zip(data, rows, strict=True) if r[2] != held]
        model = (train(_kept(rest)), train_types(rest), train([(f, y) for f, y, n in turn_rows if n != held]))
        turns = bench.load(held)
        plain = _score(turns, None)
        weighed = _score(turns, model)
        total = [a + b for a, b in zip(total, weighed, strict=True)]
        n = sum(r[2] == held for r in rows)
        print(f"| {held} | {n} | {_rate(plain[1], plain[0])} | {_rate(plain[3], plain[2])} | "
              f"{_rate(weighed[1], weighed[0])} | {_rate(weighed[3], weighed[2])} | "
              f"{_rate(weighed[4], weighed[1])} |")
    print(f"| all, pooled | {len(rows)} | | | {_rate(total[1], total[0])} | {_rate(total[3], total[2])} | "
          f"{_rate(total[4], total[1])} |")


def _kept(data: list[tuple[list[str], int]]) -> list[tuple[list[str], int]]:
    return [(feats, int(y > 0)) for feats, y in data]


def _rate(part: int, whole: int) -> str:
    return f"{part / max(whole, 1):.1%}"


Model = tuple[dict[str, float], dict[str, dict[str, float]], dict[str, float]]


def _score(turns: list[dict[str, Any]], model: Model | None) -> tuple[int, int, int, int, int]:
    """(kept, captured, records, junk, typed) with the rules alone (None) or the models
    (sentences, types, turns)."""
    decide, weights, types, turn_weights = rules.decide, weigh.weights, weigh.types, weigh.turns
    try:
        if model is None:
            rules.decide = lambda raw, context=(), hushed=False: rules.judge(raw)  # type: ignore[assignment]
        else:
            rules.weigh.weights = lambda: model[0]  # type: ignore[assignment]
            rules.weigh.types = lambda: model[1]  # type: ignore[assignment]
            rules.weigh.turns = lambda: model[2]  # type: ignore[assignment]
        r = bench.score(turns)
    finally:
        rules.decide, rules.weigh.weights, rules.weigh.types, rules.weigh.turns = (  # type: ignore[assignment]
            decide, weights, types, turn_weights)
    return r["kept"], r["captured"], r["records"], r["junk"], r["typed"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cv", action="store_true", help="leave each training set out in turn")
    parser.add_argument("--check", action="store_true", help="exit 1 when the weights are stale")
    args = parser.parse_args(argv)
    names = training_sets()
    if args.cv:
        cross_validate(names)
        return 0
    rows = examples(names)
    data = featurize(rows)
    turn_data = [(f, y) for f, y, _ in turn_examples(names)]
    stamp = digest(data + turn_data)
    if args.check:
        with open(OUT, encoding="utf-8") as f:
            current = json.load(f).get("examples")
        if current != stamp:
            print(f"{OUT}: trained on other examples than the sets and rules give now; run: make weights")
            return 1
        return 0
    weights = train(_kept(data))
    types = train_types(data)
    turns = train(turn_data)
    meta = {"sets": names, "examples": stamp, "sentences": len(data), "positive": sum(y > 0 for _, y in data),
            "epochs": EPOCHS, "rate": RATE, "l2": L2, "seed": SEED, "min_count": MIN_COUNT}
    packed = {"sentence_tables": weigh.pack_columns({"keep": weights, **types}), "turns": weigh.pack(turns)}
    with open(OUT, "w", encoding="utf-8") as f:
        # ASCII, the few non-ASCII letters of features escaped: a text of one-byte characters parses
        # and splits in about two thirds of the time a text with a single wider one does
        json.dump({**meta, **packed}, f, indent=0, sort_keys=True, ensure_ascii=True)
        f.write("\n")
    print(f"{OUT}: {len(weights)} weights from {len(data)} sentences of {', '.join(names)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
