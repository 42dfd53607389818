"""The one expected-failure type, exit codes, and one line for a system error.

A leaf: it imports nothing of ours (what an unexpected failure leaves behind is crashlog.py).
"""
from __future__ import annotations

import os

# Exit codes used everywhere (docs/checks.md, "Exit codes").
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
