"""The file backend: a substring scan over the loaded records, in index order. It does not rank.

`--max 5` means "the first five indexed records whose text contains one of the
query's words", not "the five most relevant" (the limitation `002_…` states).
Fine for a few dozen records; use the sqlite backend beyond that.

Which records load is cached by content (`loaded.compute` is a pure function
of a record's bytes, name and the limits) in its own cache, which keeps every
indexed record it has seen: a scan stops at the first N hits, so a cache of
"what this run used" would forget what the next query needs.
"""
from __future__ import annotations

from typing import Any

from chord_memory.recall import Hit, blob_sha

CACHE = "recall-file"


def search(root: str, limits: tuple[int, int, int], words: list[str], limit: int) -> list[Hit]:
    from chord_memory import cache, loaded, memory_md, paths, records

    indexed = memory_md.ids(root)
    lim = records.Limits(*limits)
    old: dict[str, Any] = cache.load(root, CACHE) or {}
    new: dict[str, Any] = {}
    hits: list[Hit] = []
    for rid in indexed if words else []:
        data = paths.read_record(root, rid)
        if data is None:
            continue
        key = f"{blob_sha(data)}\0{rid}\0{limits}"
        result = old.get(key)
        if result is None:
            result = new[key] = loaded.compute(rid, data, lim)
        rec = loaded.record(result)
        if rec is not None and any(w in rec.text.lower() for w in words):
            from chord_memory.secrets import scrub_each  # what recall prints goes into a prompt

            summary, conclusion, why, how = scrub_each([rec.summary, rec.conclusion, rec.why, rec.how])
            hits.append(Hit(rec.id, rec.type, rec.source, rec.status, rec.actor, summary, conclusion,
                            why, how, data, None))
            if len(hits) >= limit:
                break
    if new:
        keep = set(indexed)
        cache.store(root, CACHE, {k: v for k, v in {**old, **new}.items() if k.split("\0")[1] in keep})
    return hits
