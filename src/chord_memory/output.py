"""Findings as text (path:line:col: CODE message), JSON, and SARIF 2.1.0."""
from __future__ import annotations

from collections.abc import Iterable

from chord_memory.findings import CODES, Finding

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def as_text(findings: Iterable[Finding]) -> str:
    return "".join(f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}\n" for f in findings)


def _end(f: Finding) -> tuple[int, int]:
    end_line = f.end_line if f.end_line is not None else f.line
    end_column = f.end_column if f.end_column is not None else f.column
    return end_line, end_column


def as_json(findings: Iterable[Finding]) -> str:
    import json

    rows = []
    for f in findings:
        end_line, end_column = _end(f)
        rows.append({
            "path": f.path, "line": f.line, "column": f.column,
            "end_line": end_line, "end_column": end_column,
            "code": f.code, "severity": f.severity, "message": f.message, "kind": f.kind,
        })
    return json.dumps({"findings": rows}, indent=2) + "\n"


def as_sarif(findings: Iterable[Finding]) -> str:
    import json

    from chord_memory import __version__

    findings = list(findings)
    rules = [
        {
            "id": code, "name": row.name,
            "shortDescription": {"text": row.title},
            "defaultConfiguration": {"level": row.severity},
        }
        for code, row in CODES.items()
    ]
    index = {code: i for i, code in enumerate(CODES)}
    results = []
    for f in findings:
        end_line, end_column = _end(f)
        region = {"startLine": f.line, "startColumn": f.column}
        if (end_line, end_column) != (f.line, f.column):
            region |= {"endLine": end_line, "endColumn": end_column}
        results.append({
            "ruleId": f.code, "ruleIndex": index[f.code], "level": f.severity,
            "message": {"text": f.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": f.path, "uriBaseId": "%SRCROOT%"},
                "region": region,
            }}],
        })
    doc = {
        "$schema": SARIF_SCHEMA, "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "chord-memory", "version": __version__,
                "rules": rules,
            }},
            "results": results,
        }],
    }
    return json.dumps(doc, indent=2) + "\n"


FORMATTERS = {"text": as_text, "json": as_json, "sarif": as_sarif}
