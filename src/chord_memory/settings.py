"""The few values the hot paths (check, summary, hooks) need from the configuration."""
from __future__ import annotations

from chord_memory.check import Settings


def load(root: str) -> Settings:
    from chord_memory import config, records

    cfg = config.load(root)
    limits = cfg.memory.limits
    return Settings(
        records.Limits(limits.summary_chars, limits.statement_chars, limits.record_bytes),
        cfg.memory.injection_budget,
    )
