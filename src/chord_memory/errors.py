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


def crash_log_path() -> str:
    """`<git-common-dir>/chord-memory/crash.log` in a repository, else the user's cache folder."""
    from chord_memory import paths

    state = paths.state_dir(paths.find_root())
    directory = state or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "chord-memory",
    )
    return os.path.join(directory, "crash.log")


def log_crash() -> str:
    """Write the current exception with versions to the crash log; return its path.

    The text goes through the secrets scrubber first: an exception message can
    quote the input that caused it.
    """
    import traceback

    from chord_memory import __version__

    text = (f"### chord-memory {__version__}, python {sys.version.split()[0]}\n"
            f"### argv: {sys.argv[1:]!r}\n{traceback.format_exc()}\n")
    try:
        from chord_memory.secrets import scrub

        text = scrub(text)[0]
    except Exception:  # the log must be written even when the scrubber is what broke
        text = "### (not scrubbed: the scrubber failed; only the exception type is kept)\n" + \
            "".join(traceback.format_exception_only(sys.exc_info()[0], None))
    path = crash_log_path()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)
    return path
