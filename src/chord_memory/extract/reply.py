"""The one object every extractor returns, validated strictly (unknown fields rejected).

The model's JSON reply and the offline rules both produce a `Reply`; applying
it is one function (apply.py). Size limits depend on the configuration and
are checked when the reply is planned, not here.
"""
from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationInfo, field_validator

Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{2,79}$")]
Line = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, pattern=r"^[^\n]*$")]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NewRecord(_Strict):
    type: Literal["preference", "fact", "workflow", "pitfall"]
    source: Literal["user", "required", "assistant"]
    status: Literal["stated", "verified", "inferred"]
    summary: Line
    conclusion: Text
    why: str = ""
    how_to_apply: str = ""
    supersedes: Id | None = None

    @field_validator("status")
    @classmethod
    def _never_verified_assistant(cls, value: str, info: ValidationInfo) -> str:
        if value == "verified" and info.data.get("source") == "assistant":
            raise ValueError("an assistant statement is never verified")
        return value


class Retire(_Strict):
    id: Id
    reason: Line


class Promotion(_Strict):
    id: Id                                             # the index entry to promote
    target: Literal["AGENTS.md", "skill", "docs"]
    path: Line | None = None                           # e.g. docs/testing.md or .chord/skills/x.md
    draft: Text
    reason: Line

    @field_validator("path")
    @classmethod
    def _relative(cls, value: str | None) -> str | None:
        if value is not None and (value.startswith(("/", "~")) or ".." in value.split("/")
                                  or re.match(r"^[A-Za-z]:", value)):
            raise ValueError("a project-relative path without '..'")
        return value


class Learning(_Strict):
    key: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{2,79}$")]
    lesson: Line


class Reply(_Strict):
    records: list[NewRecord] = Field(default_factory=list)
    retire: list[Retire] = Field(default_factory=list)
    promotions: list[Promotion] = Field(default_factory=list)
    learnings: list[Learning] = Field(default_factory=list)


def schema() -> dict[str, object]:
    """The JSON schema sent to models that accept one."""
    return Reply.model_json_schema()
