"""Sizes. `scan` never reads a memory file over the limit `check` reads,
and scans a named file or stdin of any size in bounded memory; `init` never fails on, nor writes,
a MEMORY.md over the limit our readers accept."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chord_memory import paths, secrets
from chord_memory.cli import main
from chord_memory.commands.scan import CHUNK, MARGIN
from tests.helpers import git
from tests.secrets.examples import OPENSSH, samples

TOKEN = samples()["github-token"]
RECORD = ".chord/memory/records/20261129-use-uv-3f9a1c.md"
FILLER = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.\n"


def filler(size: int) -> bytes:
    return (FILLER * (size // len(FILLER) + 1)).encode()[:size]


def scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = main(["scan", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


@pytest.mark.parametrize("rel, size, code", [
    (RECORD, paths.MAX_RECORD + 1, "CM305"),
    (".chord/memory/promotions/20261129-use-uv-3f9a1c.md", 3 << 20, "CM105"),
    (paths.MEMORY_MD, paths.MAX_MEMORY_MD + 1, "CM105"),
])
@pytest.mark.parametrize("staged", [False, True])
def test_a_memory_file_over_the_limit_is_one_error_and_is_not_read(
    repo: Path, capsys: pytest.CaptureFixture[str], rel: str, size: int, code: str, staged: bool
) -> None:
    """A token past the limit is not looked for: the file is refused by its size (exit 1, so the
    commit is refused), as `check` refuses it, and the message says the size, the limit and
    what to do. Before: it was read and scanned whole, and exit 0 let it through."""
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(filler(size - 60) + f"\nuse {TOKEN}\n".encode().ljust(60, b"."))
    if staged:
        git(repo, "add", "-A")
    exit_code, lines, err = scan(capsys, *(["--staged"] if staged else []))
    limit = paths.MAX_MEMORY_MD if rel == paths.MEMORY_MD else paths.MAX_RECORD
    assert (exit_code, err) == (1, "")
    assert len(lines) == 1 and lines[0].startswith(f"{rel}:1:1: {code} ")
    assert f"{size:,} bytes" in lines[0] and f"{limit:,}" in lines[0]
    assert "remove" in lines[0] or "elsewhere" in lines[0]


def test_a_memory_file_at_the_limit_is_scanned(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = repo / RECORD
    path.parent.mkdir(parents=True)
    path.write_bytes(filler(paths.MAX_RECORD - 60) + f"\nuse {TOKEN}\n".encode().ljust(60, b"."))
    code, lines, _ = scan(capsys)
    assert code == 1 and [line.split(": ")[1].split()[0] for line in lines] == ["CM601"]


# A child that runs one command and reports its own peak resident set size in KiB: VmHWM, since
# ru_maxrss keeps the high-water mark of the process that forked it (here, pytest) across exec.
_PEAK = """
import sys
from chord_memory.cli import main
code = main(sys.argv[1:])
with open("/proc/self/status") as f:
    peak = next(int(x.split()[1]) for x in f if x.startswith("VmHWM:"))
