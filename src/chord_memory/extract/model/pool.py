"""A pool of endpoints tried in order until one gives a valid reply.

On one endpoint, a refused `response_format` falls back to the next dialect
(json_schema -> json_object -> prompt_only). Anything else that fails there
(after the client's retries) and any reply that does not parse or validate
moves on to the next model of the pool: an invalid reply is resampled before
it counts as a failure. After the last model, one UserError with a one-line
reason; nothing has been written.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from chord_memory.config import Endpoint
from chord_memory.errors import UserError
from chord_memory.extract.model import Timing, client, parse
from chord_memory.extract.model.prompt import Build
from chord_memory.extract.reply import Reply

if TYPE_CHECKING:
    import httpx

REASON_MAX = 400

Log = Callable[[str], None]


def api_key(endpoint: Endpoint, env: Mapping[str, str]) -> str | None:
    """The key from the named variable; the value is never put into a message."""
    if endpoint.api_key_env is None:
        return None
    value = env.get(endpoint.api_key_env, "").strip()
    if not value:
        raise client.AttemptFailed(f"the environment variable {endpoint.api_key_env} is not set")
    return value


async def one(http: httpx.AsyncClient, endpoint: Endpoint, build: Build, env: Mapping[str, str],
              timing: Timing, log: Log) -> Reply:
    """A valid reply from this endpoint, trying its dialect and then the ones after it."""
    key = api_key(endpoint, env)
    dialects = client.DIALECTS[client.DIALECTS.index(endpoint.structured_output):]
    refused: client.FormatRejected | None = None
    for dialect in dialects:
        try:
            text = await client.complete(http, endpoint, build(dialect), dialect, key, timing)
        except client.FormatRejected as e:
            log(f"model {endpoint.model}: {e}; trying the next dialect")
            refused = e
            continue
        try:
            return parse.reply(text)
        except parse.BadReply as e:
            raise client.AttemptFailed(str(e)) from None
    raise client.AttemptFailed(f"every dialect was refused (last: {refused})")


async def ask(endpoints: Sequence[Endpoint], build: Build, env: Mapping[str, str],
              timing: Timing, log: Log, pool_name: str) -> Reply:
    """The first valid reply of the pool, in order; a UserError when none gives one."""
    import httpx

    reasons: list[str] = []
    async with httpx.AsyncClient() as http:
        for endpoint in endpoints:
            try:
                return await one(http, endpoint, build, env, timing, log)
            except client.AttemptFailed as e:
                reasons.append(f"{endpoint.model}: {e}")
                log(f"model {endpoint.model} failed: {e}")
    reason = f"no model of pool {pool_name!r} gave a usable reply ({'; '.join(reasons)})"
    if len(reason) > REASON_MAX:
        reason = reason[:REASON_MAX - 4] + "...)"
    raise UserError(reason + "; it is tried again on the next run", 1)
