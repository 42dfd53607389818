"""Recall's configuration values, and the cheap key that says when they may have changed.

Validating the configuration imports pydantic (about 0.1 s). The sqlite backend
stores the values it was built with in its database beside `config_key`, the
exact bytes of both configuration files, so a warm recall reads two small files
and compares bytes instead.
"""
from __future__ import annotations

import os

from chord_memory import defaults as D
from chord_memory import paths


class Options:
    """memory.maxRecall, memory.backend, memory.preferOverDocBridge and memory.limits."""

    __slots__ = ("backend", "limits", "max_recall", "prefer_docs")

    def __init__(self, max_recall: int, backend: str, prefer_docs: bool,
                 limits: tuple[int, int, int]) -> None:
        self.max_recall, self.backend, self.prefer_docs = max_recall, backend, prefer_docs
        self.limits = limits

    def pack(self) -> str:
        return f"{self.max_recall} {self.backend} {int(self.prefer_docs)} " + \
            " ".join(map(str, self.limits))

    @classmethod
    def unpack(cls, text: str) -> Options:
        m, backend, prefer, a, b, c = text.split()
        return cls(int(m), backend, prefer == "1", (int(a), int(b), int(c)))


DEFAULTS = Options(D.MAX_RECALL, D.BACKEND, D.PREFER_OVER_DOC_BRIDGE,
                   (D.SUMMARY_CHARS, D.STATEMENT_CHARS, D.RECORD_BYTES))


def _raw(path: str) -> bytes:
    try:
        with paths.open_regular(path) as f:
            return b"\1" + f.read(262145)
    except FileNotFoundError:
        return b"\0"
    except OSError as e:  # not "no file": the configuration is validated again, and says what
        return b"\2" + str(e.strerror).encode()


def config_key(root: str) -> bytes:
    """Both configuration files' exact bytes (and the user file's path): equal key, equal values."""
    user = paths.user_config_path()
    return b"\0".join((os.fsencode(user), _raw(user), _raw(os.path.join(root, paths.PROJECT_CONFIG))))


def from_config(root: str) -> Options:
    """The validated values (raises UserError for a bad configuration, exit 2)."""
    if not os.path.exists(os.path.join(root, paths.PROJECT_CONFIG)) and \
            not os.path.exists(paths.user_config_path()):
        return DEFAULTS
    from chord_memory import config

    memory = config.load(root).memory
    lim = memory.limits
    return Options(memory.maxRecall, memory.backend, memory.preferOverDocBridge,
                   (lim.summary_chars, lim.statement_chars, lim.record_bytes))
