"""The optional detect-secrets layer: its plugins run line by line over the text.

Imported only when asked for (`scan --detect-secrets`): importing detect-secrets
costs 0.15-0.3 s and its line-by-line scan runs at about 0.1 MB/s, so it is
never on the default hook path. What it adds over our own rules is mostly its
high-entropy-string and keyword detectors; its findings lose every overlap with
ours (our spans are the whole secret; some of its detectors report a part).
"""
from __future__ import annotations

import re

from chord_memory.secrets import filters
from chord_memory.secrets.engine import Span, drop_allowlisted, resolve

_SLUG = re.compile(r"[^a-z0-9]+")


def kind_of(secret_type: str) -> str:
    """"Hex High Entropy String" -> "hex-high-entropy-string"."""
    return _SLUG.sub("-", secret_type.lower()).strip("-")


def plugin_spans(text: str) -> list[Span]:
    """What detect-secrets' default plugins and filters find, as spans into text.

    The text goes through detect-secrets' own file scan (a temporary `.md`
    file), so its Markdown behaviour and filters apply unchanged.
    """
    import os
    import tempfile

    from detect_secrets.core.scan import scan_file
    from detect_secrets.settings import default_settings

    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    fd, path = tempfile.mkstemp(suffix=".md", prefix="chord-memory-")
    out: list[Span] = []
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        with default_settings():
            for secret in scan_file(path):
                n = secret.line_number - 1
                if 0 <= n < len(lines):
                    body = lines[n].rstrip("\r\n")
                    out.extend(_locate(body, starts[n], secret.secret_value, kind_of(secret.type)))
    finally:
        os.unlink(path)
    return out


def _locate(line: str, offset: int, value: str | None, kind: str) -> list[Span]:
    if not value or not filters.plausible(value) or not filters.literal(value):
        return []
    spans = []
    i = line.find(value)
    while i != -1:
        spans.append(Span(offset + i, offset + i + len(value), kind, 0))
        i = line.find(value, i + len(value))
    return spans


def add_plugin_spans(text: str, spans: list[Span]) -> list[Span]:
    """Our spans plus detect-secrets' where they do not overlap ours."""
    extra = drop_allowlisted(text, plugin_spans(text))
    return resolve(spans + extra) if extra else spans
