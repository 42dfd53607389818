"""Argument parsing and dispatch only: each command lives in commands/<name>.py.

Command modules are imported when their command runs, and only the invoked
command's arguments are declared, so a hook pays only for what it uses. The
commands an agent runs on every prompt (AGENT_HOOKS) skip argparse altogether.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from chord_memory import errors

TYPE_CHECKING = False  # argparse is imported when a command line is parsed, not before
if TYPE_CHECKING:
    import argparse

    Adder = Callable[[argparse.ArgumentParser], None]

# The command lines `install --agent claude-code` writes, run on every prompt, session start
# and end and by the status line, with what argparse makes of them: taken as they are, without
# importing argparse and building a parser (about 3 ms of a 20 ms prompt hook;
# docs/performance.md). A test checks each against argparse.
AGENT_HOOKS: dict[tuple[str, ...], dict[str, object]] = {
    ("recall", "--format", "claude-code"): {
        "command": "recall", "query": None, "max": None, "backend": None, "docs": [],
        "format": "claude-code"},
    ("summary", "--format", "claude-code"): {"command": "summary", "budget": None, "format": "claude-code"},
    ("hook", "session-end"): {"command": "hook", "event": "session-end", "hook_args": []},
    ("status", "--short"): {"command": "status", "short": True},
}


class Args:
    """The parsed arguments of an AGENT_HOOKS command line: attributes, as argparse's Namespace."""

    command: str
    directory: str | None

    def __init__(self, values: dict[str, object]) -> None:
        self.__dict__.update(values, directory=None)


def _formatter() -> type[argparse.HelpFormatter]:
    import argparse

    class Formatter(argparse.HelpFormatter):
        """argparse's formatter, sized without importing shutil (about 3 ms on every hook run)."""

        def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                     width: int | None = None) -> None:
            if width is None:
                try:
                    width = int(os.environ.get("COLUMNS", "")) - 2
                except ValueError:
                    try:
                        width = os.get_terminal_size().columns - 2
                    except OSError:
                        width = 78
            super().__init__(prog, indent_increment, max_help_position, width)

    return Formatter


