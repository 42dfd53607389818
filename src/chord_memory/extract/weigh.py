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
in the package (the features as text and the weights packed: ``pack``, ``pack_columns``).
"""
from __future__ import annotations

import array
import base64
import itertools
import json
import math
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from importlib.resources import files
from typing import cast

from chord_memory.extract.sentences import PLACE, marked_places, without_places
from chord_memory.text import REDACTED

WEIGHTS = "extract-weights-v2.json"

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


class Table(Mapping[str, float]):
    """A table of weights as the package ships it: an index of feature names, which the tables of
    one model share (``columns``), and an array of weights, the last one 0.0 for a feature the
    index does not hold. Read, it is one dictionary and an array for several tables, where a
    dictionary a table took twice the time and more memory; as a mapping it holds the features
    whose weight is not 0.0 (a trained table holds no such weight: ``bench/train_rules.py``)."""

    __slots__ = ("_index", "_values")

    def __init__(self, index: Mapping[str, int], values: array.array[float]) -> None:
        if len(values) != len(index) + 1 or values[-1] != 0.0:
            raise ValueError("a table holds a weight for each feature of its index, then 0.0")
        self._index, self._values = index, values

    def total(self, feats: Iterable[str]) -> float:
        """The exact sum of the weights of ``feats`` (0.0 for a feature not in the table)."""
        return math.fsum(map(self._values.__getitem__, map(self._index.get, feats, itertools.repeat(-1))))

    def __getitem__(self, feature: str) -> float:
        value = self._values[self._index[feature]]
        if value == 0.0:
            raise KeyError(feature)
        return value

    def __iter__(self) -> Iterator[str]:
        return (name for name, i in self._index.items() if self._values[i] != 0.0)

    def __len__(self) -> int:
        return sum(1 for v in itertools.islice(self._values, len(self._index)) if v != 0.0)


def total(weights: Mapping[str, float], feats: Iterable[str]) -> float:
    """The exact sum (math.fsum) of the weights of ``feats``, so the order of the features
    never changes it; a feature without a weight weighs 0.0."""
    if isinstance(weights, Table):
        return weights.total(feats)
    return math.fsum(map(weights.get, feats, itertools.repeat(0.0)))  # weights.get(f, 0.0) for each f


def probability(weights: Mapping[str, float], feats: Iterable[str]) -> float:
    """The model's probability that the sentence holds something to keep."""
    z = total(weights, feats)
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@cache
def _data() -> dict[str, object]:
    data: dict[str, object] = json.loads((files("chord_memory") / "data" / WEIGHTS).read_text("utf-8"))
    return data


def _names(names: list[str]) -> str:
    if any(not name or any(c.isspace() for c in name) for name in names):
        raise ValueError("a feature with a space in it cannot be packed")
    return " ".join(names)


def _doubles(values: Iterable[float]) -> str:
    packed = array.array("d", values)
    if sys.byteorder == "big":
        packed.byteswap()
    return base64.b64encode(packed.tobytes()).decode("ascii")


def _read_doubles(text: str) -> array.array[float]:
    values = array.array("d")
    values.frombytes(base64.b64decode(text))
    if sys.byteorder == "big":
        values.byteswap()
    return values


def pack(table: Mapping[str, float]) -> dict[str, str]:
    """A table of weights as the file holds it: its features, cut by spaces (a feature holds
    none: its words are tokens), and their weights as little-endian doubles in base64. Nothing
    in either needs an escape in JSON but the few letters beyond ASCII, so read back (``unpack``)
    it is the same table, bit for bit, in a fraction of the time a JSON object of 300,000
    numbers takes to parse."""
    names = sorted(table)
    return {"features": _names(names), "values": _doubles(table[name] for name in names)}


def pack_columns(tables: Mapping[str, Mapping[str, float]]) -> dict[str, str]:
    """Tables over much the same features (the sentence model and the type models) as one list
    of features and a column of weights for each table, 0.0 where a table has none: read back
    (``columns``) they share one index."""
    names = sorted(set().union(*tables.values()))
    return {"features": _names(names),
            **{key: _doubles(table.get(name, 0.0) for name in names) for key, table in tables.items()}}


def unpack(packed: Mapping[str, str]) -> Table:
    """The table ``pack`` wrote."""
    return columns(packed)["values"]


def columns(packed: Mapping[str, str]) -> dict[str, Table]:
    """The tables ``pack`` or ``pack_columns`` wrote, by name, over one index; ValueError when a
    column does not hold a weight for each feature."""
    names = packed["features"].split(" ") if packed["features"] else []
    index = dict(zip(names, range(len(names)), strict=True))
    tables = {}
    for key, text in packed.items():
        if key != "features":
            values = _read_doubles(text)
            values.append(0.0)  # what a feature not in the index weighs
            tables[key] = Table(index, values)
    return tables


@cache
def _sentence_tables() -> dict[str, Table]:
    return columns(cast(dict[str, str], _data()["sentence_tables"]))


@cache
def weights() -> Table:
    """The model's weights, by feature."""
    return _sentence_tables()["keep"]


@cache
def types() -> dict[str, Table]:
    """For each record type, the weights of the model that tells it from the others."""
    return {kind: table for kind, table in _sentence_tables().items() if kind != "keep"}


@cache
def turns() -> Table:
    """The weights of the turn model: whether a turn holds anything to keep at all."""
    return unpack(cast(dict[str, str], _data()["turns"]))


def kind(table: Mapping[str, Mapping[str, float]], feats: Iterable[str], default: str,
         margin: float = 0.0) -> str:
    """The type whose model scores the sentence highest (one against the rest), when it
    beats ``default``'s score by more than ``margin``; else ``default``."""
    feats = list(feats)
    scores = {t: total(w, feats) for t, w in table.items()}
    if not scores:
        return default
    best = max(sorted(scores), key=lambda t: scores[t])
    return best if scores[best] - scores.get(default, -math.inf) > margin else default


def trained_on() -> list[str]:
    """The labelled sets the weights were learnt from (tests/extract/statements/)."""
    sets = _data()["sets"]
    assert isinstance(sets, list)
    return [str(s) for s in sets]
