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
        module = __import__(f"chord_memory.commands.{args.command}", fromlist=["run"])
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
