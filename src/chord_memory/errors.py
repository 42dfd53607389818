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


def os_error(e: OSError) -> str:
    """One line for an OSError that reached the top: the path, what the system said, and what to do.

    Only the file name and the system's message are shown, never file contents.
    """
    name = e.filename if isinstance(e.filename, str) else None
    if name and os.path.isabs(name) and name.startswith(os.getcwd() + os.sep):
        name = os.path.relpath(name)
    what = e.strerror or type(e).__name__
    fix = {"EROFS": "the repository is on a read-only file system",
           "ENOSPC": "free some disk space and run it again"}.get(_errno_name(e), "")
    return f"{name + ': ' if name else ''}{what}" + (f" ({fix})" if fix else "") + \
        ("; fix or remove it and run the command again" if name and not fix else "")


def _errno_name(e: OSError) -> str:
    import errno

    return errno.errorcode.get(e.errno or 0, "")


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
