"""What git's post-commit, post-checkout, post-merge and post-rewrite hooks run.

    python -m chord_memory.hook EVENT [ARG...]     # by hand; other hook managers
    python -m chord_memory.hook                    # under pre-commit: the event comes from
                                                   # PRE_COMMIT_* variables
    python -c 'import chord_memory.hook as h; h.entry()' EVENT [ARG...]
                                                   # the raw git hooks (chord-memory install):
                                                   # -c skips runpy, 5 ms on every commit

A stable name: installed hooks and the pre-commit manifest call it, so it stays
while the decision itself lives in background/decide.py.
"""
from __future__ import annotations

from chord_memory.background.decide import entry, fire, main

__all__ = ["entry", "fire", "main"]

if __name__ == "__main__":
    entry()
