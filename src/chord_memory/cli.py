"""Argument parsing and dispatch only: each command lives in commands/<name>.py.

Command modules are imported when their command runs, so a hook pays only for
what it uses.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from chord_memory import errors


def _parser() -> argparse.ArgumentParser:
    from chord_memory import __version__

    parser = argparse.ArgumentParser(
        prog="chord-memory",
        description="Project memory for coding agents, kept in the repository.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "-C", dest="directory", metavar="DIR",
        help="run as if started in DIR (like git -C)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("init", help="create the MEMORY.md region and .chord/config.yaml")
    del p

    p = sub.add_parser("check", help="check MEMORY.md and the records")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--all", dest="mode", action="store_const", const="all",
                      help="check the working tree (the default)")
    mode.add_argument("--staged", dest="mode", action="store_const", const="staged",
                      help="check what is staged for the next commit (the hooks use this)")
    p.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="report findings for these files only (the whole memory is still read)")

    p = sub.add_parser("scan", help="scan files or stdin for secrets")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--staged", action="store_true",
                   help="scan the staged memory files (the secrets hook uses this)")
    p.add_argument("--detect-secrets", action="store_true",
                   help="also run detect-secrets' plugins (slower; see docs/secrets.md)")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files to scan; '-' reads stdin")

    p = sub.add_parser("summary", help="print the bounded summary a new session loads")
    p.add_argument("--budget", type=_positive_int, metavar="N",
                   help="characters at most, preamble included (default: memory.injection_budget)")
    p.add_argument("--format", choices=("text", "json", "claude-code"), default="text")

    p = sub.add_parser("extract", help="one extraction run over finished, unprocessed sessions")
    p.add_argument("--foreground", action="store_true",
                   help="run in this process (the hooks start it in the background)")
    p.add_argument("--dry-run", action="store_true",
                   help="print what would be written; write nothing, send nothing")

    p = sub.add_parser("status", help="MEMORY, MEMORY-FAIL: <reason>, or nothing when disabled")
    p.add_argument("--short", action="store_true", help="the indicator alone, for a status line")

    p = sub.add_parser("hook", help="what the git hooks call; decides at once and exits 0")
    p.add_argument("event", choices=("post-commit", "post-checkout", "post-merge", "post-rewrite"))
    p.add_argument("hook_args", nargs="*", metavar="ARG", help="the arguments git gave the hook")

    p = sub.add_parser("install", help="install the git hooks (for repositories without pre-commit)")
    p.add_argument("--git-hooks", action="store_true", help="write the git hooks (the default)")
    sub.add_parser("uninstall", help="remove the git hooks and restore what was there")

    p = sub.add_parser("recall", help="the records most relevant to a query")
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--max", type=_positive_int, metavar="N", help="at most N records (memory.maxRecall)")
    p.add_argument("--backend", choices=("file", "sqlite"), help="default: memory.backend")
    p.add_argument("--docs", nargs="+", metavar="PATH", default=[],
                   help="documentation files a brief would otherwise include")
    p.add_argument("--format", choices=("text", "json"), default="text")

    p = sub.add_parser("forget", help="remove a record's line from the index (the file stays)")
    p.add_argument("id", metavar="ID")

    p = sub.add_parser("promotions", help="promotion suggestions waiting for review")
    p.add_argument("action", choices=("list", "accept", "reject"))
    p.add_argument("id", nargs="?", metavar="ID")

    p = sub.add_parser("learnings", help="lessons seen in sessions, and promoting them to decisions")
    p.add_argument("action", choices=("list", "promote", "reject", "revoke"))
    p.add_argument("--ids", nargs="+", metavar="ID", default=[])
    p.add_argument("--by", choices=("human",), help="who acts (recorded with the action)")

    p = sub.add_parser("merge-driver", help="git merge driver for MEMORY.md (%%O %%A %%B)")
    p.add_argument("ancestor")
    p.add_argument("current")
    p.add_argument("other")
    return parser


def _positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if number <= 0:
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {value}")
    return number


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
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
    except Exception as e:
        path = errors.log_crash(None)
        print(
            f"chord-memory: unexpected failure ({type(e).__name__}); "
            f"details are in {path}; please report it.",
            file=sys.stderr,
        )
        return errors.CRASH


if __name__ == "__main__":
    raise SystemExit(main())
