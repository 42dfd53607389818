"""The rule type, and the table of all rules with its keyword index.

A rule is one declarative entry: the kind it reports, the keywords that must
occur for it to run at all (the prefilter: most text never meets a regex), a
pattern whose `value` group (or the whole match) is the secret, where the
pattern is tried (`scope`), and optional entropy floor, value check and a
second, cheaper prefilter (`needs`: lowercase strings one of which the window
must contain, e.g. a separator; `"set&to "` asks for both parts).

Scopes:
  TOKEN  the keywords are token prefixes; the pattern is matched where a token
         starts with one of them (no per-keyword pass over the text)
  AT     the keyword is found in the text; the pattern is matched right there
  LINE   the keyword is found in the text; the pattern is searched in its line
         (and the `lines - 1` lines after it)
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import NamedTuple

TOKEN = "token"
AT = "at"
LINE = "line"

# A check answers whether the match holds a secret; a string answer is the kind to report
# instead of the rule's (a provider's value found beside its name, see `named.py`).
Check = Callable[["re.Match[str]", str], "bool | str"]


class Rule(NamedTuple):
    kind: str
    keywords: tuple[str, ...]
    pattern: str
    scope: str = TOKEN
    flags: int = 0
    entropy: float = 0.0
    check: Check | None = None
    priority: int = 4
    lines: int = 1
    needs: tuple[str, ...] = ()   # LINE rules: run only when the window holds one ("a&b": both)
    examples: tuple[str, ...] = ()      # texts in which the rule finds its kind (a test runs them)
    not_examples: tuple[str, ...] = ()  # texts in which it finds nothing


@functools.cache
def compiled(pattern: str, flags: int) -> re.Pattern[str]:
    """Rules compile on first use: a hook run compiles only the rules its text can trigger."""
    return re.compile(pattern, flags)


class Index(NamedTuple):
    """Rules by keyword, split by how the keyword is looked for."""

    starts: dict[bytes, tuple[tuple[bytes, tuple[int, ...]], ...]]  # TOKEN rules, by first 2 bytes
    # AT and LINE rules: lowercase keyword -> (its AT rule numbers, its LINE rule numbers)
    finds: dict[bytes, tuple[tuple[int, ...], tuple[int, ...]]]
    needs: dict[int, tuple[tuple[bytes, ...], ...]]  # LINE rules: any of these, all of each


def lazy(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """A module-level pattern compiled on first use, so importing stays cheap."""
    return functools.partial(compiled, pattern, flags)


def build_index(rules: tuple[Rule, ...]) -> Index:
    prefixes: dict[bytes, list[int]] = {}
    finds: dict[bytes, list[int]] = {}
    for number, rule in enumerate(rules):
        table = prefixes if rule.scope == TOKEN else finds
        for keyword in rule.keywords:
            table.setdefault(keyword.encode("ascii"), []).append(number)
    starts: dict[bytes, list[tuple[bytes, tuple[int, ...]]]] = {}
    for prefix, numbers in prefixes.items():
        if len(prefix) < 2:
            raise ValueError(f"token prefix {prefix!r} is shorter than two characters")
        starts.setdefault(prefix[:2], []).append((prefix, tuple(numbers)))
    return Index(
        {k: tuple(v) for k, v in starts.items()},
        {k: (tuple(n for n in v if rules[n].scope == AT), tuple(n for n in v if rules[n].scope == LINE))
         for k, v in finds.items()},
        {n: tuple(tuple(p.encode("ascii") for p in x.split("&")) for x in r.needs)
         for n, r in enumerate(rules) if r.needs},
    )


@functools.lru_cache(maxsize=1)
def all_rules() -> tuple[tuple[Rule, ...], Index]:
    from chord_memory.secrets import context, providers

    rules = providers.RULES + context.RULES
    return rules, build_index(rules)
