"""The offline extractor (`extractor: rules`): deterministic rules over what the user said.

Only user turns are read: nothing the assistant wrote, and no tool output
(the readers drop it), can become a record. A sentence becomes a candidate
when it is a standing instruction or fact ("always …", "never …", "we use …",
"use X instead of Y", "remember that …") or corrects the assistant, is long
enough to carry detail, and is not temporary git or task state.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from chord_memory.extract.reply import NewRecord, Reply

Kind = Literal["preference", "fact", "workflow", "pitfall"]

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_LEAD = re.compile(r"^(?:(?:ok(?:ay)?|so|also|and|btw|fyi|please|pls|hey|oh)[,:]?\s+)+", re.I)
_VERBS = "use|uses|deploy|deploys|run|runs|release|releases|require|requires|prefer|prefers"
_PATTERNS = (
    ("correction", r"^(?:(?:no|nope|wrong|that'?s (?:wrong|not right|incorrect)|actually)\b[,.:;!\s-]+)+"
                   r"(?P<s>.+)"),
    ("remember", r"^(?:remember|note|keep in mind|for future reference|fyi)\b(?: that)?[,:]?\s+(?P<s>.+)"),
    ("instead", r"^(?P<s>(?:use|prefer|run|call|pick)\s+.+?\s+(?:instead of|rather than|over|not)\s+.+)"),
    ("always", r"^(?P<s>always\s+.+)"),
    ("never", r"^(?P<s>(?:never|don'?t|do not|avoid)\s+.+)"),
    ("we-use", rf"^(?P<s>(?:we|this project|this repo(?:sitory)?|our team|the team)\s+(?:{_VERBS})\s+.+)"),
    ("workflow", r"^(?P<s>(?:to|before|after|when(?:ever)?)\s+[^,]{3,60},\s*"
                 r"(?:run|use|call|do|make sure|first|always|update|ask)\b.+)"),
)
_RULES = tuple((name, re.compile(pattern, re.I)) for name, pattern in _PATTERNS)
# Temporary git and task state is never memory (SPEC section 5).
_TEMPORARY = re.compile(
    r"\b(?:(?:this|that|the|my|your|our|current|last|previous|next|new|feature|temp)\s+"
    r"(?:branch|commit|push|rebase|worktree|stash|pr|pull request|ticket|task|session)|"
    r"(?:push|commit|rebase|stash|merge|checkout|cherry-pick)\s+(?:it|this|that|now|them|everything)|"
    r"right now|for now|today|tonight|yesterday|tomorrow|currently|at the moment|this time|"
    r"temporar(?:y|ily)|pinned? (?:to|at)|wip)\b", re.I)
_PITFALL_HINT = re.compile(r"\b(?:breaks?|broke|fails?|failed|flaky|otherwise|careful|beware|"
                           r"crash(?:es)?|corrupt|leaks?|slow)\b", re.I)
_BECAUSE = re.compile(r"\s*(?:,\s*)?\b(?:because|since|as)\b\s+(?P<why>.+)$", re.I)
MIN_WORDS = 5
MIN_CHARS = 24


def sentences(text: str) -> Iterable[str]:
    text = _FENCE.sub(" ", text)
    for line in text.splitlines():
        line = line.strip().lstrip("-*>• ").strip()
        for s in _SENTENCE_END.split(line):
            if s.strip():
                yield s.strip()


def _kind(rule: str, statement: str) -> Kind:
    if rule == "correction" or (rule in ("always", "never", "remember") and _PITFALL_HINT.search(statement)):
        return "pitfall"
    if rule in ("we-use", "remember"):
        return "fact"
    if rule == "workflow":
        return "workflow"
    return "preference"


def _clean(statement: str) -> str:
    statement = statement.strip().rstrip(".!;, ")
    return statement[:1].upper() + statement[1:] + "."


def _summary(statement: str, limit: int) -> str:
    first = statement.split(";")[0].strip().rstrip(".") + "."
    if len(first) <= limit:
        return first
    cut = first[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


_HOW = {
    "preference": "Follow it whenever a task touches this; ask the user before doing otherwise.",
    "fact": "Take it as background for this project; confirm it against the code before relying on it.",
    "workflow": "Follow these steps when the situation comes up, in this order.",
    "pitfall": "Check for this before finishing a change in this area; it has bitten before.",
}


def candidate(sentence: str, session_id: str, summary_chars: int) -> NewRecord | None:
    s = _LEAD.sub("", sentence.strip())
    if s.endswith("?"):
        return None
    for rule, pattern in _RULES:
        m = pattern.match(s)
        if not m:
            continue
        statement = m.group("s").strip()
        if len(statement.split()) < MIN_WORDS or len(statement) < MIN_CHARS:
            return None
        if _TEMPORARY.search(statement):
            return None
        why_m = _BECAUSE.search(statement)
        why = (f"Because {why_m.group('why').strip().rstrip('.')}, as the user put it." if why_m else
               "The user stated it as a standing rule for this project, not a one-off request.")
        if rule == "correction":
            why = "The user corrected the assistant on this; the mistake is likely to recur."
        conclusion = _clean(statement)
        kind = _kind(rule, statement)
        return NewRecord(
            type=kind, source="user", status="stated",
            summary=_summary(conclusion, summary_chars), conclusion=conclusion,
            why=why, how_to_apply=_HOW[kind],
        )
    return None


def extract(user_texts: Iterable[str], session_id: str, summary_chars: int = 160,
            known: str = "") -> Reply:
    """A Reply from what the user said. `known` is text already in AGENTS.md or docs."""
    known_lower = " ".join(known.lower().split())
    seen: set[str] = set()
    out: list[NewRecord] = []
    for text in user_texts:
        for sentence in sentences(text):
            rec = candidate(sentence, session_id, summary_chars)
            if rec is None:
                continue
            norm = " ".join(rec.conclusion.lower().rstrip(".").split())
            if norm in seen or (known_lower and norm in known_lower):
                continue
            seen.add(norm)
            out.append(rec)
    return Reply(records=out)
