"""chord-memory summary [--budget N] [--format text|json|claude-code]

`--format claude-code` is Claude Code's SessionStart hook: it reads the hook's
JSON on stdin (its `cwd` names the project) and prints the JSON that adds the
summary to the session's context (see integrations.py, docs/integrations.md).
"""
from __future__ import annotations

import os
import sys

from chord_memory import cache, index, loaded, paths, summary
from chord_memory.errors import UserError
from chord_memory.gitio import blob_sha

TYPE_CHECKING = False  # argparse's Namespace, for the annotations only (an agent hook's path)
if TYPE_CHECKING:
    import argparse

PREFIX_CHARS = 65536  # the cache keeps the entries a summary of up to this budget can show


def _entries(root: str, budget: int) -> tuple[list[str], int]:
    """The region's entries (at least those a summary of `budget` can show), and how many."""
    from chord_memory import memory_md
    from chord_memory.region import decode

    cached = cache.load(root, "summary-index")
    if not (isinstance(cached, tuple) and len(cached) == 4):
        cached = (None, [], 0, "")

    def fresh(st: os.stat_result) -> bool:
        return budget <= PREFIX_CHARS and cached[0] is not None and cached[0] == _stamp(st)

    st, data = memory_md.read_unless(root, fresh)
    if st is None:
        return [], 0
    if data is None:
        return list(cached[1]), cached[2]
    stamp = _stamp(st)
    try:
        bom, text = decode(data)
    except (UnicodeDecodeError, ValueError):
        raise UserError(f"{index.NOT_TEXT}; `chord-memory check` says where", 1) from None
    lines, problems = index.entry_lines(text, bom)
    if problems:
        raise UserError(index.reason(problems[0]), 1)
    prefix, size = [], 0
    for line in lines:
        if size > max(budget, PREFIX_CHARS):
            break
        prefix.append(line)
        size += len(line) + 1
    # What a session sees goes to its model: never a secret. The scan is keyed by the lines'
    # content too, so a MEMORY.md read again only because it is racily clean is not rescanned.
    digest = blob_sha("\n".join(prefix).encode())
    if cached[3] == digest:
        prefix = list(cached[1])
    else:
        from chord_memory.secrets import scrub_each

        prefix = scrub_each(prefix)
    if budget <= PREFIX_CHARS:
        cache.store(root, "summary-index", (stamp, prefix, len(lines), digest))
    return prefix, len(lines)


def _stamp(st: os.stat_result) -> tuple[int, ...] | None:
    """What identifies this version of MEMORY.md without reading it, as git's index does.

    None when the file was changed within the last two seconds: a change in the
    same timestamp tick could leave size and times equal ("racily clean"), so
    such a file is read and parsed, and not cached.
    """
    import time

    if time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) < 2_000_000_000:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def _loads(root: str, record_id: str, results: loaded.Results) -> bool:
    """Whether the record behind an entry loads: a regular file (never a link) that parses
    within limits."""
    data = paths.read_record(root, record_id)
    return data is not None and len(data) <= paths.MAX_RECORD and \
        loaded.record(results.get(record_id, data, blob_sha(data))) is not None


def run(args: argparse.Namespace) -> int:
    hook: dict[str, object] = {}
    if args.format == "claude-code":  # a SessionStart hook: its JSON arrives on stdin
        from chord_memory import integrations

        hook = integrations.hook_input(sys.stdin.read() if not sys.stdin.isatty() else "")
        root = paths.find_root(integrations.project_dir(hook))
    else:
        root = paths.find_root()
    return print_summary(root, budget=args.budget, fmt=args.format, hook=hook)


def print_summary(root: str, *, budget: int | None, fmt: str, hook: dict[str, object]) -> int:
    """Print the bounded summary (text, json, or Claude Code's hook output for the hook's JSON)."""
    from chord_memory import settings

    conf = settings.load(root)
    problem = paths.unsafe(root)
    if problem:
        raise UserError(problem, 1)
    budget = budget or conf.budget
    lines, total = _entries(root, budget)
    results = loaded.Results(root, conf.limits, "summary")
    result = summary.build(
        lines, budget, lambda i: _loads(root, index.line_id(lines[i]), results), total, conf.enabled,
    )
    results.save()
    if fmt == "claude-code":
        from chord_memory import integrations

        # Nothing indexed: add nothing (the preamble alone would be noise in every session).
        context = result.text if result.shown or result.left_out else ""
        sys.stdout.write(integrations.claude_code_output(hook, context))
    elif fmt == "json":
        import json

        sys.stdout.write(json.dumps({
            "summary": result.text, "shown": result.shown, "left_out": result.left_out,
            "budget": budget,
        }) + "\n")
    else:
        sys.stdout.write(result.text)
    return 0
