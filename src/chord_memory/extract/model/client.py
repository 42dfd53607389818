"""One OpenAI-compatible endpoint: POST {base_url}/chat/completions, with retries.

Dialects say how the reply's shape is asked for: `json_schema` (the strict
schema in `response_format`), `json_object`, or `prompt_only` (no
`response_format`; the prompt carries the schema). A server that rejects the
format (a 400, 422 or 5xx whose body names it) raises FormatRejected, and the
pool tries the next dialect. 429, other 5xx and lost connections are retried
with back-off, honouring Retry-After within a cap. A timeout, any other status
and `finish_reason: "length"` fail the attempt. The API key comes from the
named environment variable only; it is sent as a bearer token and never put
into a message.

The body is streamed and never read past a cap: an answer over BODY_MAX is a
bad reply (the pool resamples it on the next model); of an error answer only
its first ERROR_MAX bytes are read, which is all its message needs.
"""
from __future__ import annotations

import asyncio
import datetime
import email.utils
import json
import re
import time
from collections.abc import AsyncIterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from chord_memory.config import Endpoint
from chord_memory.extract.model import Timing
from chord_memory.extract.model.prompt import Message, strict_schema
from chord_memory.text import redacted

if TYPE_CHECKING:
    import httpx

DIALECTS = ("json_schema", "json_object", "prompt_only")
CONNECT_MAX = 10.0
# The most a usable reply can hold is what parse.py looks at (MAX_TEXT, 200,000 characters: ~45
# records at the 4,096-byte limit). Escaped in the answer's JSON (\uXXXX for every non-ASCII
# character at worst: 1.2 MB) and beside a reasoning model's `reasoning_content`, a valid answer
# stays under 2 MB; the cap leaves twice that (docs/security.md).
BODY_MAX = 4 * 1024 * 1024
ERROR_MAX = 64 * 1024      # bytes of a non-200 answer read: its message is all that is used
_NAMES_FORMAT = re.compile(r"response_format|json_schema|json_object|schema|grammar|structured", re.I)


class AttemptFailed(Exception):
    """This endpoint gave no usable answer; str() is one line without secrets."""


class FormatRejected(AttemptFailed):
    pass


class Retryable(AttemptFailed):
    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


class Answer(NamedTuple):
    """What an endpoint answered, its body read up to a cap."""

    status: int
    headers: Mapping[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.body)


def too_large() -> AttemptFailed:
    return AttemptFailed(f"the answer is over {BODY_MAX // 2**20} MiB, more than a valid reply can be")


def request_body(endpoint: Endpoint, messages: list[Message], dialect: str) -> dict[str, Any]:
    body: dict[str, Any] = {"model": endpoint.model, "messages": messages, "stream": False}
    if dialect == "json_schema":
        body["response_format"] = {"type": "json_schema", "json_schema": {
            "name": "memory_reply", "strict": True, "schema": strict_schema()}}
    elif dialect == "json_object":
        body["response_format"] = {"type": "json_object"}
    return body


def retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header: a number, or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # "-0000": UTC all the same
        when = when.replace(tzinfo=datetime.timezone.utc)
    return max(0.0, when.timestamp() - time.time())


def pause(err: Retryable, attempt: int, timing: Timing) -> float:
    wanted = err.retry_after if err.retry_after is not None else timing.backoff * 2 ** attempt
    return min(wanted, timing.retry_after_cap)


def _excerpt(resp: Answer, key: str | None) -> str:
    """A short, one-line, scrubbed message from an error body (never for 401 and 403)."""
    from chord_memory.secrets import scrub

    if resp.status in (401, 403):
        return ""
    try:
        data = resp.json()
        err = data.get("error", data) if isinstance(data, dict) else data
        msg = err.get("message") or err.get("detail") if isinstance(err, dict) else err
        text = msg if isinstance(msg, str) else json.dumps(msg)
    except ValueError:
        text = resp.text
    text = " ".join(text.split())
    if key:
        text = text.replace(key, redacted("api-key"))
    text = scrub(text)[0]
    return f": {text[:120]}" if text else ""


def _classify(resp: Answer, dialect: str, key: str | None) -> AttemptFailed:
    code = resp.status
    what = f"HTTP {code}{_excerpt(resp, key)}"
    names_format = dialect != "prompt_only" and bool(_NAMES_FORMAT.search(resp.text[:4000]))
    if names_format and (code in (400, 422) or code >= 500):
        return FormatRejected(f"{dialect} refused ({what})")
    if code == 429 or code >= 500:
        return Retryable(what, retry_after(resp.headers.get("retry-after")))
    if code in (401, 403):
        return AttemptFailed(f"{what} (check the key in the endpoint's api_key_env variable)")
    return AttemptFailed(what)


