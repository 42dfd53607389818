"""Secrets: find them in Markdown, scrub them, report them without ever showing them.

    scan_text(text) -> [SecretFinding]     every secret, with its exact span
    scrub(text) -> (clean_text, findings)  each span becomes [REDACTED:<kind>]
    to_findings(path, found) -> [Finding]  CM601 findings for check/scan output (one builder: finding)

Importing this package is cheap (`re` and a few tuples): detect-secrets is
imported only when `detect_secrets_plugins=True` asks for its plugins.
Cleaning is best effort: a secret in a shape no rule knows is not found.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from chord_memory.secrets.baseline import filter_baseline, hashed, load_baseline
from chord_memory.secrets.engine import SecretFinding, Span, find_spans, mask, positioned
from chord_memory.text import redacted

if TYPE_CHECKING:
    from chord_memory.findings import Finding

__all__ = [
    "SecretFinding", "filter_baseline", "finding", "hashed", "load_baseline", "mask", "scan_text",
    "scrub", "scrub_each", "to_findings",
]

_MAX_PASSES = 8


def scan_text(text: str, *, detect_secrets_plugins: bool = False) -> list[SecretFinding]:
    """Every secret in text, in order; lines carrying `pragma: allowlist secret` are skipped."""
    spans = find_spans(text)
    if detect_secrets_plugins:
        from chord_memory.secrets import plugins

        spans = plugins.add_plugin_spans(text, spans)
    return positioned(text, spans)


def scrub(text: str) -> tuple[str, list[SecretFinding]]:
    """Replace each secret with `[REDACTED:<kind>]`.

    Idempotent: the result holds nothing `scan_text` finds, so scrubbing it
    again changes nothing. Text without findings comes back unchanged. The
    findings returned are those of the first pass, positioned in the input.
    """
    found = scan_text(text)
    clean = text
    spans: list[Span] = [Span(f.start, f.end, f.kind, 0) for f in found]
    for _ in range(_MAX_PASSES):
        if not spans:
            break
        clean = _replace(clean, spans)
        spans = find_spans(clean)
    return clean, found


def _replace(text: str, spans: list[Span]) -> str:
    parts = []
    pos = 0
    for span in sorted(spans):
        parts.append(text[pos:span.start])
        parts.append(redacted(span.kind))
        pos = span.end
    parts.append(text[pos:])
    return "".join(parts)


def finding(path: str, line: int, column: int, end_line: int, end_column: int, kind: str,
            masked: str) -> Finding:
    """The one CM601 finding, for `check` and `scan` alike: the kind and the masked value,
    never the value (docs/checks.md#cm601 says how to fix it)."""
    from chord_memory.findings import Finding

    return Finding(path, line, "CM601", f"{kind} secret ({masked})", column, end_line, end_column, kind)


def to_findings(path: str, found: list[SecretFinding]) -> list[Finding]:
    """CM601 findings of one file."""
    return [finding(path, f.line, f.column, f.end_line, f.end_column, f.kind, f.masked) for f in found]


def scrub_each(texts: list[str]) -> list[str]:
    """Each text scrubbed, in one scan: joined by a separator that no secret crosses (a NUL
    between blank lines), then split again; each on its own if a span crossed it anyway."""
    sep = "\n\n\x00\n\n"
    clean = scrub(sep.join(texts))[0].split(sep)
    return clean if len(clean) == len(texts) else [scrub(t)[0] for t in texts]

