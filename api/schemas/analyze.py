"""The one-shot audit: a snapshot's inputs plus the server facts, without a stored server."""

from __future__ import annotations

from typing import Any

from pydantic import AnyHttpUrl, Field, field_validator

from advisor.inputs.hardware import MAX_CPUS, memory_in_bytes
from api.schemas.common import InputModel, Profile, Role, Storage
from api.schemas.snapshots import SnapshotCreate


class AnalyzeParameters(InputModel):
    """The server facts of a one-shot audit (multipart: form fields of these names)."""

    server_version: str | None = Field(
        None, max_length=120, description="Wins over the version in variables."
    )
    role: Role = "standalone"
    profile: Profile = "production"
    memory: str | None = Field(None, description="Memory of the host, e.g. `64G` or a byte count.")
    memory_limit: str | None = Field(None, description="A container's memory limit, e.g. `8G`.")
    cpus: int | None = Field(None, ge=1, le=MAX_CPUS)
    storage: Storage | None = None
    callback_url: AnyHttpUrl | None = Field(None, description="POSTed the audit when it finishes.")

    @field_validator("memory", "memory_limit", mode="before")
    @classmethod
    def _a_size(cls, value: object) -> object:
        """The hardware file's own check (advisor.inputs.hardware), so the API says what the CLI says."""
        if value is None or isinstance(value, bool):
            return value
        text = str(value).strip()
        memory_in_bytes(text)
        return text

    def service_parameters(self) -> dict[str, Any]:
        """The `parameters` of services.audits.analyze (everything but the callback)."""
        return self.model_dump(mode="json", exclude={"callback_url"})


class AnalyzeCreate(SnapshotCreate, AnalyzeParameters):
    """The JSON form of a one-shot audit: a snapshot's inputs and the server facts in one object."""
