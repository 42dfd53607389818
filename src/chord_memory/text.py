"""Text that every reader of ours accepts: no control characters, no lone surrogates.

JSON can carry both (`\\u0000`, `\\ud800`), and a transcript is outside input.
They are replaced like any bad byte is (U+FFFD) where text comes in and again
before anything is written, so no file we write is one our own reader refuses
(MEMORY.md with a NUL is "not UTF-8 text"; a lone surrogate cannot be encoded).
"""
from __future__ import annotations

import re

# C0 controls but tab, newline and carriage return; DEL; C1 controls; lone surrogates.
_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
REPLACEMENT = "\ufffd"


# What the scrubber puts where a secret was (chord_memory.secrets.scrub): "[REDACTED:<kind>]",
# a kind being lower-case letters, digits and hyphens. Here, not in the secrets package, so
# that a reader of scrubbed text need not import the scanner.
REDACTED = re.compile(r"\[REDACTED:[\w-]+\]")


def redacted(kind: str) -> str:
    """The placeholder of a secret of ``kind``."""
    return f"[REDACTED:{kind}]"


# The same characters as bytes, of ASCII text: most of a transcript, read through in C
_BAD_ASCII = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_PIECE = 1 << 20  # characters at a time: two copies of a piece, not of a 50 MB turn


def clean(text: str) -> str:
    """``text`` with every control character and lone surrogate replaced by U+FFFD. ASCII text
    with none in it (nearly all of it) is told by deleting them from its bytes, which is some
    six times faster than the pattern's search (bench/extract.py reads 50 MB through here)."""
    if text.isascii() and all(
            len(piece) == len(piece.translate(None, _BAD_ASCII))
            for piece in (text[i:i + _PIECE].encode("ascii") for i in range(0, len(text), _PIECE))):
        return text
    return _BAD.sub(REPLACEMENT, text)
