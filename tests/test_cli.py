from __future__ import annotations

from pathlib import Path

import pytest

from chord_memory import cli
from chord_memory.commands import init

TOKEN = "ghp_" + "Zx81Lm20Qp39Rt47Uv56Wy65Ab74Cd83Ef92"


def test_an_unexpected_failure_exits_3_with_a_scrubbed_log(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    def broken(args: object) -> int:
        raise ValueError(f"cannot handle {TOKEN}")

    monkeypatch.setattr(init, "run", broken)
    assert cli.main(["init"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ValueError" in err and "crash.log" in err
    assert TOKEN not in err
    log = (repo / ".git/chord-memory/crash.log").read_text()
    assert "Traceback" in log and TOKEN not in log and "[REDACTED:" in log


def test_only_the_invoked_command_is_declared(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli._invoked(["-C", "x", "check", "--all"]) == "check"
    assert cli._invoked(["--version"]) is None
    assert cli.main(["--help"]) == 0
    assert "merge-driver" in capsys.readouterr().out


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["summary", "--budget", "0"]) == 2
    assert "from 200 to" in capsys.readouterr().err
    assert cli.main(["recall", "x", "--max", "9223372036854775807"]) == 2  # sqlite's integers end there
    assert "from 1 to 1,000" in capsys.readouterr().err
    assert cli.main(["summary", "--budget", "x"]) == 2


@pytest.mark.parametrize("argv", sorted(cli.AGENT_HOOKS))
def test_an_agent_hook_command_line_is_what_argparse_makes_of_it(argv: tuple[str, ...]) -> None:
    """The agent hooks skip argparse for speed; what they get must not differ by one attribute."""
    parsed = cli._parser(cli._invoked(argv)).parse_args(argv)
    assert vars(cli.Args(cli.AGENT_HOOKS[argv])) == vars(parsed)


def test_the_agent_hook_command_lines_are_those_install_writes() -> None:
    from chord_memory.agents import claude_code

    written = {h.command for h in claude_code.HOOKS} | {claude_code.STATUS_LINE["command"]}
    assert written == {"chord-memory " + " ".join(argv) for argv in cli.AGENT_HOOKS}
