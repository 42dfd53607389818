"""An endpoint's answer is read up to a cap, never whole: real HTTP on 127.0.0.1, bodies streamed."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from chord_memory.cli import main
from tests.model.helpers import GOOD, configure, endpoint, nothing_written, record_files, session, status
from tests.model.server import JSON, Answer, ChatServer, completion, padded

A, B = "model-a", "model-b"
MiB = 1 << 20
CAP = 4 * MiB  # the most of an answer that is read (docs/security.md)
OFFERED = 64 * MiB
# What the server manages to write after the client stopped reading: the client's read plus what
# the loopback socket buffers hold (about 5 MiB here); far below what was offered.
READ_AT_MOST = 24 * MiB


def _log(repo: Path) -> str:
    return (repo / ".git/chord-memory/extract.log").read_text()


@pytest.mark.parametrize("how", ["chunked", "declared", "gzip"])
def test_an_answer_past_the_cap_is_resampled_on_the_next_model_and_not_read_on(
    repo: Path, chat: ChatServer, how: str,
) -> None:
    configure(repo, {"main": [endpoint(chat.base_url, A), endpoint(chat.base_url, B)]})
    session(repo)
    chat.push(padded(GOOD, OFFERED, declared=how == "declared", gzip=how == "gzip"))
    chat.default = completion(GOOD)
    started = time.monotonic()
    assert main(["extract"]) == 0
    assert time.monotonic() - started < 5
    assert [r.model for r in chat.requests] == [A, B]
    assert f"model {A} failed: the answer is over 4 MiB, more than a valid reply can be" in _log(repo)
    assert len(record_files(repo)) == 1
    if how != "gzip":  # a gzip body of 64 MiB of spaces is small: all of it is sent at once
        assert chat.sent[0] < READ_AT_MOST, chat.sent


@pytest.mark.parametrize("declared", [False, True])
@pytest.mark.parametrize(("size", "kept"), [(CAP, True), (CAP + 1, False)])
def test_the_cap_is_exact(repo: Path, chat: ChatServer, capsys: pytest.CaptureFixture[str],
                          declared: bool, size: int, kept: bool) -> None:
    configure(repo, {"main": [endpoint(chat.base_url, A)]})
    session(repo)
    chat.default = padded(GOOD, size, declared=declared)
    assert main(["extract"]) == (0 if kept else 1)
    line = status(capsys)
    if kept:
        assert line == "MEMORY" and len(record_files(repo)) == 1
    else:
        assert line == (f"MEMORY-FAIL: no model of pool 'main' gave a usable reply ({A}: the answer is "
                        "over 4 MiB, more than a valid reply can be); it is tried again on the next run")
        nothing_written(repo)


def test_a_compressed_valid_answer_is_inflated(repo: Path, chat: ChatServer) -> None:
    configure(repo, {"main": [endpoint(chat.base_url, A)]})
    session(repo)
    chat.default = padded(GOOD, 3 * MiB, gzip=True)
    assert main(["extract"]) == 0
    assert len(record_files(repo)) == 1
    assert all(r.headers["Accept-Encoding"] == "identity" for r in chat.requests)


@pytest.mark.parametrize(("answer", "says"), [
    (Answer(200, b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\xff" * 16,
            (*JSON, ("Content-Encoding", "gzip"))), "the answer's gzip or deflate body does not inflate"),
    (Answer(200, zlib.compress(GOOD.encode())[:-8], (*JSON, ("Content-Encoding", "deflate"))),
     "the answer's gzip or deflate body does not inflate"),
    (Answer(200, b"...", (*JSON, ("Content-Encoding", "br"))), "the answer is encoded as 'br'"),
])
def test_a_body_that_does_not_decode_fails_the_model(repo: Path, chat: ChatServer, answer: Answer,
                                                     says: str) -> None:
    configure(repo, {"main": [endpoint(chat.base_url, A), endpoint(chat.base_url, B)]})
    session(repo)
    chat.push(answer)
    chat.default = completion(GOOD)
    assert main(["extract"]) == 0
    assert f"model {A} failed: {says}" in _log(repo)
    assert len(record_files(repo)) == 1


def test_an_error_answer_is_read_no_further_than_its_message(
    repo: Path, chat: ChatServer, capsys: pytest.CaptureFixture[str],
) -> None:
    message = json.dumps({"error": {"message": "upstream overloaded"}}).encode()

    def spaces() -> list[bytes]:
        return [b" " * MiB] * (OFFERED // MiB)

    configure(repo, {"main": [endpoint(chat.base_url, A), endpoint(chat.base_url, B)]})
    session(repo)
    chat.default = Answer(500, message, JSON, 0.0, lambda: iter(spaces()))
    assert main(["extract"]) == 1
    assert "HTTP 500: upstream overloaded after 3 tries" in status(capsys)
    assert len(chat.sent) == 6 and max(chat.sent) < READ_AT_MOST, chat.sent
    nothing_written(repo)


# A child that runs `chord-memory extract` and reports its own peak resident set size: VmHWM,
# since ru_maxrss keeps the high-water mark of the process that forked it (here, pytest, which
# grows as the suite runs) across exec.
_PEAK = """
import sys
from chord_memory.cli import main
code = main(["extract"])
with open("/proc/self/status") as f:
    peak = next(int(x.split()[1]) for x in f if x.startswith("VmHWM:"))
print("peak-kib", peak, file=sys.stderr)
raise SystemExit(code)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc for the peak memory")
def test_a_huge_answer_leaves_the_memory_of_a_run_bounded(repo: Path, chat: ChatServer) -> None:
    """A real `chord-memory extract` process; its peak resident memory, as the kernel counts it."""
    configure(repo, {"memory": [endpoint(chat.base_url, A)]}, model_pool="memory")
    session(repo)
    chat.default = padded(GOOD, 512 * MiB)
    started = time.monotonic()
    child = subprocess.run([sys.executable, "-c", _PEAK], cwd=repo, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    err, _, last = child.stderr.rstrip("\n").rpartition("\n")
    peak = int(last.split()[1]) * 1024
    assert child.returncode == 1 and "the answer is over 4 MiB" in err, err
    assert peak < 160 * MiB, f"{peak / MiB:.0f} MiB"  # about 55 MiB; the body whole was 512 MiB
    assert time.monotonic() - started < 10
    nothing_written(repo)
