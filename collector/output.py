"""`--output DIR`: the snapshot as files, plus the `innotune audit` command line that reads them."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from collector.errors import CollectError
from collector.files import ALL_FILES, MANIFEST_FILE, SnapshotFile, manifest, snapshot_files
from collector.snapshot import Snapshot

_AUDIT_FLAGS = {
    "variables": "--variables",
    "status": "--status",
    "innodb_status": "--innodb-status",
    "schema": "--schema",
    "hardware": "--hardware",
    "persisted": "--persisted",
}


def audit_arguments(directory: Path, files: list[SnapshotFile]) -> list[str]:
    """The `innotune audit` arguments for exactly the files written, and the manifest (its role)."""
    argv = []
    for file in files:
        argv += [_AUDIT_FLAGS[file.field], str(directory / file.name)]
    return [*argv, "--manifest", str(directory / MANIFEST_FILE)]


def write_snapshot(
    snapshot: Snapshot,
    hardware: dict[str, Any] | None,
    directory: Path,
    notes: list[str],
    host: dict[str, Any] | None = None,
) -> list[str]:
    """Write the files and manifest.json into `directory` (created if missing, files replaced) and
    return the `innotune audit` arguments that audit them. A file of an earlier run that this run
    did not collect (the InnoDB status after PROCESS was revoked) is removed, so the directory holds
    one snapshot."""
    files = snapshot_files(snapshot, hardware)
    arguments = audit_arguments(directory, files)
    command = shlex.join(["innotune", "audit", *arguments])
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for file in files:
            (directory / file.name).write_text(file.text, encoding="utf-8")
        for stale in set(ALL_FILES) - {file.name for file in files}:
            (directory / stale).unlink(missing_ok=True)
        text = json.dumps(manifest(snapshot, files, command, notes, host), indent=2) + "\n"
        (directory / MANIFEST_FILE).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CollectError(f"cannot write to {directory}: {exc.strerror}") from None
    return arguments
