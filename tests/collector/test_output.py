"""`--output DIR`: the files, manifest.json, and the printed audit command that reads them."""

from __future__ import annotations

import json
import shlex
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from cli.main import cli
from collector.output import write_snapshot
from tests.collector.snapshots import corpus_snapshot

HARDWARE = {"memory": 24 * 1024**3, "cpus": 2}


def test_files_manifest_and_a_command_the_audit_accepts(tmp_path: Path) -> None:
    """Every file is written; the printed command, run as is, audits them (exit 0 or 1, JSON out)."""
    snapshot = corpus_snapshot()
    arguments = write_snapshot(snapshot, HARDWARE, tmp_path / "snap", ["a note", "hardware: another"])
    names = sorted(path.name for path in (tmp_path / "snap").iterdir())
    assert names == [
        "hardware.json",
        "innodb_status.txt",
        "manifest.json",
        "schema.tsv",
        "status-1.tsv",
        "status-2.tsv",
        "variables.tsv",
    ]
    assert (tmp_path / "snap" / "status-1.tsv").read_text() == snapshot.status[0]
    manifest = json.loads((tmp_path / "snap" / "manifest.json").read_text())
    assert manifest["interval_seconds"] == 20
    assert manifest["server_version"] == "10.11.19-MariaDB-0+deb12u1"
    assert manifest["notes"] == ["a note", "hardware: another"]
    argv = shlex.split(manifest["audit_command"])
    assert argv[:2] == ["innotune", "audit"] and argv[2:] == arguments and argv.count("--status") == 2
    result = CliRunner().invoke(cli, [*argv[1:], "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    assert json.loads(result.output)["server"]["version"] == "10.11.19-MariaDB-0+deb12u1"


def test_a_rerun_without_innodb_status_removes_the_old_file(tmp_path: Path) -> None:
    """Files of an earlier run that this run did not collect do not linger beside the new ones."""
    write_snapshot(corpus_snapshot(), HARDWARE, tmp_path, [])
    command = write_snapshot(replace(corpus_snapshot(), innodb_status=None), None, tmp_path, [])
    assert not (tmp_path / "innodb_status.txt").exists() and not (tmp_path / "hardware.json").exists()
    assert "--innodb-status" not in command and "--hardware" not in command
