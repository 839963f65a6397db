"""Servers: what an organisation audits."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
    model_validator,
)

from advisor.inputs import hardware
from api.schemas.common import Flavor, InputModel, Profile, ReadModel, Role

MAX_LABELS = 64
LABELS_DESCRIPTION = (
    f"Free-form key/value labels: at most {MAX_LABELS}, keys of 1–100 characters, values up to 500."
)
#: bounded, so that a server row (and every list that shows it) stays small.
Labels = Annotated[
    dict[
        Annotated[str, StringConstraints(min_length=1, max_length=100)],
        Annotated[str, StringConstraints(max_length=500)],
    ],
    Field(max_length=MAX_LABELS),
]
HARDWARE_DESCRIPTION = "Sizes accept byte counts or `64G`-style strings; stored in bytes."


class HardwareSpec(BaseModel):
    """What the server runs on; every field is optional, unknown fields are refused."""

    # The request's shape for the OpenAPI document; each value is checked by the advisor's own
    # checks (advisor.inputs.hardware), so the API and the CLI accept the same specs.
    model_config = ConfigDict(frozen=True, extra="forbid")

    memory: int | None = None
    memory_limit: int | None = None
    cpus: int | None = None
    storage: hardware.Storage | None = None
    iops: int | None = None
    fsync_latency_ms: float | None = None
    fsync_latency_p99_ms: float | None = None
    read_latency_ms: float | None = None
    read_latency_p99_ms: float | None = None
    battery_backed_cache: bool | None = None
    os: str | None = None

    @field_validator("*", mode="before")
    @classmethod
    def _advisor_check(cls, value: object, info: ValidationInfo) -> object:
        return hardware.CHECKS[str(info.field_name)](value)


class ServerCreate(InputModel):
    name: str = Field(min_length=1, max_length=200, description="Unique within the organisation.")
    labels: Labels = Field(default_factory=dict, description=LABELS_DESCRIPTION)
    flavor: Flavor | None = Field(None, description="Learned from the first upload when not given.")
    version: str | None = Field(None, max_length=120, description="Learned from uploads when not given.")
    hardware: HardwareSpec | None = Field(None, description=HARDWARE_DESCRIPTION)
    role: Role | None = Field(None, description="Default: the fleet's default role, else standalone.")
    profile: Profile | None = Field(
        None, description="Default: the fleet's default profile, else production."
    )
    fleet: str | None = Field(None, max_length=200, description="The fleet it joins, by name (or id).")
    fleet_id: str | None = Field(None, max_length=36, description="The fleet it joins, by id.")

    def hardware_dict(self) -> dict[str, Any] | None:
        return self.hardware.model_dump(exclude_none=True) if self.hardware else None


#: fields a PATCH may set but never clear.
_NOT_NULLABLE = ("name", "labels", "role", "profile")


class ServerUpdate(InputModel):
    """Only the fields present change; `null` clears flavor, version, hardware or fleet (`fleet_id`)."""

    name: str | None = Field(None, min_length=1, max_length=200)
    labels: Labels | None = Field(None, description=LABELS_DESCRIPTION)
    flavor: Flavor | None = None
    version: str | None = Field(None, max_length=120)
    hardware: HardwareSpec | None = Field(None, description=HARDWARE_DESCRIPTION)
    role: Role | None = None
    profile: Profile | None = None
    fleet: str | None = Field(None, max_length=200, description="Move it to this fleet, by name (or id).")
    fleet_id: str | None = Field(None, max_length=36, description="Move it to this fleet, by id.")

    @model_validator(mode="after")
    def _required_fields_are_not_cleared(self) -> ServerUpdate:
        cleared = [
            name for name in _NOT_NULLABLE if name in self.model_fields_set and getattr(self, name) is None
        ]
        if cleared:
            raise ValueError(f"{', '.join(cleared)} cannot be null")
        return self

    def changes(self) -> dict[str, Any]:
        """The fields the client sent, hardware as a plain dict of bytes."""
        changed: dict[str, Any] = {name: getattr(self, name) for name in self.model_fields_set}
        if isinstance(changed.get("hardware"), HardwareSpec):
            changed["hardware"] = changed["hardware"].model_dump(exclude_none=True)
        return changed


class ServerRead(ReadModel):
    id: str
    name: str
    labels: dict[str, str]
    flavor: str | None
    version: str | None
    hardware: dict[str, Any] | None
    role: str
    role_source: str = Field(
        description="given (by a user), detected (by the collector's upload) or default (standalone or "
        "the fleet's); a detected role replaces only a default one."
    )
    profile: str
    fleet: str | None = Field(description="The fleet's name.")
    fleet_id: str | None
    created_at: datetime
    updated_at: datetime
