"""The Doc Bridge (`recall QUERY --docs PATH...`): which documents the selection already covers.

A document is covered when both hold, checked literally (no similarity guess):

1. a selected record names the document's project-relative path (`docs/testing.md`,
   optionally `./docs/testing.md` or with a `#section`): the record was written
   about that document, and
2. every query word the document contains is also in the selected records: for
   this query the document offers no match the records do not already give.

With `memory.preferOverDocBridge: true` covered documents are dropped from the
references (an approved decision beats re-deriving the fact from the docs), and
their characters are what the brief saves. A document that is not covered is
always kept.
"""
from __future__ import annotations

import os
import re
from typing import NamedTuple

from chord_memory import paths
from chord_memory.errors import UserError
from chord_memory.recall import Hit

MAX_DOC = 4 << 20
_WORD = re.compile(r"\w+")


class Bridge(NamedTuple):
    before: list[str]                 # the documents given, project-relative
    after: list[str]                  # what the brief keeps
    covered: dict[str, list[str]]     # document -> ids of the selected records that cover it
    saved_chars: int                  # characters of the documents dropped
    prefer: bool                      # memory.preferOverDocBridge


def _relative(root: str, given: str) -> str:
    full = os.path.abspath(given)
    rel = os.path.relpath(full, root)
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        raise UserError(f"--docs {given}: outside the project; give a file inside it")
    return rel.replace(os.sep, "/")


def _read(given: str) -> str:
    try:
        with paths.open_regular(given) as f:
            return f.read(MAX_DOC).decode("utf-8", "replace")
    except FileNotFoundError:
        raise UserError(f"--docs {given}: no such file") from None
    except OSError as e:
        raise UserError(f"--docs {given}: cannot be read ({e.strerror})") from None


def cites(text: str, rel: str) -> bool:
    """Whether text names the project-relative path rel as a path of its own."""
    pattern = rf"(?<![\w/.-])(?:\./)?{re.escape(rel)}(?![\w/-]|\.\w)"
    return re.search(pattern, text) is not None


def bridge(root: str, docs: list[str], hits: list[Hit], words: list[str], prefer: bool) -> Bridge:
    in_records = set(_WORD.findall(" ".join(h.text for h in hits).lower()))
    before: list[str] = []
    after: list[str] = []
    covered: dict[str, list[str]] = {}
    saved = 0
    for given in docs:
        rel = _relative(root, given)
        if rel in before:
            continue
        text = _read(given)
        before.append(rel)
        by = [h.id for h in hits if cites(h.text, rel)]
        matched = set(words) & set(_WORD.findall(text.lower()))
        if by and matched <= in_records:
            covered[rel] = by
            if prefer:
                saved += len(text)
                continue
        after.append(rel)
    return Bridge(before, after, covered, saved, prefer)
