"""The one expected-failure type, and what an unexpected one leaves behind."""
from __future__ import annotations

import os
import sys

# Exit codes used everywhere (SPEC section 10).
CLEAN = 0
FINDINGS = 1
USAGE = 2
CRASH = 3


class UserError(Exception):
    """An expected failure: bad configuration, bad usage, unreadable input.

    The message is one line that says what, where, and how to fix it. It must
    never contain a secret value.
    """

    def __init__(self, message: str, code: int = USAGE) -> None:
        super().__init__(message)
        self.code = code


def log_crash(log_dir: str | None) -> str:
    """Write the current exception with versions to a log file; return its path."""
    import traceback

    from chord_memory import __version__

    directory = log_dir or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "chord-memory",
    )
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "crash.log")
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"### chord-memory {__version__}, python {sys.version.split()[0]}\n")
        f.write(f"### argv: {sys.argv[1:]!r}\n")
        f.write(traceback.format_exc())
        f.write("\n")
    return path
