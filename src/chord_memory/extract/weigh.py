"""A second opinion on each sentence: a small linear model trained on labelled user turns.

The rules (extract/rules.py) read shapes; people phrase the same thing in more ways
than any table of shapes holds. This model weighs the words of a sentence, and
the signals the rules' own patterns give, against what careful readers kept in the
labelled sets in tests/extract/statements/ (bench/train_rules.py writes the
weights; docs/extraction.md says how it is trained and how well it does on the
sets it never saw). A second set of weights, one model a record type against the
others, reads the type (`kind`); a third, over the words of the whole turn, tells a turn
that holds nothing to keep (a request for the task at hand, a bug report) from one that
does (`turns`). It is plain logistic regression: the same sentence gets the
same score on every machine, nothing is fetched, and the weights are a JSON file
in the package (each table its features as text and its weights packed: ``pack``).
"""
from __future__ import annotations

import array
import base64
import itertools
import json
import math
import re
import sys
from collections.abc import Iterable, Mapping
from functools import cache
from importlib.resources import files
from typing import cast

from chord_memory.extract.sentences import PLACE, marked_places, without_places
from chord_memory.text import REDACTED

WEIGHTS = "extract-weights-v1.json"

_TOKEN = re.compile(rf"{REDACTED.pattern}|{re.escape(PLACE)}|`[^`]*`|[\w'’./-]*\w|[^\w\s]")
_NUMBER = re.compile(r"^\d[\d.,:]*$")
_NAME = re.compile(r"^[\w-]+[./][\w./-]+$|^\w+_\w+$|^[a-z]+[A-Z]\w*$")


def tokens(text: str) -> list[str]:
    """The words of ``text``, lower-cased, with numbers, code spans, names (paths, dotted
    or snake_case identifiers), each URL, machine path and hostname, and what the scrubber took
    out as one token each."""
    return _tokens(marked_places(text))


def _tokens(text: str) -> list[str]:
    out = []
    for token in _TOKEN.findall(text):
        if token.isalpha() and token.islower():
            out.append(token)  # a plain word, as most are: none of the tests below can hold
        elif token == PLACE:
            out.append(PLACE)
        elif token.startswith("[REDACTED:"):
            out.append("<secret>")  # what the scrubber took out, whatever its kind
        elif token.startswith("`"):
            out.append("<code>")
        elif _NUMBER.match(token):
            out.append("<num>")
        elif _NAME.match(token):
            out.append("<name>")
        else:
            out.append(token.lower().replace("’", "'"))
    return out


def features(text: str, signals: Iterable[str]) -> set[str]:
    """What the model weighs: words, word pairs, how the sentence opens and ends,
    its length, and the signals of the rules' patterns. It weighs the sentence without its
    URLs, machine paths, hostnames and secrets, as the record will hold it (whether one of them
    was the point, rules.judge asks: sentences.broken)."""
    words = _tokens(without_places(text))  # nothing left to mark
    out = {"bias"}
    out.update("w:" + w for w in words)
    out.update(f"b:{a}_{b}" for a, b in itertools.pairwise(words))
    if words:
        out.add("first:" + words[0])
        out.add("last:" + words[-1])
    if len(words) > 1:
        out.add(f"open:{words[0]}_{words[1]}")
    out.add(f"len:{min(len(words) // 4, 8)}")
    out.update("suf:" + w[-3:] for w in words if len(w) > 4 and w.isalpha())
    out.update("s:" + s for s in signals)
    return out


def turn_features(text: str) -> list[str]:
    """What the turn model weighs: the words and word pairs of the whole turn (its sentences,
    without what was pasted), its first words, its length and its question marks. Like the
    sentence model it reads the turn without its URLs, machine paths, hostnames and secrets:
    a statement with a pasted link is kept without it, so the link says nothing of whether the
    turn holds one."""
    words = _tokens(without_places(text))
    out = {"bias", f"tl:{min(len(words) // 8, 10)}", f"tq:{min(text.count('?'), 3)}"}
    out.update("tw:" + w for w in words)
    out.update(f"tb:{a}_{b}" for a, b in itertools.pairwise(words))
    if words:
        out.add("tf:" + words[0])
    if len(words) > 1:
        out.add(f"to:{words[0]}_{words[1]}")
    return sorted(out)


def own(feats: Iterable[str]) -> list[str]:
    """The features of the sentence itself, without those of the turn around it (the
    ``c:`` signals of rules.context): what the type model weighs."""
    return [f for f in feats if not f.startswith("s:c:")]


def probability(weights: Mapping[str, float], feats: Iterable[str]) -> float:
    """The model's probability that the sentence holds something to keep. The sum is
    exact (math.fsum), so the order of the features never changes the score."""
    z = math.fsum(map(weights.get, feats, itertools.repeat(0.0)))  # weights.get(f, 0.0) for each f
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@cache
def _data() -> dict[str, object]:
    data: dict[str, object] = json.loads((files("chord_memory") / "data" / WEIGHTS).read_text("utf-8"))
    return data


def pack(table: Mapping[str, float]) -> dict[str, str]:
    """A table of weights as the file holds it: its features, cut by spaces (a feature holds
    none: its words are tokens), and their weights as little-endian doubles in base64. Nothing
    in either needs an escape in JSON but the few letters beyond ASCII, so read back (``unpack``)
    it is the same table, bit for bit, in a fraction of the time a JSON object of 300,000
    numbers takes to parse."""
    names = sorted(table)
    if any(not name or any(c.isspace() for c in name) for name in names):
        raise ValueError("a feature with a space in it cannot be packed")
    values = array.array("d", (table[name] for name in names))
    if sys.byteorder == "big":
        values.byteswap()
    return {"features": " ".join(names), "values": base64.b64encode(values.tobytes()).decode("ascii")}


def unpack(packed: Mapping[str, str]) -> dict[str, float]:
    values = array.array("d")
    values.frombytes(base64.b64decode(packed["values"]))
    if sys.byteorder == "big":
        values.byteswap()
    names = packed["features"].split(" ") if packed["features"] else []
    return dict(zip(names, values, strict=True))  # as many features as weights, or ValueError


@cache
def weights() -> dict[str, float]:
    """The model's weights, by feature."""
    return unpack(cast(dict[str, str], _data()["weights"]))


@cache
def types() -> dict[str, dict[str, float]]:
    """For each record type, the weights of the model that tells it from the others."""
    tables = cast(dict[str, dict[str, str]], _data().get("types", {}))
    return {kind: unpack(table) for kind, table in tables.items()}


@cache
def turns() -> dict[str, float]:
    """The weights of the turn model: whether a turn holds anything to keep at all."""
    return unpack(cast(dict[str, str], _data()["turns"]))


def kind(table: Mapping[str, Mapping[str, float]], feats: Iterable[str], default: str,
         margin: float = 0.0) -> str:
    """The type whose model scores the sentence highest (one against the rest), when it
    beats ``default``'s score by more than ``margin``; else ``default``."""
    feats = list(feats)
    scores = {t: math.fsum(map(w.get, feats, itertools.repeat(0.0))) for t, w in table.items()}
    if not scores:
        return default
    best = max(sorted(scores), key=lambda t: scores[t])
    return best if scores[best] - scores.get(default, -math.inf) > margin else default


def trained_on() -> list[str]:
    """The labelled sets the weights were learnt from (tests/extract/statements/)."""
    sets = _data()["sets"]
    assert isinstance(sets, list)
    return [str(s) for s in sets]
