"""Who said what: a model's record must be carried by the user's own words in the session.

A model reply says who a record comes from (`source`) and how sure it is
(`status`). Neither is taken on the model's word:

- status: a model verifies nothing, so `verified` becomes `stated` (an
  assistant record claiming it fails validation, as before: parse.py).
- source `user` or `required`: every sentence of the summary and of the
  conclusion must be supported by what the user typed in this session (the
  `user` turns, scrubbed; never the assistant's text, tool output or a
  compaction summary). A `required` answer may lean on the questions of the
  assistant turn just before it. A record that grants a permission is held to
  the same test whatever its source: a permission is the user's to give. A
  record that fails is skipped with a one-line reason, not downgraded.

Support is a deterministic comparison of content words: lower-cased, lightly
stemmed, short and long forms folded (PR, pull request), without function words
and the framing a model adds ("the user prefers", "always"); negations become
one token, permission words another. A sentence is supported by a window of at
most WINDOW consecutive clauses that holds
- at least SHARE of its content words, and two unless it has only one;
- at least RIDER_SHARE of each clause of it that has three or more (an invented
  clause cannot ride along with a quoted one);
- a permission word if the sentence has one;
- one of its words or a yes in what the user typed of the window;
and a negation the user typed in the window must be in the sentence too
("never push to main" does not carry "push to main"). See docs/extraction.md.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import chain
from typing import NamedTuple

from chord_memory.extract.reply import NewRecord, Reply

WINDOW = 4          # consecutive clauses of the user's turns one sentence may draw on
SHARE = 0.5         # of a sentence's content words, found in that window
RIDER_SHARE = 1 / 3  # of each clause of three or more content words, found there too
CLAUSE_WORDS = 24   # a longer run of words without a comma or a full stop counts as several clauses

NOT, MAY = "<not>", "<may>"


def _set(text: str) -> frozenset[str]:
    return frozenset(text.split())


_NEGATIONS = _set("""
    not no never nor none nothing cannot dont doesnt didnt isnt arent wasnt wont shouldnt cant
    mustnt avoid avoids avoided avoiding instead rather without
""")
_PERMISSIONS = re.compile(r"^(?:allow\w*|permi[st]\w*|authori[sz]\w*|approv\w*|ok|okay|fine|free|freely"
                          r"|welcome|entitled|yes|yeah|yep)$")
_MODAL = frozenset(("may", "can", "could"))  # a permission, unless "be" or "not" follows
_STOP = _set("""
    a an the and or but if then so to of in on at by for from with as into onto about than that this
    these those it its is are was were be been being am do does did done has have had having
    i me my mine we us our ours you your yours he him his she her they them their there here what
    which who whom whose when where why how all any each both some such own same very just also too
    only ever even again still yet really actually please pls thanks thank sure over
    will would shall should must need needs needed might always etc e g ie eg via per ca wo
    user users agent agents assistant project repo repository codebase team session
    prefer prefers preferred preference want wants wanted like likes asked asks ask said says say
    stated states told tell tells remember note noted important standing rule rules instruction
