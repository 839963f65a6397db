"""The snapshot as files: the same names on disk (`--output`) and in the upload (`--upload`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from collector.snapshot import Snapshot

VARIABLES_FILE = "variables.tsv"
STATUS_FILES = ("status-1.tsv", "status-2.tsv")
INNODB_STATUS_FILE = "innodb_status.txt"
SCHEMA_FILE = "schema.tsv"
HARDWARE_FILE = "hardware.json"
PERSISTED_FILE = "persisted.tsv"
MANIFEST_FILE = "manifest.json"
ALL_FILES = (VARIABLES_FILE, *STATUS_FILES, INNODB_STATUS_FILE, SCHEMA_FILE, HARDWARE_FILE, PERSISTED_FILE)


@dataclass(frozen=True)
class SnapshotFile:
    """One file: the upload's form field, its file name and its text."""

    field: str
    name: str
    text: str

    @property
    def content_type(self) -> str:
        if self.name.endswith(".json"):
            return "application/json"
        return "text/tab-separated-values" if self.name.endswith(".tsv") else "text/plain"


def snapshot_files(snapshot: Snapshot, hardware: dict[str, Any] | None) -> list[SnapshotFile]:
    """The files of a snapshot in upload order; parts that were not collected are left out."""
    files = [SnapshotFile("variables", VARIABLES_FILE, snapshot.variables)]
    files += [
        SnapshotFile("status", name, text) for name, text in zip(STATUS_FILES, snapshot.status, strict=True)
    ]
    if snapshot.innodb_status is not None:
        files.append(SnapshotFile("innodb_status", INNODB_STATUS_FILE, snapshot.innodb_status))
    if snapshot.schema is not None:
        files.append(SnapshotFile("schema", SCHEMA_FILE, snapshot.schema))
    if hardware is not None:
        files.append(SnapshotFile("hardware", HARDWARE_FILE, json.dumps(hardware, indent=2) + "\n"))
    if snapshot.persisted is not None:
        files.append(SnapshotFile("persisted", PERSISTED_FILE, snapshot.persisted))
    return files


def manifest(
    snapshot: Snapshot,
    files: list[SnapshotFile],
    audit_command: str,
    notes: list[str],
    host: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What manifest.json says about a written snapshot: `notes` are every note the run printed,
    `host` what the collector found out about this machine (the server process, storage)."""
    return {
        "collected_at": snapshot.collected_at,
        "interval_seconds": snapshot.interval_seconds,
        "measured_interval_seconds": snapshot.measured_interval_seconds,
        "uptime_seconds": snapshot.uptime_seconds,
        "server_version": snapshot.server_version,
        "server_hostname": snapshot.server_hostname,
        "role": snapshot.role.to_dict() if snapshot.role is not None else None,
        "host": host,
        "files": {file.name: file.field for file in files},
        "redacted": {
            "variables": list(snapshot.redacted_variables),
            "innodb_status_lines_removed": snapshot.innodb_lines_removed,
        },
        "notes": list(notes),
        "audit_command": audit_command,
    }