def content(data: Any) -> str:
    """The text of the first choice; a cut-off reply fails the attempt."""
    choices = data.get("choices") if isinstance(data, dict) else None
    choice = choices[0] if isinstance(choices, list) and choices else None
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(choice, dict) or not isinstance(message, dict):
        raise AttemptFailed("the answer has no choices[0].message")
    if choice.get("finish_reason") == "length":
        raise AttemptFailed("the reply was cut off (finish_reason: length)")
    if message.get("refusal"):
        raise AttemptFailed("the model refused")
    value = message.get("content")
    if isinstance(value, list):  # content parts
        value = "".join(p.get("text", "") for p in value if isinstance(p, dict))
    return value if isinstance(value, str) else ""


def _inflater(headers: Mapping[str, str]) -> Any:
    """A zlib decompressor for a gzip or deflate body, None for an unencoded one."""
    import zlib

    encoding = headers.get("content-encoding", "").strip().lower()
    if encoding in ("", "identity"):
        return None
    if encoding in ("gzip", "x-gzip", "deflate"):
        return zlib.decompressobj(zlib.MAX_WBITS | 32)  # a gzip or zlib header, told apart by zlib
    raise AttemptFailed(f"the answer is encoded as {encoding[:40]!r}, which was not asked for")


async def _take(raws: AsyncIterator[bytes], inflate: Any, cap: int) -> bytearray:
    """The body, inflated if it is compressed; more than `cap` bytes means it is over the cap."""
    import zlib

    data = bytearray()
    try:
        async for raw in raws:
            while raw and len(data) <= cap:
                if inflate is None:
                    data += raw
                    break
                data += inflate.decompress(raw, cap + 1 - len(data))  # never more than the cap
                raw = inflate.unconsumed_tail
            if len(data) > cap:
                return data
        if inflate is not None:
            data += inflate.flush()
            if not inflate.eof:
                raise zlib.error("cut off")
    except zlib.error:
        raise AttemptFailed("the answer's gzip or deflate body does not inflate") from None
    return data


async def read(http: httpx.AsyncClient, url: str, body: dict[str, Any], headers: dict[str, str],
               timeout: httpx.Timeout) -> Answer:
    """POST and read the answer, streamed: a 200 past BODY_MAX fails, an error is cut at ERROR_MAX.

    What is counted is the body as it would be kept: a small gzip body can hold gigabytes.
    """
    async with http.stream("POST", url, json=body, headers=headers, timeout=timeout) as resp:
        ok = resp.status_code == 200
        cap = BODY_MAX if ok else ERROR_MAX
        declared = resp.headers.get("content-length", "")
        if ok and declared.isdigit() and int(declared) > cap:
            raise too_large()  # said up front: nothing of it is read
        data = await _take(resp.aiter_raw(), _inflater(resp.headers), cap)
        if len(data) > cap:
            if ok:
                raise too_large()
            del data[cap:]
        return Answer(resp.status_code, resp.headers, bytes(data))


async def post(http: httpx.AsyncClient, endpoint: Endpoint, body: dict[str, Any],
               dialect: str, key: str | None) -> str:
    """One attempt: the reply's text, or an AttemptFailed."""
    import httpx

    # a reply is small: compression saves nothing (a server that compresses anyway is inflated
    # up to the cap)
    headers = {"Accept-Encoding": "identity"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    url = endpoint.base_url.rstrip("/") + "/chat/completions"
    limit = httpx.Timeout(endpoint.timeout, connect=min(endpoint.timeout, CONNECT_MAX))
    try:
        resp = await asyncio.wait_for(read(http, url, body, headers, limit), endpoint.timeout)
    except (asyncio.TimeoutError, httpx.TimeoutException):
        raise AttemptFailed(f"no answer within {endpoint.timeout:g} s") from None
    except httpx.TransportError as e:
        raise Retryable(f"could not reach the endpoint ({type(e).__name__})") from None
    if resp.status != 200:
        raise _classify(resp, dialect, key)
    try:
        return content(resp.json())
    except ValueError:
        raise AttemptFailed("the answer is not JSON (is base_url the /v1 of a chat API?)") from None


async def complete(http: httpx.AsyncClient, endpoint: Endpoint, messages: list[Message],
                   dialect: str, key: str | None, timing: Timing) -> str:
    """The reply's text, after up to `timing.tries` attempts on 429, 5xx and lost connections."""
    body = request_body(endpoint, messages, dialect)
    last: Retryable | None = None
    for attempt in range(max(1, timing.tries)):
        if last is not None:
            await asyncio.sleep(pause(last, attempt - 1, timing))
        try:
            return await post(http, endpoint, body, dialect, key)
        except Retryable as e:
            last = e
    assert last is not None
    raise AttemptFailed(f"{last} after {max(1, timing.tries)} tries")
