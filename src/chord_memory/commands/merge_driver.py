"""chord-memory merge-driver %O %A %B: what git runs to merge MEMORY.md (see docs/merge-driver.md)."""
from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    from chord_memory import mergedriver

    return mergedriver.run(args.ancestor, args.current, args.other)
