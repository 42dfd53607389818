"""An existing detect-secrets `.secrets.baseline`: audited false positives do not block.

Read as plain JSON (detect-secrets is not imported). An entry counts when
`detect-secrets audit` marked it `"is_secret": false`; it matches a finding in
the same file whose value hashes (SHA-1, hex) to its `hashed_secret`.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

from chord_memory import paths
from chord_memory.errors import UserError

if TYPE_CHECKING:
    from chord_memory.secrets.engine import SecretFinding

BASELINE = ".secrets.baseline"


def hashed(value: str) -> str:
    """detect-secrets' `hashed_secret`: the SHA-1 of the value, in hex."""
    import hashlib

    return hashlib.sha1(value.encode("utf-8"), usedforsecurity=False).hexdigest()


def load_baseline(root: str, name: str = BASELINE) -> set[tuple[str, str]]:
    """(filename, hashed_secret) of every entry audited as not a secret; empty without a file."""
    path = os.path.join(root, name)
    if not os.path.exists(path):
        return set()
    import json

    try:
        with paths.open_regular(path) as f:
            data = json.loads(f.read(8 << 20).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise UserError(
            f"{name}: not a readable detect-secrets baseline ({type(e).__name__}); "
            f"fix or remove it"
        ) from None
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, dict):
        raise UserError(f"{name}: no \"results\" object; is it a detect-secrets baseline?")
    allowed: set[tuple[str, str]] = set()
    for filename, entries in results.items():
        for entry in entries if isinstance(entries, list) else ():
            if isinstance(entry, dict) and entry.get("is_secret") is False:
                digest = entry.get("hashed_secret")
                if isinstance(digest, str):
                    allowed.add((filename.replace(os.sep, "/"), digest.lower()))
    return allowed


def filter_baseline(
    path: str, text: str, found: list[SecretFinding], allowed: set[tuple[str, str]]
) -> list[SecretFinding]:
    """The findings of `path` that the baseline does not mark as audited false positives."""
    if not allowed:
        return found
    return [f for f in found if (path, hashed(text[f.start:f.end])) not in allowed]
