"""The few configuration values the hot paths (check, summary, hooks) need.

The full configuration (config.py) is validated with pydantic, which costs
about 0.1 s to import; the values here come from a cache keyed by the exact
bytes of both configuration files, so a hook pays for validation only after a
configuration file changed.
"""
from __future__ import annotations

from chord_memory import cache
from chord_memory import defaults as D
from chord_memory.records import Limits

TYPE_CHECKING = False  # `typing` stays off a hook's path (structs.py)
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from chord_memory.structs import NamedTuple


class Settings(NamedTuple):
    limits: Limits
    budget: int
    enabled: bool


DEFAULTS = Settings(Limits(), D.INJECTION_BUDGET, D.ENABLED)


def load(root: str) -> Settings:
    key = cache.config_key(root)
    if key[1] is None and key[2] is None:
        return DEFAULTS
    cached = cache.load(root, "settings")
    if cached is not None and cached[0] == key:
        limits, budget, enabled = cached[1]
        return Settings(Limits(*limits), budget, enabled)
    from chord_memory import config

    memory = config.load(root).memory
    lim = memory.limits
    found = Settings(Limits(lim.summary_chars, lim.statement_chars, lim.record_bytes),
                     memory.injection_budget, memory.enabled)
    cache.store(root, "settings", (key, (tuple(found.limits), found.budget, found.enabled)))
    return found
