"""Base classes and shapes shared by every resource: pages and problem documents."""

from __future__ import annotations

from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any, Generic, Literal, TypeVar

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field, field_validator

ItemT = TypeVar("ItemT")

Role = Literal["primary", "replica", "standalone"]
Profile = Literal["production", "ci"]
Flavor = Literal["mysql", "mariadb", "percona"]
Storage = Literal["hdd", "ssd", "nvme", "network"]
Severity = Literal["critical", "warning", "notice", "info"]
AuditStatus = Literal["queued", "running", "succeeded", "failed"]


class InputModel(BaseModel):
    """A request body: an unknown field is a 422, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class ReadModel(BaseModel):
    """A response body, built from ORM rows or service dicts. Every timestamp carries its offset:
    stored times are UTC, and SQLite (the embedded default) hands them back without a zone."""

    model_config = ConfigDict(from_attributes=True)

    @field_validator("*", mode="after")
    @classmethod
    def _timestamps_in_utc(cls, value: Any) -> Any:
        if isinstance(value, datetime) and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class Page(ReadModel, Generic[ItemT]):
    """One page of a list in a stable order; pass `next_cursor` back as ?cursor= for the next."""

    items: list[ItemT]
    next_cursor: str | None = Field(description="Cursor of the next page; null on the last one.")


class ProblemDetails(BaseModel):
    """RFC 9457 problem document; some problems add members (`file`, `line`, `errors`, `checks`)."""

    model_config = ConfigDict(extra="allow")

    type: str
    title: str
    status: int
    detail: str
    instance: str | None = None


_PROBLEM_REF = {"$ref": "#/components/schemas/ProblemDetails"}


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` entries for the problem+json statuses an endpoint can answer."""
    return {
        status: {
            "description": f"{HTTPStatus(status).phrase} (problem+json)",
            "content": {"application/problem+json": {"schema": _PROBLEM_REF}},
        }
        for status in statuses
    }


def install_problem_schema(app: FastAPI) -> None:
    """Add ProblemDetails to the document's components, where `problem_responses` refers to it."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = generate()
            schemas = document.setdefault("components", {}).setdefault("schemas", {})
            schemas["ProblemDetails"] = ProblemDetails.model_json_schema()
        return app.openapi_schema or {}

    app.openapi = openapi  # type: ignore[method-assign]


#: the problems every authenticated endpoint can answer (422: any parameter may be malformed).
AUTHENTICATED = (401, 422, 429, 503)