""")
# the same thing said short or long: folded to one word before anything else
_ALIASES = {
    "pull request": "pr", "pull requests": "pr", "merge request": "mr", "merge requests": "mr",
    "configuration": "config", "documentation": "docs", "database": "db", "databases": "db",
    "environment": "env", "environments": "env", "dependency": "deps", "dependencies": "deps",
    "directory": "dir", "directories": "dir", "production": "prod", "development": "dev",
    "repository": "repo", "end-to-end": "e2e", "end to end": "e2e", "kubernetes": "k8s",
}
_ALIAS = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, _ALIASES), key=len, reverse=True)) + r")\b")
_WORD = re.compile(r"[^\W_]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_SENTENCE = re.compile(r"[.!?;:]+(?=\s|$)|\n+")
# commas, dashes and brackets end a clause, and a negation starts one: "use uv instead of pip"
# is "use uv" and "instead of pip", so a statement may keep the first without the second.
_CLAUSE = re.compile(r",|\s[-\u2013\u2014]+\s|\u2014|[()]|\s(?=(?:not|never|no|don'?t|instead|rather"
                     r"|without|avoid)\b)", re.I)


def stem(word: str) -> str:
    """A light, deterministic stem: push, pushes, pushed and pushing are one word."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            word = word[:-len(suffix)]
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]  # running -> run, but install stays
            break
    else:
        if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
            word = word[:-1]
    if len(word) > 5 and word.endswith("er"):
        word = word[:-2]  # linters -> lint
    elif len(word) > 5 and word.endswith("ly"):
        word = word[:-2]  # directly -> direct
    if len(word) >= 3 and word.endswith("e"):
        word = word[:-1]  # use, uses, used, using -> us
    return word


def words(text: str) -> set[str]:
    """The content words of a text, folded: negations are NOT, permission words MAY."""
    text = _ALIAS.sub(lambda m: _ALIASES[m.group(0)], text.lower())
    raw = _WORD.findall(re.sub(r"n[\u2019']t\b", " not", text))  # don't -> do not
    out: set[str] = set()
    for i, word in enumerate(raw):
        after = raw[i + 1] if i + 1 < len(raw) else ""
        before = raw[i - 1] if i else ""
        if _CJK.search(word):
            out.update(ch for ch in word if _CJK.match(ch))  # no spaces between words: each character
        elif word in _NEGATIONS:
            out.add(NOT)
        elif (_PERMISSIONS.match(word) or (word in _MODAL and after not in ("be", "not"))
              or (word == "sure" and before not in ("make", "be"))):
            out.add(MAY)
        elif word not in _STOP and word not in _MODAL:
            out.add(stem(word))
    return out


def clauses(text: str) -> list[str]:
    """Clauses, none longer than CLAUSE_WORDS words (a pasted log has no commas)."""
    out = []
    for part in (c for s in _SENTENCE.split(text) for c in _CLAUSE.split(s) if c.strip()):
        tokens = part.split()
        out += [" ".join(tokens[i:i + CLAUSE_WORDS]) for i in range(0, len(tokens), CLAUSE_WORDS)]
    return out


class Unit(NamedTuple):
    words: frozenset[str]
    users: bool  # typed by the user (else: the question a `required` answer replies to)


class Pool(NamedTuple):
    units: list[Unit]
    where: dict[str, list[int]]  # content word -> the units that hold it, in order


def pool(turns: Sequence[tuple[str, str]], questions: bool) -> Pool:
    """The clauses the user typed, in order; with `questions`, each user turn is preceded by
    the questions of the assistant turn right before it."""
    out: list[Unit] = []
    previous = ""
    for role, text in turns:
        if role == "user":
            if questions:
                asked = [s for s in re.split(r"(?<=[.!?])\s+", previous) if s.rstrip().endswith("?")]
                out += [Unit(frozenset(words(c)), False) for q in asked for c in clauses(q)]
            out += [Unit(frozenset(words(c)), True) for c in clauses(text)]
        if role in ("user", "assistant"):
            previous = text if role == "assistant" else ""
    where: dict[str, list[int]] = {}
    for i, u in enumerate(out):
        for w in u.words - {NOT, MAY}:
            where.setdefault(w, []).append(i)
    return Pool(out, where)


def _holds(sentence: set[str], need: float, riders: list[set[str]], seen: set[str],
           typed: set[str]) -> bool:
    if len(sentence & seen) < need or not (typed & sentence or MAY in typed):
        return False  # too few of its words, or an answer that says neither yes nor any of them
    if (MAY in sentence and MAY not in seen) or (NOT in typed and NOT not in sentence):
        return False  # a permission nobody gave, or a negation of the user's the model dropped
    return all(len(r & seen) >= RIDER_SHARE * len(r) for r in riders)


