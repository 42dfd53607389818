"""From the text a model answered to a strictly validated Reply, or one line saying why not.

Servers differ in what they do with `response_format` (some ignore it), so
the text is always parsed here: a reasoning block and code fences are
stripped, the outermost JSON object is taken, and it is validated with the
Reply model (unknown fields rejected).
"""
from __future__ import annotations

import json
import re

from chord_memory.extract.reply import Reply

MAX_TEXT = 200_000   # characters of a reply looked at
MAX_STARTS = 64      # '{' positions tried when prose surrounds the object

_THINK = re.compile(r"<think>.*?</think>", re.S)
_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n(.*?)\n?```", re.S)


class BadReply(Exception):
    """The reply cannot be used; str() is one line without any of the reply's text."""


def _unwrapped(content: str) -> str:
    content = _THINK.sub("", content[:MAX_TEXT]).strip()
    fenced = _FENCE.search(content)
    return fenced.group(1).strip() if fenced else content


def outermost_object(content: str) -> dict[str, object]:
    text = _unwrapped(content)
    if not text:
        raise BadReply("the reply is empty")
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    else:
        if isinstance(whole, dict):
            return whole
        raise BadReply(f"the reply is a JSON {type(whole).__name__}, not an object")
    decoder = json.JSONDecoder()
    starts = [m.start() for m in re.finditer(r"\{", text)][:MAX_STARTS]
    for start in starts:
        try:
            obj, _ = decoder.raw_decode(text, start)
        except ValueError:
            continue
        if isinstance(obj, dict):
            return obj
    raise BadReply("the reply is not valid JSON" if not starts else "the reply holds no valid JSON object")


def reply(content: str) -> Reply:
    from pydantic import ValidationError

    obj = outermost_object(content)
    try:
        return Reply.model_validate(obj)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(part) for part in err["loc"]) or "the reply"
        what = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
        raise BadReply(f"the reply does not validate: {where}: {what}"[:200]) from None
