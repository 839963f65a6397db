"""Job `audits.run_batch`: a chunk of a fleet run's audits in one task.

One transaction claims them (`FOR UPDATE SKIP LOCKED`: an audit another worker holds is its own)
and marks them running; the advisor runs over each; one more transaction stores every outcome in
one bulk UPDATE, with each server's previous audit read in one query. Per audit that is no
transaction and no round trip of its own — what made a 10,000-server re-audit slow.
A batch re-delivered after its worker died runs its unfinished audits again, like `audits.run`.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from advisor.audit import ADVISOR_VERSION, AuditInputs, run_audit, validate_inputs
from advisor.errors import InputError
from conf.settings import get_settings
from services.audits.results import succeeded_values
from services.audits.runs import MAX_ERROR_CHARS, short_error
from services.jobs import RUN_AUDIT_BATCH, SEND_CALLBACK, enqueue, unit_of_work
from services.jobs.registry import job
from services.snapshots import audit_inputs, prepared_form, read_prepared_form
from services.telemetry import audit_finished
from store.ids import utcnow
from store.models import FINISHED_STATUSES, RESULT_ATTRIBUTES, Audit, AuditStatus, Snapshot
from store.repositories.audits import previous_succeeded_for
from store.repositories.fleets import count_finished

logger = logging.getLogger(__name__)


@dataclass
class BatchReport:
    """What one batch did and where its time went (seconds): claim, parse, rules, store."""

    succeeded: int = 0
    failed: int = 0
    skipped: int = 0
    #: this process's CPU time for the whole batch (the rest of the wall time is waiting)
    cpu_seconds: float = 0.0
    timings: dict[str, float] = field(
        default_factory=lambda: dict.fromkeys(("claim", "parse", "rules", "store"), 0.0)
    )


@dataclass(frozen=True)
class _Claimed:
    id: str
    parameters: dict[str, Any]
    callback_url: str | None
    snapshot_id: str
    content_hash: str
    fleet_run_id: str | None
    #: the stored inputs, without their dump texts when `dumps` (advisor.prepared) stands in for them
    inputs: dict[str, Any] | None = None
    dumps: bytes | None = None


def _claim(session: Session, audit_ids: list[str], max_attempts: int, report: BatchReport) -> list[_Claimed]:
    """Lock the batch's unfinished audits and mark them running; fail those out of attempts."""
    rows = session.execute(
        select(
            Audit.id,
            Audit.status,
            Audit.attempts,
            Audit.parameters,
            Audit.callback_url,
            Audit.fleet_run_id,
            Audit.snapshot_id,
            Snapshot.prepared,
            Snapshot.content_hash,
        )
        .join(Snapshot, Snapshot.id == Audit.snapshot_id)
        .where(Audit.id.in_(audit_ids))
        .with_for_update(of=Audit, skip_locked=True)
    ).all()
    now = utcnow()
    claimed: list[_Claimed] = []
    gave_up: list[dict[str, Any]] = []
    gave_up_by_run: Counter[str] = Counter()
    for row in rows:
        if row.status in FINISHED_STATUSES:
            continue
        if row.attempts >= max_attempts:
            error = f"gave up after {row.attempts} attempts: the worker stopped each time"
            gave_up.append({**_cleared(), "id": row.id, **_finished(now, AuditStatus.FAILED, error)})
            if row.fleet_run_id:
                gave_up_by_run[row.fleet_run_id] += 1
            if row.callback_url:
                enqueue(SEND_CALLBACK, row.id)
            continue
        form = read_prepared_form(row.prepared)
        claimed.append(
            _Claimed(
                row.id,
                row.parameters,
                row.callback_url,
                row.snapshot_id,
                row.content_hash,
                row.fleet_run_id,
                *(form or (None, None)),
            )
        )
    if claimed:  # one statement for the batch (the rows are locked: attempts + 1 is exact)
        session.execute(
            update(Audit)
            .where(Audit.id.in_([audit.id for audit in claimed]))
            .values(
                status=AuditStatus.RUNNING,
                attempts=Audit.attempts + 1,
                started_at=now,
                finished_at=None,
                updated_at=now,
            )
            .execution_options(synchronize_session=False)
        )
    if gave_up:
        session.execute(update(Audit), gave_up)
        count_finished(session, {run_id: (0, n) for run_id, n in gave_up_by_run.items()})
    report.failed += len(gave_up)
    report.skipped += len(audit_ids) - len(claimed) - len(gave_up)
    return _with_texts(session, claimed)


def _with_texts(session: Session, claimed: list[_Claimed]) -> list[_Claimed]:
    """The stored inputs of the audits whose snapshot has no prepared form this parser wrote (stored
    before there was one, or by an older parser): their texts are parsed again."""
    wanted = {audit.snapshot_id for audit in claimed if audit.inputs is None}
    if not wanted:
        return claimed
    rows = session.execute(select(Snapshot.id, Snapshot.inputs).where(Snapshot.id.in_(wanted))).all()
    texts = {row.id: row.inputs for row in rows}
    return [
        audit if audit.inputs is not None else replace(audit, inputs=texts[audit.snapshot_id])
        for audit in claimed
    ]