print(code, peak, file=sys.stderr)
"""
BIG = 64 << 20
BOUND_KIB = 128 << 10


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmHWM from /proc")
@pytest.mark.parametrize("stdin", [False, True])
def test_a_big_named_file_or_stdin_is_scanned_whole_in_bounded_memory(repo: Path, stdin: bool) -> None:
    """64 MiB given by hand: the secret on its last line is found, and the process stays under
    128 MiB (before: the file was read and decoded whole, about 5 times its size)."""
    big = repo / "big.log"
    body = filler(BIG) + b"\n"
    lines = body.count(b"\n")
    big.write_bytes(body + f"token {TOKEN}\n".encode())
    with open(big, "rb") as f:
        done = subprocess.run([sys.executable, "-c", _PEAK, "scan", "-" if stdin else "big.log"],
                              cwd=repo, stdin=f if stdin else subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=300)
    code, peak = map(int, done.stderr.split()[-2:])
    name = "-" if stdin else "big.log"
    assert (code, done.stdout) == (1, f"{name}:{lines + 1}:7: CM601 github-token secret (ghp_…)\n")
    assert peak < BOUND_KIB, f"peak RSS {peak} KiB"


def _planted(items: list[tuple[int, str]]) -> str:
    """Filler lines with each (offset, line) starting exactly at its offset."""
    parts, size = [FILLER * 100], 100 * len(FILLER)
    for offset, line in sorted(items):
        gap = offset - size
        assert gap >= 2, "planted lines overlap"
        parts += ["x" * (gap - 1) + "\n", line]
        size = offset + len(line)
    return "".join([*parts, FILLER * 100])


def test_the_chunked_scan_finds_exactly_what_a_whole_scan_finds(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Secrets starting right before, at and after each point where one chunk hands its part
    over to the next, and where a chunk starts and ends; a nextline pragma above a secret at a
    hand-over; a key block across one: the findings, positions included, are those of one scan
    of the whole text."""
    values = [v for v in samples().values() if v.isascii()]
    handover = [(k + 1) * CHUNK - MARGIN for k in range(7)]  # for ASCII text read BLOCK by BLOCK
    items: list[tuple[int, str]] = []
    for k, d in enumerate((-2, -1, 0, 1, 2)):
        for j, edge in enumerate((-MARGIN, 0, MARGIN)):  # chunk start, hand-over, chunk end
            value = values[(3 * k + j) * 7 % len(values)]
            items.append((handover[k] + edge + d - len("key = "), f"key = {value}\n"))
    pragma = "# pragma: allowlist nextline secret\n"
    items.append((handover[5] - len(pragma) - len("secret "), f"{pragma}secret {TOKEN}\n"))
    items.append((handover[6] - len(OPENSSH) // 2, OPENSSH + "\n"))
    text = _planted(items)
    (repo / "big.md").write_text(text)
    expected = sorted((f.line, f.column, f.end_line, f.end_column, f.kind) for f in secrets.scan_text(text))
    assert len(expected) >= 15
    code = main(["scan", "--format", "json", "big.md"])
    found = json.loads(capsys.readouterr().out)["findings"]
    got = sorted((f["line"], f["column"], f["end_line"], f["end_column"], f["kind"]) for f in found)
    assert code == 1 and got == expected


def test_a_non_utf8_byte_past_the_first_block_is_still_a_usage_error(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "late.md").write_bytes(filler(3 << 20) + "caf\xe9\n".encode("latin-1"))
    code, lines, err = scan(capsys, "late.md")
    assert (code, lines) == (2, []) and err.count("\n") == 1 and "not UTF-8 text" in err


def test_a_character_split_between_blocks_is_decoded_whole(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = filler((1 << 20) - 1) + "é\n".encode() + f"x {TOKEN}\n".encode()  # é across the block
    (repo / "split.md").write_bytes(body)
    code, lines, _ = scan(capsys, "split.md")
    line = body.count(b"\n")
    assert code == 1 and lines == [f"split.md:{line}:3: CM601 github-token secret (ghp_…)"]


# --- init (point 8) ---------------------------------------------------------------------------

def test_init_on_a_memory_md_over_the_read_limit_is_a_one_line_usage_error(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: exit 3 (the first 8 MiB were taken for the file, which then "changed")."""
    body = filler(9 << 20)
    (repo / "MEMORY.md").write_bytes(body)
    assert main(["init"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert f"{9 << 20:,} bytes" in err and f"{paths.MAX_MEMORY_MD:,}" in err and "nothing was written" in err
    assert (repo / "MEMORY.md").read_bytes() == body and not (repo / ".chord").exists()


def test_init_never_writes_a_memory_md_its_own_readers_refuse(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A MEMORY.md just under the limit: appending the region would take it over, to a file
    `summary` and `check` refuse. Before: init wrote it and said so."""
    body = filler(paths.MAX_MEMORY_MD - 10)
    (repo / "MEMORY.md").write_bytes(body)
    assert main(["init"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "with the managed region it would be" in err
    assert (repo / "MEMORY.md").read_bytes() == body
    assert main(["summary"]) == 0


def test_init_appends_the_region_when_the_result_fits(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = filler(paths.MAX_MEMORY_MD - 4096)
    (repo / "MEMORY.md").write_bytes(body)
    assert main(["init"]) == 0
    written = (repo / "MEMORY.md").read_bytes()
    assert written.startswith(body) and len(written) <= paths.MAX_MEMORY_MD
    capsys.readouterr()
    assert main(["check"]) == 0, capsys.readouterr().out
