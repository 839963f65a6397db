"""The inputs a rule cannot do without, and the info finding that says which checks did not run.

A rule declares its needs (`@rule(..., needs=("storage",))`). When the audit lacks one and the rule
found nothing, the engine reports the rule as not run — one info finding per missing input, naming
the input, the rules it held back and the flag that provides it — instead of passing over it in
silence. Presence is computed once per audit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from msgspec import Struct

from advisor.context import AuditContext
from advisor.findings import Evidence, Finding, Severity

RULE_ID = "inputs.missing"


class Input(Struct, frozen=True):
    """One fact an audit may lack: what it is and how a user provides it."""

    what: str
    provided_by: str
    present: Callable[[AuditContext], bool]


def _hardware_field(name: str) -> Callable[[AuditContext], bool]:
    return lambda ctx: ctx.hardware is not None and getattr(ctx.hardware, name) is not None


def _fsync_cost_known(ctx: AuditContext) -> bool:
    hardware = ctx.hardware
    return hardware is not None and any(
        value is not None
        for value in (hardware.storage, hardware.fsync_latency_ms, hardware.battery_backed_cache)
    )


INPUTS: Mapping[str, Input] = {
    "storage": Input(
        "the storage type (hdd, ssd, nvme or network)",
        "--storage (it overrides that field of --hardware), `storage` in the hardware JSON, or "
        "`innotune collect --probe-storage`, which measures it",
        _hardware_field("storage"),
    ),
    "fsync_cost": Input(
        "what an fsync costs here (the storage type or a measured fsync latency)",
        "--storage, `fsync_latency_ms` in the hardware JSON, or `innotune collect --probe-storage`, "
        "which measures it",
        _fsync_cost_known,
    ),
    "memory": Input(
        "the machine's memory",
        "--memory (and --memory-limit in a container), or `memory` in the hardware JSON",
        lambda ctx: ctx.usable_memory is not None,
    ),
    "status": Input(
        "SHOW GLOBAL STATUS",
        "--status (twice, some minutes apart, for rates)",
        lambda ctx: ctx.status is not None,
    ),
    "innodb_status": Input(
        "SHOW ENGINE INNODB STATUS",
        "--innodb-status",
        lambda ctx: ctx.innodb is not None,
    ),
    "schema": Input(
        "the schema facts (tables, engines, keys)",
        "--schema (docs/schema-facts.md)",
        lambda ctx: ctx.schema is not None,
    ),
}


def _present(ctx: AuditContext) -> frozenset[str]:
    return frozenset(name for name, item in INPUTS.items() if item.present(ctx))


def missing_needs(ctx: AuditContext, needs: Iterable[str]) -> tuple[str, ...]:
    """The needs this audit lacks (computed once per context)."""
    present = ctx.derived.get(_present, ctx)
    return tuple(need for need in needs if need not in present)


def missing_input_findings(skipped: Mapping[str, list[str]]) -> list[Finding]:
    """One info finding per missing input: the rules it held back and how to provide it."""
    findings = []
    for need, rule_ids in skipped.items():
        item = INPUTS[need]
        names = ", ".join(rule_ids)
        findings.append(
            Finding(
                advisor=RULE_ID.split(".")[0],
                rule=RULE_ID,
                severity=Severity.INFO,
                title=f"Not checked without {item.what}",
                rationale=(
                    f"{len(rule_ids)} check(s) need {item.what} and could not run: {names}. "
                    f"Provide it with {item.provided_by}."
                ),
                evidence=(
                    Evidence("missing input", need, "audit inputs"),
                    Evidence("checks not run", names, "rule registry"),
                ),
                variable=None,
                current=None,
                recommended=None,
                restart_required=None,
                apply_sql=None,
                references=(),
                applies_to="all versions",
            )
        )
    return findings
