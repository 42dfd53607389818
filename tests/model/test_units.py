"""The pure parts of the model path: reply parsing, the prompt, the schema, Retry-After."""
from __future__ import annotations

import email.utils
import json
import random
import time
from typing import Any

import pytest

from chord_memory.extract import plan
from chord_memory.extract.model import client, parse, prompt
from tests.helpers import secrets
from tests.model.helpers import GOOD, RECORD


@pytest.mark.parametrize("text", [
    GOOD,
    f"```json\n{GOOD}\n```",
    f"```\n{GOOD}```",
    f"Sure, here it is:\n\n```JSON\n{GOOD}\n```\n\nLet me know.",
    f"<think>The user wants {{records}}; let me think.</think>\n{GOOD}",
    f"Here is the object: {GOOD} -- and a stray }} after it.",
    f"{{not this}} but {GOOD}",
])
def test_the_outermost_object_is_found(text: str) -> None:
    got = parse.reply(text)
    assert got.records[0].summary == RECORD["summary"]


@pytest.mark.parametrize(("text", "says"), [
    ("", "the reply is empty"),
    ("   \n", "the reply is empty"),
    ("no json here", "the reply is not valid JSON"),
    ('{"records": [', "holds no valid JSON object"),
    ("[]", "a JSON list, not an object"),
    ('"text"', "a JSON str, not an object"),
    ("null", "a JSON NoneType, not an object"),
    ('{"records": [], "mood": "fine"}', "mood: unknown field"),
    ('{"records": [{"type": "fact"}]}', "records.0.source: Field required"),
    (json.dumps({"records": [{**RECORD, "source": "assistant", "status": "verified"}]}),
     "an assistant statement is never verified"),
    ('{"retire": [{"id": "Not An Id", "reason": "x"}]}', "retire.0.id"),
])
def test_a_bad_reply_says_why_in_one_line(text: str, says: str) -> None:
    with pytest.raises(parse.BadReply) as e:
        parse.reply(text)
    assert says in str(e.value) and "\n" not in str(e.value)


def test_a_long_text_is_cut_in_the_middle_with_a_marker() -> None:
    text = "\n".join(f"line {i:05d} " + "x" * 40 for i in range(2000))
    cut = prompt.bounded(text, 10_000, "transcript")
    assert cut.startswith("line 00000") and cut.endswith(text[-40:])
    assert "characters of the transcript left out here ...]" in cut
    assert 9_000 < len(cut) < 10_200
    head, _, tail = cut.partition("\n[... ")
    assert len(head) < len(tail.partition("...]\n")[2])  # more of the end than of the start
    assert prompt.bounded("short", 10, "x") == "short"


def test_secrets_are_scrubbed_before_the_cut() -> None:
    values = secrets(random.Random(3))
    filler = "word " * 3000
    turns = [("user", f"{filler} token {v} {filler}") for v in values[:9]]
    turns.append(("history", f"{filler} the staging db password is {values[9]} and {filler}"))
    turns += [("tool", f"never {values[0]}"), ("assistant", f"I used {values[1]}")]
    for limit in (500, 4_000, 40_000):
        text = prompt.transcript(turns, limit)
        for v in values:
            for i in range(0, len(v) - 12):
                assert v[i:i + 12] not in text
    assert "[tool]" not in prompt.transcript(turns) and "[assistant] I used [REDACTED:" in \
        prompt.transcript(turns)


def test_the_strict_schema_is_what_strict_mode_accepts() -> None:
    schema = prompt.strict_schema()

    def objects(node: Any) -> list[dict[str, Any]]:
        if isinstance(node, list):
            return [o for x in node for o in objects(x)]
        if not isinstance(node, dict):
            return []
        found = [node] if node.get("type") == "object" else []
        return found + [o for v in node.values() for o in objects(v)]

    assert len(objects(schema)) == 5
    for obj in objects(schema):
        assert obj["additionalProperties"] is False and obj["required"] == list(obj["properties"])
    text = json.dumps(schema)
    for word in ('"$ref"', '"$defs"', '"title"', '"default"', '"minLength"'):
        assert word not in text


def test_the_prompt_is_package_data_with_its_version() -> None:
    mem = plan.Memory([], {}, set())
    build = prompt.extraction("Use tabs.", mem, [("user", "hello")], 123)
    system, user = build("json_schema")
    assert system["role"] == "system" and "$" not in system["content"]
    assert "at most 123 characters" in system["content"]
    assert system["content"].startswith(prompt.text("prompt").split("\n")[0])
    assert "## PROJECT RULES\nUse tabs.\n" in user["content"]
    assert "## MEMORY INDEX\n(empty)\n" in user["content"]
    assert user["content"].endswith("## TRANSCRIPT\n[user] hello\n")
    con = prompt.consolidation("", mem, 4000, 5000, 160)("prompt_only")
    assert "must fit in 4000" in con[0]["content"] and "TRANSCRIPT" not in con[1]["content"]
    assert "JSON schema" in con[0]["content"]


@pytest.mark.parametrize(("value", "low", "high"), [
    ("3", 3, 3), ("0.5", 0.5, 0.5), ("-4", 0, 0), (None, None, None), ("soon", None, None),
    ("date+20", 15, 21), ("date-20", 0, 0),
])
def test_retry_after(value: str | None, low: float | None, high: float | None) -> None:
    if value is not None and value.startswith("date"):
        value = email.utils.formatdate(time.time() + int(value[4:]), usegmt=True)
    got = client.retry_after(value)
    if low is None or high is None:
        assert got is None
    else:
        assert got is not None and low <= got <= high
