"""Near-duplicate statements: the same rule said twice in other words is one record.

Two statements are the same when their content words (lower-cased, lightly
stemmed, function words and the framing people add dropped) mostly coincide:
the smaller holds at least ``CONTAINED`` of its words in the other, the two
share at least ``SHARED`` of all their words (Jaccard) and at least
``MIN_SHARED`` words besides a negation. Negations count as words: "use the
cache" and "never use the cache" are not the same. A restatement usually adds
to the rule ("rls is on for every table" / "every table gets RLS enabled, lookup
tables included"), so the share of all words asked is low and the containment high.
A rule the user says they are saying again ("as I said, ...") is the record it repeats when
most of its own words are in it (``restates``), however many the record adds.
Deterministic, no model.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

CONTAINED = 0.7
SHARED = 0.3
MIN_SHARED = 2  # words, a negation not counted (fewer when a side has fewer): "no X" is not "no Y"
_NOT = frozenset({"<not>"})
NOT = _NOT  # the token a negation counts as
_WORD = re.compile(r"[a-z0-9][a-z0-9+#._'-]*")
_STOP = frozenset((  # noqa: SIM905 - a word list reads better as text
    "a an the and or but of to in on at for with by from as is are was were be been being it its this "
    "that these those there here we our us you your i me my they them their he she his her so then "
    "than also just please pls really very quite always should must need needs have has had do does "
    "did will would can could may might shall ok okay yeah yes hey btw fyi note remember keep mind "
    "going forward from now on rule general make sure want like prefer rather any all every each some "
    "one thing stuff things"
).split())
STOP = _STOP  # function words, and the framing people add to a rule
_NEGATIONS = frozenset((  # noqa: SIM905 - a word list reads better as text
    "not no never don't dont doesn't doesnt isn't isnt aren't arent won't wont can't cant cannot "
    "shouldn't shouldnt mustn't mustnt avoid without stop quit didn't didnt wasn't wasnt weren't "
    "werent nothing none"
).split())


# Words people use for one another when they say a rule again: "don't add packages" is "ask
# before adding a dependency", "don't recap" is "don't summarize". Each group's words count as
# its first one (before stemming). Kept to words that mean the same in a coding session.
_SAME_WORDS = (
    "dependency dependencies dep deps package packages library libraries lib libs",
    "summarize summarise summary summaries recap recaps",
    "propagate propagates bubble bubbles",
    "mock mocks stub stubs fake fakes",
    "answer answers reply replies response responses",
    "repo repository repositories repos",
    "config configuration configs",
    "doc docs documentation",
    "env environment environments envs",
    "prod production",
    "db database databases dbs",
    "dir directory directories dirs folder folders",
    "msg msgs message messages",
    "install installs installing installed add adds adding added",
    "test tests spec specs",
    "worker workers",
    "error errors exception exceptions",
    "squash squashed squashing",
    "seed seeded seeding",
)
_CANONICAL = {w: group.split()[0] for group in _SAME_WORDS for w in group.split()}


def _stem(word: str) -> str:
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)] + keep
            break
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def words(text: str, same_words: bool = True) -> frozenset[str]:
    """The content words of a statement, negation kept as one token, and the words of a
    group of ``_SAME_WORDS`` as its first (unless ``same_words`` is false)."""
    out: set[str] = set()
    for w in _WORD.findall(text.lower().replace("’", "'")):
        w = w.strip("._-'")
        if w.endswith("'s"):
            w = w[:-2]
        if w in _NEGATIONS:
            out.add("<not>")
        elif w and w not in _STOP:
            out.add(_stem(_CANONICAL.get(w, w) if same_words else w))
    return frozenset(out)


def same(a: frozenset[str], b: frozenset[str]) -> bool:
    if not a or not b:
        return a == b
    shared, plain = a & b, min(len(a - _NOT), len(b - _NOT), MIN_SHARED)
    return len(shared) >= CONTAINED * min(len(a), len(b)) and len(shared) >= SHARED * len(a | b) \
        and len(shared - _NOT) >= plain and ("<not>" in a) == ("<not>" in b)


# "as I said, ...", "again: ...", "reminding, ...": the user says it is a rule said before
_AGAIN = re.compile(r"(?i)(?:^|[\s,;:(—-])(?:" + "|".join((
    r"(?:and |so |but )?again\b",
    r"(?:as|like) (?:i )?(?:said|told you|mentioned|wrote)(?: (?:before|earlier|last time))?",
    r"(?:as|like) before", r"same as (?:always|before)", r"as always", r"as usual", r"like last time",
    r"(?:just )?(?:a )?remind(?:er|ing)\b",
    r"i (?:already )?(?:told|said)(?: (?:you|it|this|that))?(?: (?:before|already|earlier))?",
    r"i'?m saying (?:it )?again", r"i am (?:saying|telling)(?: (?:it|you))?(?: again)?",
    r"once more", r"one more time")) + r")[,:.!]?")
RESTATED = 0.6  # of the words of a rule said again, at least this many in the record said first


def restated(text: str) -> bool:
    """The user says they are saying it again ("as I said, ...", "again: ...")."""
    return _AGAIN.search(text) is not None


def restates(text: str, known: Iterable[frozenset[str]]) -> bool:
    """A rule said again ("again: no collect on the driver") that adds little to one of
    ``known`` (the words of the records said first): most of its words, the words of the cue
    left out, are in it, two at least, and both forbid or neither does. Said again, a rule is
    often said shorter or with the talk around it, so the share of all words ``same`` asks for
    is not asked."""
    mine = words(_AGAIN.sub(" ", text))
    return any(_restates(mine, other) for other in known)


def _restates(mine: frozenset[str], other: frozenset[str]) -> bool:
    shared = mine & other
    return len(shared - _NOT) >= min(len(mine - _NOT), MIN_SHARED) and \
        len(shared) >= RESTATED * len(mine) and ("<not>" in mine) == ("<not>" in other)


def duplicate(text: str, known: Iterable[frozenset[str]]) -> bool:
    """``text`` says what one of ``known`` (the words of records) says: in other words
    (``same``), or again with a cue that it is said again (``restates``)."""
    known = list(known)
    if not known:
        return False
    mine = words(text)
    return any(same(mine, other) for other in known) or (restated(text) and restates(text, known))
