"""Configuration: the user file and the project file, merged key by key, validated.

The project file (.chord/config.yaml) wins over the user file
($XDG_CONFIG_HOME/chord/config.yaml) for every key it sets. A bad value is a
UserError naming the file, the key path and what is expected (exit 2).
"""
from __future__ import annotations

import os
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from chord_memory import paths
from chord_memory.errors import UserError

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$")
_UNIT = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, None: 1}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Endpoint(_Strict):
    base_url: str
    model: str
    api_key_env: str | None = None
    timeout: float = Field(default=120, gt=0)
    structured_output: Literal["json_schema", "json_object", "prompt_only"] = "json_schema"

    @field_validator("api_key_env")
    @classmethod
    def _is_a_name(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
            raise ValueError("expected the name of an environment variable, not a key")
        return value


class SessionSource(_Strict):
    kind: Literal["chord", "claude-code", "codex"]
    path: str


class Limits(_Strict):
    summary_chars: int = Field(default=160, ge=1)
    statement_chars: int = Field(default=1000, ge=1)
    record_bytes: int = Field(default=4096, ge=64)


class Recurrence(_Strict):
    minSightings: int = Field(default=2, ge=1)
    maxPerRun: int = Field(default=3, ge=0)


class AutoPromote(_Strict):
    enabled: bool = False


class Memory(_Strict):
    enabled: bool = False
    extractor: Literal["rules", "model"] = "rules"
    model_pool: str | None = None
    pools: dict[str, list[Endpoint]] = Field(default_factory=dict)
    sessions: list[SessionSource] | None = None
    freeze_after: float = 600.0
    injection_budget: int = Field(default=4000, ge=200)
    limits: Limits = Limits()
    maxRecall: int = Field(default=5, ge=1)
    backend: Literal["file", "sqlite"] = "sqlite"
    preferOverDocBridge: bool = True
    recurrence: Recurrence = Recurrence()
    autoPromote: AutoPromote = AutoPromote()

    @field_validator("freeze_after", mode="before")
    @classmethod
    def _duration(cls, value: Any) -> Any:
        if isinstance(value, str):
            m = _DURATION.match(value)
            if not m:
                raise ValueError("expected a duration such as 90s, 10m or 1h")
            return float(m.group(1)) * _UNIT[m.group(2)]
        return value


class Config(_Strict):
    memory: Memory = Memory()


def _read(path: str) -> dict[str, Any]:
    from chord_memory import yamlsafe

    try:
        with open(path, "rb") as f:
            raw = f.read(262145)
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise UserError(f"{path}: cannot read the configuration ({e.strerror})") from None
    if len(raw) > 262144:
        raise UserError(f"{path}: the configuration is larger than 256 KiB")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"{path}: the configuration is not UTF-8 text") from None
    try:
        data = yamlsafe.load(text, max_bytes=262144, max_nodes=5000)
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
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown key (see docs/configuration.md for the keys)"
        raise UserError(f"{where}: {key}: {msg}") from None


def load(root: str, env: dict[str, str] | None = None) -> Config:
    """The effective configuration for the project at root."""
    user_path = paths.user_config_path(env)
    project_path = os.path.join(root, paths.PROJECT_CONFIG)
    user = _read(user_path)
    project = _read(project_path)
    _validate(user, user_path)
    _validate(project, paths.PROJECT_CONFIG)
    return _validate(_merge(user, project), f"{paths.PROJECT_CONFIG} merged over {user_path}")