def _windows(hits: Counter[int], need: float) -> Iterator[int]:
    """The first clause of each window that could hold `need` words of the sentence."""
    near = sorted(hits)
    lo = hi = total = 0
    for start in sorted({s for i in near for s in range(max(0, i - WINDOW + 1), i + 1)}):
        while hi < len(near) and near[hi] < start + WINDOW:
            total, hi = total + hits[near[hi]], hi + 1
        while near[lo] < start:
            total, lo = total - hits[near[lo]], lo + 1
        if total + 2 >= need:  # 2: a negation and a permission word are not in `hits`
            yield start


def supported(sentence_text: str, said: Pool) -> bool:
    """Whether some window of at most WINDOW clauses of what was said supports this sentence."""
    sentence = words(sentence_text)
    if not sentence:
        return True
    need = max(SHARE * len(sentence), min(len(sentence), 2))
    riders = [r for c in clauses(sentence_text) if len(r := words(c)) >= 3]
    hits = Counter(chain.from_iterable(said.where.get(w, ()) for w in sentence))  # clause -> words
    for start in _windows(hits, need):
        seen: set[str] = set()
        typed: set[str] = set()  # what of the window the user typed
        users = False
        for u in said.units[start:start + WINDOW]:
            seen |= u.words
            if u.users:
                typed |= u.words
                users = True
            if users and _holds(sentence, need, riders, seen, typed):
                return True
    return False


# what makes an assistant record a permission, and so the user's to give
_GRANT = re.compile(r"\b(?:allow|permi[st]|authori[sz]|approv)\w*|\b(?:ok|okay|fine|free|welcome) to\b"
                    r"|\bwithout (?:asking|review\w*|approval|confirm\w*|permission|check\w*)\b"
                    r"|\b(?:you|agents?|assistants?) (?:may|can)\b(?! not)", re.I)


def statements(rec: NewRecord) -> list[str]:
    """The sentences a record asserts: its summary's and its conclusion's."""
    text = f"{rec.summary}\n{rec.conclusion}"
    return [s for s in re.split(r"(?<=[.!?;])\s+|\n+", text) if words(s)]


def unsupported(rec: NewRecord, pools: Mapping[bool, Pool]) -> str | None:
    """Why the record may not be written as it claims, or None when the user's words carry it.

    `pools[False]` is what the user typed; `pools[True]`, that with the questions answered.
    """
    sentences = statements(rec)
    if rec.source == "assistant" and not any(_GRANT.search(s) for s in sentences):
        return None
    if not sentences:
        return f"source {rec.source}, but it states nothing the user's words could carry"
    said = pools[rec.source == "required"]
    missing = [s for s in sentences if not supported(s, said)]
    if not missing:
        return None
    what = "it grants a permission" if rec.source == "assistant" else f"source {rec.source}"
    return f"{what}, but the user's turns of this session do not say {_quote(missing[0])}"


def _quote(text: str) -> str:
    from chord_memory.secrets import scrub

    return repr(scrub(text)[0][:60])


def checked(reply: Reply, turns: Sequence[tuple[str, str]]) -> tuple[Reply, list[str], list[str]]:
    """(the reply with unsupported records left out and `verified` lowered to `stated`,
    one line per record left out, one line per status lowered)."""
    kept: list[NewRecord] = []
    skipped: list[str] = []
    lowered: list[str] = []
    pools = {False: pool(turns, questions=False), True: pool(turns, questions=True)}
    for rec in reply.records:
        what = f"record {_quote(rec.summary)}"
        if (why := unsupported(rec, pools)) is not None:
            skipped.append(f"{what}: {why}")
            continue
        if rec.status == "verified":
            rec = rec.model_copy(update={"status": "stated"})
            lowered.append(f"{what}: status verified lowered to stated (a model verifies nothing)")
        kept.append(rec)
    return reply.model_copy(update={"records": kept}), skipped, lowered
