"""Snapshots: what a user uploaded about a server at one moment (option-file secrets redacted)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from api.schemas.common import InputModel, ReadModel, Role

#: keys of a snapshot's stored inputs besides the option files, in upload order.
TEXT_INPUTS = ("variables", "status", "innodb_status", "schema", "hardware", "persisted")


class SnapshotCreate(InputModel):
    """The JSON form of an upload; the multipart form has the same field names, one file each."""

    mycnf: dict[str, str] = Field(
        default_factory=dict, description="Option files: each path (as includes name it) → its text."
    )
    variables: str | None = Field(None, description="SHOW GLOBAL VARIABLES (tab-separated or table output).")
    status: list[str] = Field(
        default_factory=list, max_length=2, description="One or two SHOW GLOBAL STATUS dumps, oldest first."
    )
    innodb_status: str | None = Field(None, description="SHOW ENGINE INNODB STATUS output.")
    schema_facts: str | None = Field(
        None, alias="schema", description="Schema facts (information_schema.tables)."
    )
    hardware: dict[str, Any] | None = Field(
        None, description='Hardware spec, e.g. {"memory": "64G", "cpus": 16, "storage": "ssd"}.'
    )
    persisted: str | None = Field(
        None,
        description="MySQL 8.0+: what SET PERSIST keeps in mysqld-auto.cnf, read after the option files at "
        "every start: SELECT VARIABLE_NAME, VARIABLE_VALUE FROM performance_schema.persisted_variables "
        "(tab-separated or table output), or the datadir's mysqld-auto.cnf itself.",
    )


class DetectedRole(InputModel):
    """What `innotune collect --upload` found out about the server's place in replication (multipart:
    plain form fields of these names)."""

    detected_role: Role | None = Field(
        None,
        description="The role the collector detected; the server takes it unless a user gave its role.",
    )
    detected_role_how: str | None = Field(None, max_length=500, description="How the collector decided.")


class ServerSnapshotCreate(SnapshotCreate, DetectedRole):
    """The JSON form of a server's snapshot: the inputs, and the role the collector detected."""


class SnapshotRead(ReadModel):
    """A snapshot without its texts: which inputs it holds, what the parsers warned about."""

    id: str
    server_id: str | None
    created_at: datetime
    content_hash: str
    server_version: str | None
    warnings: list[str]
    mycnf_paths: list[str] = Field(description="Paths of the uploaded option files.")
    inputs_present: list[str] = Field(description="Which other inputs were uploaded.")
    detected_role: str | None = Field(None, description="The role the collector detected, when it sent one.")

    @classmethod
    def from_snapshot(cls, snapshot: Any) -> SnapshotRead:
        return cls.model_validate(_summary(snapshot))


class SnapshotInputs(ReadModel):
    """The texts as stored: option-file secrets are already `[REDACTED]`."""

    mycnf: dict[str, str]
    variables: str | None = None
    status: list[str] = Field(default_factory=list)
    innodb_status: str | None = None
    schema_facts: str | None = Field(None, serialization_alias="schema", validation_alias="schema")
    hardware: str | None = None
    persisted: str | None = None


class SnapshotDetail(SnapshotRead):
    """A snapshot with its stored texts."""

    inputs: SnapshotInputs

    @classmethod
    def from_snapshot(cls, snapshot: Any) -> SnapshotDetail:
        return cls.model_validate({**_summary(snapshot), "inputs": snapshot.inputs})


def _summary(snapshot: Any) -> dict[str, Any]:
    inputs: dict[str, Any] = snapshot.inputs or {}
    return {
        "id": snapshot.id,
        "server_id": snapshot.server_id,
        "created_at": snapshot.created_at,
        "content_hash": snapshot.content_hash,
        "server_version": snapshot.server_version,
        "warnings": snapshot.warnings or [],
        "mycnf_paths": list(inputs.get("mycnf") or {}),
        "inputs_present": [name for name in TEXT_INPUTS if inputs.get(name)],
        "detected_role": (inputs.get("detected_role") or {}).get("role"),
    }
