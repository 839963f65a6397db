"""A rule that cannot run for lack of an input says so: one info finding per missing input, naming
the rules held back and the flag that provides it. Flags replace single fields of --hardware."""

from __future__ import annotations

import json

from advisor.audit import AuditInputs, run_audit
from advisor.engine import parse_inputs
from advisor.findings import Finding
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default."
MEASURED = {
    "memory": "24G",
    "cpus": 2,
    "storage": "nvme",
    "read_latency_ms": 0.061,
    "fsync_latency_ms": 0.083,
}


def _variables() -> str:
    return corpus_file(SYSBENCH + "global_variables.tsv").read_text()


def _missing(findings: tuple[Finding, ...]) -> dict[str, Finding]:
    return {f.evidence[0].value: f for f in findings if f.rule == "inputs.missing"}


def test_without_hardware_the_storage_rules_are_reported_not_run() -> None:
    """Variables alone: storage, memory, status, InnoDB status and schema are each named once, with the
    rules they held back and the flag to give; every such finding is info."""
    missing = _missing(run_audit(AuditInputs(variables=_variables())).findings)
    assert set(missing) == {"storage", "fsync_cost", "memory", "status", "innodb_status", "schema"}
    storage = missing["storage"]
    assert storage.severity.value == "info"
    assert "flushing.io_capacity" in storage.rationale and "flushing.flush_neighbors" in storage.rationale
    assert "--storage" in storage.rationale and "--probe-storage" in storage.rationale
    assert (
        "--memory" in missing["memory"].rationale and "buffer_pool.undersized" in missing["memory"].rationale
    )


def test_given_inputs_are_not_reported_missing() -> None:
    """With hardware, status and InnoDB status given, only the schema is missing."""
    inputs = AuditInputs(
        variables=_variables(),
        status=(
            corpus_file(SYSBENCH + "global_status.t20s.tsv").read_text(),
            corpus_file(SYSBENCH + "global_status.tsv").read_text(),
        ),
        innodb_status=corpus_file(SYSBENCH + "innodb_status.txt").read_text(),
        hardware=json.dumps(MEASURED),
    )
    assert set(_missing(run_audit(inputs).findings)) == {"schema"}


def test_flags_replace_single_fields_of_the_hardware_file() -> None:
    """--hardware F --storage ssd: storage from the flag, memory, CPUs and the measured figures kept."""
    inputs = AuditInputs(variables=_variables(), hardware=json.dumps(MEASURED), storage="ssd", cpus=8)
    hardware = parse_inputs(inputs).hardware
    assert hardware is not None
    assert (hardware.storage, hardware.cpus, hardware.memory) == ("ssd", 8, 24 * 1024**3)
    assert hardware.read_latency_ms == 0.061


def test_the_storage_evidence_carries_the_measured_latencies() -> None:
    """A finding that rests on the storage type shows the probe's figures beside it."""
    result = run_audit(AuditInputs(variables=_variables(), hardware=json.dumps(MEASURED)))
    storage = [e for f in result.findings for e in f.evidence if e.label == "storage"]
    assert storage and all("measured 16 KiB random reads 0.061 ms median" in e.value for e in storage)
