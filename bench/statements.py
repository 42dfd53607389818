"""Benchmark: what the offline extractor keeps of labelled user turns, and what it adds as junk.

    .venv/bin/python bench/statements.py                 # every set in tests/extract/statements/
    .venv/bin/python bench/statements.py --set dev -v    # one set, every miss and every junk record

Each line of a set is a user turn with the statements a careful reader keeps
(`keep`) and, when there is nothing, why (`drop`); see tests/extract/statements/README.md.
Turns that share a `session` are extracted as one session, in order (so a rule said
twice is one record). A record matches a kept statement when their content words
mostly coincide (chord_memory.extract.similar's words, without its words-that-mean-the-same,
so that folding more near-duplicates does not loosen the measure: at least 60% of the
smaller side, two words at least). Printed, not asserted:

  capture  kept statements matched by a record / all kept statements
  junk     records that state no part of a kept statement (or its reason) of their turn
           (or session) / all records
  type     matched records whose type is the labelled one
  why      matched records of a statement the user gave a reason for whose Why says it (half
           of the reason's words at least)
  why, none said
           matched records of a statement the user gave no reason for whose Why is not the
           default one (a reason the reader did not see, at best; lower is better)
  folded   captured statements said again in other words (shape near_duplicate) whose record
           is an earlier turn's, or one the plan drops as a near-duplicate of a record an
           earlier session of the set wrote

and the extractor's cost: its import, and its time over the whole set. The rules weigh
each sentence with a model trained on some of these sets (bench/train_rules.py): the
table says which; only the others measure it.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
SETS = os.path.join(HERE, "..", "tests", "extract", "statements")
sys.path.insert(0, os.path.join(HERE, "..", "src"))


def load(name: str) -> list[dict[str, Any]]:
    with open(os.path.join(SETS, f"{name}.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def matches(record: str, statement: str) -> bool:
    """The record states the kept statement (capture)."""
    from chord_memory.extract.similar import words

    r, s = words(record, same_words=False), words(statement, same_words=False)
    common = len(r & s)
    return common >= min(2, len(s)) and common >= 0.6 * min(len(r), len(s))


def part_of(record: str, kept: dict[str, Any]) -> bool:
    """The record states part of a kept statement or its reason (one statement said as
    two sentences gives two records): not junk."""
    from chord_memory.extract.similar import words

    r = words(record, same_words=False)
    s = words(kept["statement"] + " " + (kept.get("why") or ""), same_words=False)
    common = len(r & s)
    return matches(record, kept["statement"]) or (common >= 2 and common >= 0.5 * len(r))


def score(turns: list[dict[str, Any]]) -> dict[str, Any]:
    from chord_memory.extract import rules, sentences, similar

    groups: dict[str, list[dict[str, Any]]] = collections.OrderedDict()
    for t in turns:
        groups.setdefault(t.get("session") or t["id"], []).append(t)
    kept = captured = records = junk = typed = dups = folded = reasons = reasoned = plain = unasked = 0
    written: list[frozenset[str]] = []  # the words of every record of the sessions before
    misses: list[str] = []
    junks: list[str] = []
    by_shape: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    start = time.perf_counter()
    for group in groups.values():
        # as the pipeline does (extract/run.py): what the user typed is scrubbed of secrets first
        got = rules.extract([sentences.scrubbed(t["text"]) for t in group], "bench").records
        expected = [(t, k) for t in group for k in t.get("keep") or []]
        free = list(got)
        for t, k in expected:
            kept += 1
            # a rule said twice is one record (near-duplicates are folded): it captures both
            hit = next((r for r in got if matches(r.conclusion, k["statement"])), None)
            shape = by_shape[t.get("shape") or "-"]
            shape[0] += 1
            if hit is not None:
                if hit in free:
                    free.remove(hit)
                captured += 1
                shape[1] += 1
                typed += hit.type == k.get("type")
                if k.get("why"):  # the user gave a reason: is it the record's Why?
                    reasons += 1
                    given = similar.words(k["why"], same_words=False)
                    reasoned += hit.why not in rules.DEFAULT_WHYS and \
                        len(given & similar.words(hit.why, same_words=False)) >= 0.5 * len(given)
                else:  # none: a Why of the record's own is at best one the reader did not see
                    plain += 1
                    unasked += hit.why not in rules.DEFAULT_WHYS
            if t.get("shape") == "near_duplicate" and hit is not None:
                # said before in other words, in this session or an earlier one: folded when its
                # record is an earlier turn's, or one the plan drops as a near-duplicate of a
                # record an earlier session wrote (extract/plan.py: similar.duplicate)
                earlier = [e for u in group[: group.index(t)] for e in u.get("keep") or []]
                dups += 1
                folded += any(matches(hit.conclusion, e["statement"]) for e in earlier) or \
                    similar.duplicate(hit.conclusion, written)
            if hit is None:
                misses.append(f"{t['id']}: {k['statement']!r}  <- {t['text'][:140]!r}")
        records += len(got)
        written.extend(similar.words(r.conclusion) for r in got)
        # a record that states part of a kept statement another record already matched (one
        # statement said as two records) is not junk; one that matches no kept statement is
        free = [r for r in free if not any(part_of(r.conclusion, k) for _, k in expected)]
        junk += len(free)
        where = group[0].get("session") or group[0]["id"]
        junks.extend(f"{where}: {r.type}: {r.conclusion!r}" for r in free)
    seconds = time.perf_counter() - start
    return {"turns": len(turns), "kept": kept, "captured": captured, "records": records, "junk": junk,
            "typed": typed, "dups": dups, "folded": folded, "reasons": reasons, "reasoned": reasoned,
            "plain": plain, "unasked": unasked,
            "misses": misses, "junks": junks, "by_shape": by_shape, "seconds": seconds}


def _trained_on() -> list[str]:
    """The sets the rules' model (extract/weigh.py) learnt from: on those its figures say
    little (bench/train_rules.py --cv leaves each out in turn)."""
    from chord_memory.extract import weigh

    return weigh.trained_on()


def import_cost() -> float:
    code = ("import time; t = time.perf_counter(); import chord_memory.extract.rules; "
            "print(time.perf_counter() - t)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.path.join(HERE, "..", "src")})
    return float(out.stdout.strip() or "nan")


_COUNTS = ("turns", "kept", "captured", "records", "junk", "typed", "reasons", "reasoned", "plain", "unasked",
           "folded", "dups", "seconds")


def _row(name: str, role: str, r: dict[str, Any]) -> None:
    cap = r["captured"] / max(r["kept"], 1)
    junk = r["junk"] / max(r["records"], 1)
    typ = r["typed"] / max(r["captured"], 1)
    print(f"| {name} | {role} | {r['turns']} | {r['kept']} | {cap:.1%} | {r['records']} | {junk:.1%} | "
          f"{typ:.1%} | {r['reasoned'] / max(r['reasons'], 1):.1%} | "
          f"{r['unasked'] / max(r['plain'], 1):.1%} | {r['folded']}/{r['dups']} | "
          f"{r['seconds'] * 1000:.0f} ms |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", help="a set's name (dev, heldout, ...); default: all")
    parser.add_argument("-v", action="store_true", help="print every miss and every junk record")
    args = parser.parse_args(argv)
    names = args.set or sorted(f[:-6] for f in os.listdir(SETS) if f.endswith(".jsonl"))
    print(f"import of the rules extractor: {import_cost() * 1000:.1f} ms")
    trained = _trained_on()
    print("| set | model | turns | kept statements | captured | records | junk | type right | why right | "
          "why, none said | near-duplicates folded | time |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    results = {}
    for name in names:
        r = results[name] = score(load(name))
        _row(name, "trained on it" if name in trained else "never saw it", r)
    held = [r for name, r in results.items() if name.startswith("heldout")]
    if len(held) > 1:  # the held-out sets, as one
        _row("held out, pooled", "", {k: sum(r[k] for r in held) for k in _COUNTS})
    for name, r in results.items():
        if args.v:
            print(f"\n## {name}: by shape (kept, captured)")
            for shape, (k, c) in sorted(r["by_shape"].items(), key=lambda x: -x[1][0]):
                print(f"  {shape:28} {c:3}/{k:3}")
            print(f"\n## {name}: missed")
            print("\n".join("  " + m for m in r["misses"]))
            print(f"\n## {name}: junk")
            print("\n".join("  " + j for j in r["junks"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
