"""Configuration: the user file and the project file, merged key by key, validated.

The project file (.chord/config.yaml) wins over the user file
($XDG_CONFIG_HOME/chord/config.yaml) for every key it sets. A bad value is a
UserError naming the file, the key path and what is expected (exit 2).
Fields are strict: YAML already gives ints and bools, so `"4000"` or `true` for
an int is a mistake to report, not a value to coerce.
"""
from __future__ import annotations

import os
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from chord_memory import defaults as D
from chord_memory import paths
from chord_memory.errors import UserError

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$")
_UNIT = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, None: 1}
_LIMIT = 262144
# pydantic names Python types; a YAML user needs what to write instead.
_MESSAGES = {
    "int_type": "expected an integer",
    "bool_type": "expected true or false",
    "float_type": "expected a number",
    "string_type": "expected a string",
    "extra_forbidden": "unknown key (see docs/configuration.md for the keys)",
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Endpoint(_Strict):
    base_url: str
    model: str
    api_key_env: str | None = None
    timeout: float = Field(default=D.ENDPOINT_TIMEOUT, gt=0, allow_inf_nan=False)
    structured_output: Literal["json_schema", "json_object", "prompt_only"] = D.STRUCTURED_OUTPUT

    @field_validator("api_key_env")
    @classmethod
    def _is_a_name(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
            raise ValueError("expected the name of an environment variable, not a key")
        return value


class SessionSource(_Strict):
    kind: Literal["chord", "claude-code", "codex", "gemini-cli", "aider", "opencode", "copilot-cli",
                  "cursor"]
    path: str


class Limits(_Strict):
    summary_chars: int = Field(default=D.SUMMARY_CHARS, ge=1)
    statement_chars: int = Field(default=D.STATEMENT_CHARS, ge=1)
    record_bytes: int = Field(default=D.RECORD_BYTES, ge=64)


class Recurrence(_Strict):
    minSightings: int = Field(default=D.MIN_SIGHTINGS, ge=1)
    maxPerRun: int = Field(default=D.MAX_PER_RUN, ge=0)


class AutoPromote(_Strict):
    enabled: bool = D.AUTO_PROMOTE


class Memory(_Strict):
    enabled: bool = D.ENABLED
    extractor: Literal["rules", "model"] = D.EXTRACTOR
    model_pool: str | None = None
    pools: dict[str, list[Endpoint]] = Field(default_factory=dict)
    sessions: list[SessionSource] | None = None
    freeze_after: float = Field(default=D.FREEZE_AFTER, ge=0, allow_inf_nan=False)
    injection_budget: int = Field(default=D.INJECTION_BUDGET, ge=200)
    limits: Limits = Limits()
    maxRecall: int = Field(default=D.MAX_RECALL, ge=1, le=1000)  # as `recall --max`: sqlite needs a bound
    backend: Literal["file", "sqlite"] = D.BACKEND
    preferOverDocBridge: bool = D.PREFER_OVER_DOC_BRIDGE
    recurrence: Recurrence = Recurrence()
    autoPromote: AutoPromote = AutoPromote()

    @field_validator("freeze_after", mode="before")
    @classmethod
    def _duration(cls, value: Any) -> Any:
        """A string with a unit becomes seconds; the field's bounds then refuse .nan, .inf and < 0."""
        if isinstance(value, str):
            m = _DURATION.match(value)
            if not m:
                raise ValueError("expected a duration such as 90s, 10m or 1h")
            return float(m.group(1)) * _UNIT[m.group(2)]
        return value


class Config(_Strict):
    memory: Memory = Memory()


def _read(path: str) -> dict[str, Any]:
    from chord_memory import atomic, yamlsafe

    try:
        # read_or_none refuses a directory, a FIFO or an oversized file: none is "no file".
        raw = atomic.read_or_none(path, _LIMIT)
    except OSError as e:
        raise UserError(f"{path}: cannot be read ({e.strerror or e})") from None
    if raw is None:
        return {}
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"{path}: the configuration is not UTF-8 text") from None
    try:
        data = yamlsafe.load(text, max_bytes=_LIMIT, max_nodes=5000)
    except yamlsafe.YamlError as e:
        raise UserError(f"{path}:{e.line}: {e}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise UserError(f"{path}: expected a mapping with a `memory:` key at the top")
    return data


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _validate(data: dict[str, Any], where: str) -> Config:
    try:
        return Config.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        key = ".".join(str(part) for part in err["loc"])
        msg = _MESSAGES.get(err["type"], err["msg"])
        raise UserError(f"{where}: {key}: {msg}") from None


def load(root: str, env: dict[str, str] | None = None) -> Config:
    """The effective configuration for the project at root."""
    user_path = paths.user_config_path(env)
    project_path = os.path.join(root, paths.PROJECT_CONFIG)
    user = _read(user_path)
    project = _read(project_path)
    _validate(user, user_path)
    _validate(project, paths.PROJECT_CONFIG)
    cfg = _validate(_merge(user, project), f"{paths.PROJECT_CONFIG} merged over {user_path}")
    _check_pool(cfg, paths.PROJECT_CONFIG if "model_pool" in (project.get("memory") or {}) else user_path)
    return cfg


def _check_pool(cfg: Config, where: str) -> None:
    """model_pool may name a pool the other file defines, so it is checked after the merge."""
    name = cfg.memory.model_pool
    if name is not None and name not in cfg.memory.pools:
        have = ", ".join(sorted(cfg.memory.pools)) or "none"
        raise UserError(f"{where}: memory.model_pool: no pool {name!r} in memory.pools (pools: {have})")