def _cleared() -> dict[str, Any]:
    values: dict[str, Any] = {f"stored_{name}": None for name in RESULT_ATTRIBUTES}
    values.update(
        result_of=None, result_hash=None, worst_severity=None, drift=None, finding_keys=None, changes=None
    )
    return values


def _finished(now: Any, status: AuditStatus, error: str | None = None) -> dict[str, Any]:
    return {
        "status": status,
        "error": error[:MAX_ERROR_CHARS] if error else None,
        "finished_at": now,
        "updated_at": now,
    }


@job(RUN_AUDIT_BATCH)
def run_audit_batch(*audit_ids: str) -> BatchReport:
    """Claim, run and store a batch of queued audits (ids); failures fail their audit, not the batch."""
    report = BatchReport()
    timings = report.timings
    cpu_began = time.process_time()
    began = time.perf_counter()
    with unit_of_work() as session:
        claimed = _claim(session, list(audit_ids), get_settings().audit_max_attempts, report)
    timings["claim"] += time.perf_counter() - began
    outcomes: dict[str, Any] = {}
    seconds: dict[str, float] = {}
    refreshed: dict[str, bytes] = {}  # snapshot id → the prepared form this parser writes
    for audit in claimed:
        audit_began = time.perf_counter()
        try:
            inputs = audit_inputs(audit.inputs or {}, audit.parameters)
            dumps = audit.dumps
            if dumps is None:
                parse_began = time.perf_counter()
                dumps = _prepare(audit, inputs, refreshed)
                timings["parse"] += time.perf_counter() - parse_began
            outcomes[audit.id] = run_audit(inputs, timings=timings, prepared=dumps)
        except InputError as exc:
            outcomes[audit.id] = exc.describe()
        except Exception as exc:  # a bug: this audit says failed, the log keeps the traceback
            logger.exception("audit %s raised while running", audit.id)
            outcomes[audit.id] = short_error(exc)
        seconds[audit.id] = time.perf_counter() - audit_began
    began = time.perf_counter()
    with unit_of_work() as session:
        _store(session, claimed, outcomes, report)
        if refreshed:  # the next re-audit of these snapshots reads them prepared again
            session.execute(
                update(Snapshot), [{"id": key, "prepared": blob} for key, blob in refreshed.items()]
            )
    timings["store"] += time.perf_counter() - began
    for audit_id, outcome in outcomes.items():
        audit_finished("failed" if isinstance(outcome, str) else "succeeded", seconds[audit_id])
    report.cpu_seconds = time.process_time() - cpu_began
    logger.info(
        "audit batch: %d succeeded, %d failed, %d skipped",
        report.succeeded,
        report.failed,
        report.skipped,
        extra={
            "batch_ms": {name: round(value * 1000, 2) for name, value in timings.items()},
            "batch_cpu_ms": round(report.cpu_seconds * 1000, 2),
        },
    )
    return report


def _prepare(audit: _Claimed, inputs: AuditInputs, refreshed: dict[str, bytes]) -> bytes | None:
    """Parse the texts of a snapshot whose prepared form is missing or another parser's, once, and keep
    the form this parser writes for it (after a parser change every stored form is stale: without this,
    every later re-audit of those snapshots would parse them again)."""
    prepared = validate_inputs(inputs).prepared
    if prepared and audit.inputs is not None:
        refreshed[audit.snapshot_id] = prepared_form(audit.inputs, prepared)
    return prepared or None


def _store(session: Session, claimed: list[_Claimed], outcomes: dict[str, Any], report: BatchReport) -> None:
    """Every outcome in one bulk UPDATE (a reference where the server's previous audit is the same)."""
    previous = previous_succeeded_for(
        session, [audit.id for audit in claimed if not isinstance(outcomes[audit.id], str)]
    )
    now = utcnow()
    values = []
    by_run: dict[str, tuple[int, int]] = {}
    for audit in claimed:
        outcome = outcomes[audit.id]
        if audit.fleet_run_id:
            succeeded, failed = by_run.get(audit.fleet_run_id, (0, 0))
            failing = isinstance(outcome, str)
            by_run[audit.fleet_run_id] = (succeeded + (not failing), failed + failing)
        if isinstance(outcome, str):  # the error
            values.append(
                {
                    "id": audit.id,
                    **_cleared(),
                    "advisor_version": ADVISOR_VERSION,
                    **_finished(now, AuditStatus.FAILED, outcome),
                }
            )
            report.failed += 1
        else:
            stored = succeeded_values(outcome, audit.content_hash, previous.get(audit.id))
            values.append({"id": audit.id, **stored, **_finished(now, AuditStatus.SUCCEEDED)})
            report.succeeded += 1
        if audit.callback_url:
            enqueue(SEND_CALLBACK, audit.id)
    if values:
        session.execute(update(Audit), values)
        count_finished(session, by_run)