def _whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from low to high (sqlite and the budget need bounds)."""
    def parse(value: str) -> int:
        import argparse

        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
        if not low <= number <= high:
            raise argparse.ArgumentTypeError(f"expected a number from {low:,} to {high:,}, got {value}")
        return number
    return parse


def _none(p: argparse.ArgumentParser) -> None:
    del p


def _check(p: argparse.ArgumentParser) -> None:
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--all", dest="mode", action="store_const", const="all",
                      help="check the working tree (the default)")
    mode.add_argument("--staged", dest="mode", action="store_const", const="staged",
                      help="check what is staged for the next commit (the hooks use this)")
    p.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    p.add_argument("--no-secrets", action="store_true",
                   help="leave secrets (CM601) to `chord-memory scan`: the chord-memory-check hook "
                        "uses this, the chord-memory-secrets hook reports them")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="report findings for these files only (the whole memory is still read)")


def _scan(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--staged", action="store_true",
                   help="scan the staged memory files (the secrets hook uses this)")
    p.add_argument("--detect-secrets", action="store_true",
                   help="also run detect-secrets' plugins (slower; see docs/secrets.md)")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files to scan; '-' reads stdin")


def _summary(p: argparse.ArgumentParser) -> None:
    p.add_argument("--budget", type=_whole(200, 10_000_000), metavar="N",
                   help="characters at most, preamble included (default: memory.injection_budget)")
    p.add_argument("--format", choices=("text", "json", "claude-code"), default="text")


def _extract(p: argparse.ArgumentParser) -> None:
    p.add_argument("--foreground", action="store_true",
                   help="run now, in this process (what extract always does; for scripts)")
    p.add_argument("--dry-run", action="store_true",
                   help="print what would be written; write nothing, send nothing")


def _status(p: argparse.ArgumentParser) -> None:
    p.add_argument("--short", action="store_true", help="the indicator alone, for a status line")


def _hook(p: argparse.ArgumentParser) -> None:
    p.add_argument("event", choices=("post-commit", "post-checkout", "post-merge", "post-rewrite",
                                      "session-end"),
                   help="a git hook's name, or session-end (Claude Code's SessionEnd JSON on stdin)")
    p.add_argument("hook_args", nargs="*", metavar="ARG", help="the arguments git gave the hook")


def _agent(p: argparse.ArgumentParser) -> None:
    p.add_argument("--agent", choices=("claude-code",),
                   help="the agent's hooks (.claude/settings.json) instead of the git hooks")
    p.add_argument("--local", action="store_true",
                   help="with --agent claude-code: .claude/settings.local.json (just you)")


def _recall(p: argparse.ArgumentParser) -> None:
    p.add_argument("query", metavar="QUERY", nargs="?",
                   help="what to recall (with --format claude-code: the prompt on stdin)")
    p.add_argument("--max", type=_whole(1, 1000), metavar="N", help="at most N records (memory.maxRecall)")
    p.add_argument("--backend", choices=("file", "sqlite"), help="default: memory.backend")
    p.add_argument("--docs", nargs="+", metavar="PATH", default=[],
                   help="documentation files a brief would otherwise include")
    p.add_argument("--format", choices=("text", "json", "claude-code"), default="text",
                   help="claude-code: Claude Code's UserPromptSubmit hook (its JSON on stdin)")


def _forget(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID")


def _promotions(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("list", "accept", "reject"))
    p.add_argument("id", nargs="?", metavar="ID")


def _learnings(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("list", "promote", "reject", "revoke"))
    p.add_argument("--ids", nargs="+", metavar="ID", default=[])
    p.add_argument("--by", choices=("human",), help="who acts (recorded with the action)")


def _merge_driver(p: argparse.ArgumentParser) -> None:
    p.add_argument("ancestor")
    p.add_argument("current")
    p.add_argument("other")


COMMANDS: dict[str, tuple[str, Adder]] = {
    "init": ("create the MEMORY.md region and .chord/config.yaml", _none),
    "check": ("check MEMORY.md and the records", _check),
    "scan": ("scan files or stdin for secrets", _scan),
    "summary": ("print the bounded summary a new session loads", _summary),
    "extract": ("one extraction run over finished, unprocessed sessions", _extract),
    "status": ("MEMORY, MEMORY-FAIL: <reason>, or nothing when disabled", _status),
    "hook": ("what the git hooks call; decides at once and exits 0", _hook),
    "install": ("install the git hooks and the merge driver (without pre-commit), or an agent's hooks",
                _agent),
    "uninstall": ("remove the git hooks and restore what was there, or an agent's hooks", _agent),
    "recall": ("the records most relevant to a query", _recall),
    "forget": ("remove a record's line from the index (the file stays)", _forget),
    "promotions": ("promotion suggestions waiting for review", _promotions),
    "learnings": ("lessons seen in sessions, and promoting them to decisions", _learnings),
    "merge-driver": ("git merge driver for MEMORY.md (%%O %%A %%B)", _merge_driver),
    "mcp": ("an MCP server over stdio: read-only recall, summary, status, record (extra: [mcp])",
            _none),
}


def _invoked(argv: Sequence[str]) -> str | None:
    """The command named in argv, when it is one (skipping `-C DIR`)."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "-C":
            skip = True
        elif not arg.startswith("-"):
            return arg if arg in COMMANDS else None
    return None


def _parser(only: str | None) -> argparse.ArgumentParser:
    import argparse

    from chord_memory import __version__

    formatter = _formatter()
    parser = argparse.ArgumentParser(
        prog="chord-memory",
        description="Project memory for coding agents, kept in the repository.",
        formatter_class=formatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("-C", dest="directory", metavar="DIR",
                        help="run as if started in DIR (like git -C)")
    # prog given: argparse would otherwise build a help formatter (and import shutil) now
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", prog="chord-memory")
    sub.required = True
    for name, (help_text, add) in COMMANDS.items():
        if only is None or name == only:
            add(sub.add_parser(name, help=help_text, formatter_class=formatter))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    fixed = AGENT_HOOKS.get(tuple(argv))
    try:
        args = Args(fixed) if fixed is not None else _parser(_invoked(argv)).parse_args(argv)
    except SystemExit as e:  # argparse exits 2 on usage errors, 0 on --help
        return int(e.code or 0)
    try:
        if args.directory:
            os.chdir(args.directory)
        name = args.command.replace("-", "_")
        module = __import__(f"chord_memory.commands.{name}", fromlist=["run"])
        return int(module.run(args))
    except errors.UserError as e:
        print(f"chord-memory: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as e:  # the file system said no: a directory, a read-only .git, a full disk
        print(f"chord-memory: {errors.os_error(e)}", file=sys.stderr)
        return errors.USAGE
    except Exception as e:
        from chord_memory import crashlog

        path = crashlog.log_crash()
        where = f"details are in {path}" if path else "the crash log could not be written either"
        print(f"chord-memory: unexpected failure ({type(e).__name__}); {where}; please report it.",
              file=sys.stderr)
        return errors.CRASH


if __name__ == "__main__":
    raise SystemExit(main())
