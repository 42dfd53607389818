"""chord-memory status [--short]: MEMORY, MEMORY-FAIL: <reason>, or nothing when disabled."""
from __future__ import annotations

from chord_memory import paths

TYPE_CHECKING = False  # argparse's Namespace, for the annotations only (a status line's path)
if TYPE_CHECKING:
    import argparse


def _region_problem(root: str) -> str | None:
    from chord_memory import memory_md

    return memory_md.problem(root)


def line(root: str) -> str:
    """The status line: '' when extraction is disabled."""
    from chord_memory import settings, status
    from chord_memory.errors import UserError

    try:
        if not settings.load(root).enabled:
            return ""
    except UserError as e:
        return f"MEMORY-FAIL: {e}"
    if paths.state_dir(root) is None:
        return "MEMORY-FAIL: not a git repository; extraction keeps its state in .git"
    problem = _region_problem(root) or status.blocked(root)  # a run that cannot write: not green
    if problem:
        return f"MEMORY-FAIL: {problem}"
    last = status.read(root)
    if last and not last.get("ok", True):
        return f"MEMORY-FAIL: {last.get('reason') or 'the last extraction failed'}"
    return "MEMORY"


def run(args: argparse.Namespace) -> int:
    return print_status(paths.find_root(), short=args.short)


def print_status(root: str, *, short: bool) -> int:
    text = line(root)
    if text:
        if short and text.startswith("MEMORY-FAIL"):
            text = "MEMORY-FAIL"
        print(text)
    return 0
