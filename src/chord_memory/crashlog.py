"""What an unexpected failure leaves behind: a scrubbed traceback in the crash log."""
from __future__ import annotations

import os
import sys


def crash_log_path() -> str:
    """`<git-common-dir>/chord-memory/crash.log` in a repository, else the user's cache folder."""
    from chord_memory import paths

    state = paths.state_dir(paths.find_root())
    directory = state or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "chord-memory",
    )
    return os.path.join(directory, "crash.log")


def log_crash() -> str | None:
    """Write the current exception with versions to the crash log; return its path, or None
    when it cannot be written (a read-only .git, say): the crash is still one line, never a
    second traceback.

    The text goes through the secrets scrubber first: an exception message can
    quote the input that caused it.
    """
    import traceback

    from chord_memory import __version__

    kind = sys.exc_info()[0]
    text = (f"### chord-memory {__version__}, python {sys.version.split()[0]}\n"
            f"### argv: {sys.argv[1:]!r}\n{traceback.format_exc()}\n")
    try:
        from chord_memory.secrets import scrub

        text = scrub(text)[0]
    except Exception:  # the log must be written even when the scrubber is what broke
        text = "### (not scrubbed: the scrubber failed; only the exception type is kept)\n" + \
            "".join(traceback.format_exception_only(kind, None))
    try:
        path = crash_log_path()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "a", encoding="utf-8") as f:
            f.write(text)
    except Exception:
        return None
    return path


def crash_reason(e: BaseException) -> str:
    """The status line of an extraction that crashed."""
    return f"the extraction crashed ({type(e).__name__}: {e}); the traceback is in {crash_log_path()}"
