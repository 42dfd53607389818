"""Faults of an OpenAI-compatible server, survived or reported: real HTTP on 127.0.0.1."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from chord_memory.cli import main
from chord_memory.extract import model
from tests.model.helpers import (
    EMPTY,
    GOOD,
    configure,
    endpoint,
    ledger,
    nothing_written,
    record_files,
    session,
    status,
)
from tests.model.server import Answer, ChatServer, Script, completion, dead_url, error, padded

A, B = "model-a", "model-b"
SCHEMA, OBJECT, PROMPT = "json_schema", "json_object", "prompt_only"
FORMAT_500 = error(500, "Internal error: response_format of type json_schema is not supported")


def _pool(chat: ChatServer, timeout: float = 5) -> list[dict[str, Any]]:
    return [endpoint(chat.base_url, A, timeout=timeout), endpoint(chat.base_url, B, timeout=timeout)]


def _seen(chat: ChatServer) -> list[tuple[str, str]]:
    return [(r.model, r.dialect) for r in chat.requests]


def _refuse_formats(body: dict[str, Any]) -> Answer:
    if "response_format" in body:
        return error(400, f"'response_format' of type {body['response_format']['type']} is unsupported")
    return completion("Sure! Here are the memories: none.")


def _format_500(body: dict[str, Any]) -> Answer:
    return FORMAT_500 if "response_format" in body else error(500, "internal error")


# Each fault on every request: the right retries, fallbacks and resamples, then MEMORY-FAIL.
FAILS: dict[str, tuple[Script, float, list[tuple[str, str]], str]] = {
    "500": (error(500, "upstream overloaded"), 5, [(A, SCHEMA)] * 3 + [(B, SCHEMA)] * 3,
            "HTTP 500: upstream overloaded after 3 tries"),
    "429-retry-after": (error(429, "rate limited", {"Retry-After": "30"}), 5,
                        [(A, SCHEMA)] * 3 + [(B, SCHEMA)] * 3, "HTTP 429"),
    "slower-than-timeout": (completion(GOOD, delay=1.0), 0.3, [(A, SCHEMA), (B, SCHEMA)],
                            "no answer within 0.3 s"),
    "invalid-json": (completion('{"records": [}'), 5, [(A, SCHEMA), (B, SCHEMA)],
                     "holds no valid JSON object"),
    "not-json-at-all": (completion("I could not find anything."), 5, [(A, SCHEMA), (B, SCHEMA)],
                        "not valid JSON"),
    "unknown-field": (completion(json.dumps({"records": [], "colour": "blue"})), 5,
                      [(A, SCHEMA), (B, SCHEMA)], "colour: unknown field"),
    "non-object": (completion("[1, 2, 3]"), 5, [(A, SCHEMA), (B, SCHEMA)], "a JSON list, not an object"),
    "finish-length": (completion(GOOD, finish="length"), 5, [(A, SCHEMA), (B, SCHEMA)],
                      "finish_reason: length"),
    "over-the-cap": (padded(GOOD, 16 << 20), 5, [(A, SCHEMA), (B, SCHEMA)],
                     "the answer is over 4 MiB, more than a valid reply can be"),
    "formats-refused": (_refuse_formats, 5,
                        [(A, SCHEMA), (A, OBJECT), (A, PROMPT), (B, SCHEMA), (B, OBJECT), (B, PROMPT)],
                        "not valid JSON"),
    "format-500": (_format_500, 5,
                   [(A, SCHEMA), (A, OBJECT), *[(A, PROMPT)] * 3,
                    (B, SCHEMA), (B, OBJECT), *[(B, PROMPT)] * 3],
                   "HTTP 500: internal error after 3 tries"),
}


@pytest.mark.parametrize("fault", FAILS)
def test_fault_fails_writes_nothing_and_a_later_good_reply_clears_it(
    repo: Path, chat: ChatServer, capsys: pytest.CaptureFixture[str], fault: str,
) -> None:
    answer, timeout, expected, reason = FAILS[fault]
    configure(repo, {"main": _pool(chat, timeout)})
    session(repo)
    chat.default = answer
    started = time.monotonic()
    assert main(["extract"]) == 1
    assert time.monotonic() - started < 5
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and reason in err, err
    assert _seen(chat) == expected
    nothing_written(repo)
    line = status(capsys)
    assert line.startswith("MEMORY-FAIL: no model of pool 'main' gave a usable reply") and reason in line

    chat.default = completion(GOOD)
    assert main(["extract"]) == 0
    assert len(record_files(repo)) == 1 and "make lint" in (repo / "MEMORY.md").read_text()
    assert len(ledger(repo)) == 1
    assert status(capsys) == "MEMORY"


# One fault, then a good answer: survived within the run.
SURVIVED: dict[str, tuple[list[Script], float, list[tuple[str, str]]]] = {
    "500-retried": ([error(502, "bad gateway")], 5, [(A, SCHEMA), (A, SCHEMA)]),
    "429-retried": ([error(429, "slow down", {"Retry-After": "0"})], 5, [(A, SCHEMA), (A, SCHEMA)]),
    "slow-next-model": ([completion(GOOD, delay=1.0)], 0.3, [(A, SCHEMA), (B, SCHEMA)]),
    "invalid-json-resampled": ([completion("{nope")], 5, [(A, SCHEMA), (B, SCHEMA)]),
    "unknown-field-resampled": ([completion(json.dumps({"records": [], "extra": 1}))], 5,
                                [(A, SCHEMA), (B, SCHEMA)]),
    "non-object-resampled": ([completion('"just a string"')], 5, [(A, SCHEMA), (B, SCHEMA)]),
    "length-resampled": ([completion(GOOD[:40], finish="length")], 5, [(A, SCHEMA), (B, SCHEMA)]),
    "over-the-cap-resampled": ([padded(GOOD, 16 << 20, declared=True)], 5, [(A, SCHEMA), (B, SCHEMA)]),
    "code-fenced": ([completion(f"Here is the reply:\n```json\n{GOOD}\n```\nDone.")], 5, [(A, SCHEMA)]),
    "format-500-falls-back": ([FORMAT_500], 5, [(A, SCHEMA), (A, OBJECT)]),
    "formats-400-fall-back-twice": ([error(422, "json_schema unsupported"),
                                     error(400, "response_format json_object unsupported")], 5,
                                    [(A, SCHEMA), (A, OBJECT), (A, PROMPT)]),
}


@pytest.mark.parametrize("case", SURVIVED)
def test_fault_survived(repo: Path, chat: ChatServer, capsys: pytest.CaptureFixture[str],
                        case: str) -> None:
    script, timeout, expected = SURVIVED[case]
    configure(repo, {"main": _pool(chat, timeout)})
    s = session(repo)
    chat.push(*script)
    chat.default = completion(GOOD)
    assert main(["extract"]) == 0
    assert _seen(chat) == expected
    recs = record_files(repo)
    assert len(recs) == 1
    (text,) = recs.values()
    assert f"session: claude-code:{s.sid} prompt:v1\n" in text
    assert status(capsys) == "MEMORY"


def test_dialects_ask_for_the_shape_each_in_its_way(repo: Path, chat: ChatServer) -> None:
    configure(repo, {"main": [endpoint(chat.base_url, A)]})
    session(repo)
    chat.push(error(400, "json_schema unsupported"), error(400, "json_object unsupported"))
    chat.default = completion(EMPTY)
    assert main(["extract"]) == 0
    schema_req, object_req, prompt_req = (r.body for r in chat.requests)
    fmt = schema_req["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "memory_reply"
    assert fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["records", "retire", "promotions", "learnings"]
    record = schema["properties"]["records"]["items"]
    assert set(record["required"]) == set(record["properties"]) and "$ref" not in json.dumps(schema)
    assert object_req["response_format"] == {"type": "json_object"}
    assert "response_format" not in prompt_req
    assert "JSON schema" not in schema_req["messages"][0]["content"]
    assert '"memory_reply"' not in prompt_req["messages"][0]["content"]
    assert '"additionalProperties":false' in prompt_req["messages"][0]["content"]
    for body in (schema_req, object_req, prompt_req):
        assert body["model"] == A and body["stream"] is False
        assert [m["role"] for m in body["messages"]] == ["system", "user"]


def test_connection_refused_is_retried_then_the_next_model_answers(
    repo: Path, chat: ChatServer, capsys: pytest.CaptureFixture[str],
) -> None:
    dead = dead_url()
    configure(repo, {"main": [endpoint(dead, A), endpoint(chat.base_url, B)]})
    session(repo)
    chat.default = completion(GOOD)
    assert main(["extract"]) == 0
    assert _seen(chat) == [(B, SCHEMA)] and len(record_files(repo)) == 1
    assert "could not reach the endpoint (ConnectError) after 3 tries" in \
        (repo / ".git/chord-memory/extract.log").read_text()


def test_connection_refused_everywhere_fails_then_recovers(
    repo: Path, chat: ChatServer, capsys: pytest.CaptureFixture[str],
) -> None:
    configure(repo, {"main": [endpoint(dead_url(), A), endpoint(dead_url(), B)]})
    session(repo)
    assert main(["extract"]) == 1
    assert "could not reach the endpoint" in status(capsys)
    nothing_written(repo)
    configure(repo, {"main": [endpoint(chat.base_url, A)]})
    chat.default = completion(GOOD)
    assert main(["extract"]) == 0
    assert status(capsys) == "MEMORY" and len(record_files(repo)) == 1
    assert main(["check"]) == 0, capsys.readouterr().out  # the record and its origin pass check


def test_retry_after_is_honoured_up_to_the_cap(
    repo: Path, chat: ChatServer, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(model, "DEFAULT", model.DEFAULT._replace(retry_after_cap=0.6))
    configure(repo, {"main": [endpoint(chat.base_url, A)]})
    session(repo)
    chat.push(error(429, "wait", {"Retry-After": "0.4"}), error(503, "wait", {"Retry-After": "3600"}))
    chat.default = completion(GOOD)
    started = time.monotonic()
    assert main(["extract"]) == 0
    elapsed = time.monotonic() - started
    assert 1.0 <= elapsed < 3, elapsed  # 0.4 s as asked, then 3600 s capped at 0.6 s
    assert _seen(chat) == [(A, SCHEMA)] * 3


def test_the_key_is_sent_as_a_bearer_token_and_never_shown(
    repo: Path, chat: ChatServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.helpers import everything_written

    key = "sk-proj-" + "Q7x" * 16
    monkeypatch.setenv("CM_TEST_KEY", key)
    configure(repo, {"main": [endpoint(chat.base_url, A, api_key_env="CM_TEST_KEY"),
                              endpoint(chat.base_url, B, api_key_env="CM_TEST_KEY")]})
    session(repo)
    chat.default = error(401, f"Incorrect API key provided: {key}")
    assert main(["extract"]) == 1
    out = capsys.readouterr()
    assert all(r.headers["Authorization"] == f"Bearer {key}" for r in chat.requests)
    assert len(chat.requests) == 2  # a refused key is not retried
    line = status(capsys)
    assert "HTTP 401" in line and "api_key_env" in line
    for text in (out.out, out.err, line, everything_written(repo)):
        assert key not in text and key[8:24] not in text
    assert key not in "".join(r.raw.decode() for r in chat.requests)


def test_a_missing_key_variable_fails_without_a_request(
    repo: Path, chat: ChatServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CM_TEST_KEY", raising=False)
    configure(repo, {"main": [endpoint(chat.base_url, A, api_key_env="CM_TEST_KEY")]})
    session(repo)
    assert main(["extract"]) == 1
    assert "the environment variable CM_TEST_KEY is not set" in status(capsys)
    assert chat.requests == []
    nothing_written(repo)


@pytest.mark.parametrize(("pools", "model_pool", "says"), [
    ({}, None, "pool 'main', which memory.pools does not define"),
    ({"main": []}, None, "pool 'main', which memory.pools does not define (or is empty)"),
    ({"main": [endpoint("http://127.0.0.1:9/v1")], "local": []}, "local",
     "memory.model_pool names pool 'local'"),
])
def test_a_pool_that_is_not_there_is_a_setup_failure(
    repo: Path, capsys: pytest.CaptureFixture[str], pools: dict[str, Any], model_pool: str | None,
    says: str,
) -> None:
    configure(repo, pools, model_pool)
    session(repo)
    assert main(["extract"]) == 1
    assert says in status(capsys)
    nothing_written(repo)


def test_a_model_pool_no_pool_defines_is_a_configuration_error(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(repo, {"main": [endpoint("http://127.0.0.1:9/v1")]}, "local")
    session(repo)
    assert main(["extract"]) == 2
    assert "memory.model_pool: no pool 'local' in memory.pools (pools: main)" in capsys.readouterr().err
    nothing_written(repo)


ODD: dict[str, tuple[Answer, str]] = {
    "html-200": (Answer(200, b"<html>proxy login</html>", (("Content-Type", "text/html"),)),
                 "the answer is not JSON"),
    "no-choices": (Answer(200, b'{"object": "list", "data": []}'), "the answer has no choices[0].message"),
    "refusal": (Answer(200, json.dumps({"choices": [{"finish_reason": "stop", "message": {
        "role": "assistant", "content": None, "refusal": "I cannot help."}}]}).encode()),
                "the model refused"),
    "empty-content": (completion(""), "the reply is empty"),
    "html-404": (Answer(404, b"<html><body>Not Found</body></html>"), "HTTP 404: <html><body>Not Found"),
}


@pytest.mark.parametrize("case", ODD)
def test_odd_answers_fail_the_model_and_the_next_one_answers(
    repo: Path, chat: ChatServer, case: str,
) -> None:
    answer, says = ODD[case]
    configure(repo, {"main": _pool(chat)})
    session(repo)
    chat.push(answer)
    chat.default = completion(GOOD)
    assert main(["extract"]) == 0
    assert _seen(chat) == [(A, SCHEMA), (B, SCHEMA)] and len(record_files(repo)) == 1
    assert f"model {A} failed: {says}" in (repo / ".git/chord-memory/extract.log").read_text()


def test_content_parts_are_joined(repo: Path, chat: ChatServer) -> None:
    configure(repo, {"main": _pool(chat)})
    session(repo)
    half = len(GOOD) // 2
    parts = [{"type": "text", "text": GOOD[:half]}, {"type": "text", "text": GOOD[half:]}]
    chat.default = Answer(200, json.dumps({"choices": [{"finish_reason": "stop", "message": {
        "role": "assistant", "content": parts}}]}).encode())
    assert main(["extract"]) == 0
    assert _seen(chat) == [(A, SCHEMA)] and len(record_files(repo)) == 1
