"""The fleet dispatcher: start the runs of due fleets, then turn waiting servers into queued audits.

Beat calls it every minute (task `fleets.dispatch`). Each call is one transaction's worth of work:
it claims due fleets and then up to `chunk_size` waiting servers with `SELECT … FOR UPDATE SKIP
LOCKED`, so any number of dispatchers share the work and none dispatches a server another holds.
It never commits; it enqueues each queued audit's run, which the caller's unit of work sends after
its commit.

A server is skipped when nothing changed since its last succeeded audit — the same snapshot
content, the same advisor version, the same server facts — unless its run was forced; and always
while an earlier audit of it is still queued or running (never two audits of a server in flight).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from advisor.audit import ADVISOR_VERSION
from services.fleets.runs import begin_run
from services.fleets.schedule import next_run_after
from services.jobs import RUN_AUDIT_BATCH, enqueue
from store.ids import new_id
from store.models import AuditStatus
from store.repositories import audits as audit_repository
from store.repositories import fleets as fleet_repository
from store.repositories import servers as server_repository
from store.repositories import snapshots as snapshot_repository

DEFAULT_CHUNK_SIZE = 500
#: audits per `audits.run_batch` task: one claim and one bulk store per batch, not per audit.
DEFAULT_AUDITS_PER_TASK = 25
#: fleets whose runs one call may start (each is one UPDATE over its servers).
FLEETS_PER_CALL = 50


@dataclass
class DispatchReport:
    """What one call did: runs started, servers claimed, audits queued (their runs enqueued), skips."""

    runs_started: list[str] = field(default_factory=list)
    claimed: int = 0
    audit_ids: list[str] = field(default_factory=list)
    #: servers not audited, by reason: unchanged, no_snapshot, in_flight (an audit still queued/running).
    skipped: Counter[str] = field(default_factory=Counter)
    #: True when the chunk was full: more servers may be waiting, call again.
    more: bool = False

    @property
    def skipped_unchanged(self) -> int:
        return self.skipped["unchanged"]

    @property
    def skipped_no_snapshot(self) -> int:
        return self.skipped["no_snapshot"]

    @property
    def skipped_in_flight(self) -> int:
        return self.skipped["in_flight"]


def start_due_runs(session: Session, now: datetime, report: DispatchReport) -> None:
    """Start a run of every due fleet this dispatcher could lock, and move its schedule on."""
    for fleet in fleet_repository.claim_due_fleets(session, now, FLEETS_PER_CALL):
        run = begin_run(session, fleet, now, forced=False, scheduled=True)
        fleet.next_run_at = next_run_after(fleet, now, previous=fleet.next_run_at)
        report.runs_started.append(run.id)
    session.flush()
    # A fleet without servers has nothing to dispatch: its scheduled run is not recorded.
    fleet_repository.discard_idle_runs(session, report.runs_started)


def _parameters(server: Any, snapshot: Any) -> dict[str, Any]:
    """What the audit runs with; the same as `services.audits.submit.server_parameters` for one server."""
    return {
        "server_version": None if snapshot.from_variables else (server.version or snapshot.server_version),
        "role": server.role,
        "profile": server.profile,
        "hardware": server.hardware,
    }


def _unchanged(last: Any, snapshot: Any, parameters: dict[str, Any]) -> bool:
    return (
        last is not None
        and last.content_hash == snapshot.content_hash
        and last.advisor_version == ADVISOR_VERSION
        and last.parameters == parameters
    )


@dataclass(frozen=True)
class _Snapshot:
    id: str
    content_hash: str
    server_version: str | None
    from_variables: bool


@dataclass(frozen=True)
class _LastAudit:
    advisor_version: str | None
    parameters: dict[str, Any]
    content_hash: str


def dispatch_chunk(
    session: Session,
    now: datetime,
    chunk_size: int,
    report: DispatchReport,
    audits_per_task: int = DEFAULT_AUDITS_PER_TASK,
) -> None:
    """Claim up to `chunk_size` waiting servers; queue an audit of each one's latest snapshot in one
    batched insert, or count it skipped; clear their marks; send the audits in batches of
    `audits_per_task`. Six queries whatever the chunk size (five for a forced run)."""
    servers = server_repository.claim_pending_servers(session, chunk_size)
    report.claimed = len(servers)
    report.more = len(servers) == chunk_size
    if not servers:
        return
    ids = [server.id for server in servers]
    run_ids = sorted({server.pending_fleet_run_id for server in servers if server.pending_fleet_run_id})
    snapshots = {
        row[0]: _Snapshot(row[1], row[2], row[3], bool(row[4]))
        for row in snapshot_repository.latest_snapshots_for(session, ids)
    }
    forced = fleet_repository.forced_runs(session, run_ids)
    # A forced run audits every server whatever its last audit: only other runs need to know it.
    last_audits = (
        {
            row[0]: _LastAudit(row[1], row[2], row[3])
            for row in audit_repository.last_succeeded_for(session, ids)
        }
        if not all(forced.get(run_id) for run_id in run_ids)
        else {}
    )
    in_flight = audit_repository.servers_in_flight(session, ids)
    rows: list[dict[str, Any]] = []
    skips: Counter[tuple[str, str]] = Counter()
    for server in servers:
        reason = _skip_reason(server, snapshots, last_audits, in_flight, forced)
        if reason is None:
            rows.append(_audit_row(server, snapshots[server.id], now))
        else:
            skips[(server.pending_fleet_run_id, reason)] += 1
    audit_repository.add_audits(session, rows)
    server_repository.clear_pending(session, ids)
    for run_id in sorted({run_id for run_id, _ in skips}):
        fleet_repository.add_skips(
            session,
            run_id,
            unchanged=skips[(run_id, "unchanged")],
            no_snapshot=skips[(run_id, "no_snapshot")],
            in_flight=skips[(run_id, "in_flight")],
        )
    # A scheduled run whose every server was skipped (nothing changed) is not recorded.
    queued_for = {row["fleet_run_id"] for row in rows}
    fleet_repository.discard_idle_runs(session, [run_id for run_id in run_ids if run_id not in queued_for])
    report.audit_ids.extend(row["id"] for row in rows)
    ids = [row["id"] for row in rows]
    for start in range(0, len(ids), audits_per_task):  # a worker claims, runs and stores each batch
        enqueue(RUN_AUDIT_BATCH, *ids[start : start + audits_per_task])
    for (_, reason), count in skips.items():
        report.skipped[reason] += count


def _skip_reason(
    server: Any,
    snapshots: dict[str, _Snapshot],
    last_audits: dict[str, _LastAudit],
    in_flight: set[str],
    forced: dict[str, bool],
) -> str | None:
    """Why this server gets no audit in this run, or None: it gets one."""
    snapshot = snapshots.get(server.id)
    if snapshot is None:
        return "no_snapshot"
    if server.id in in_flight:
        return "in_flight"
    if forced.get(server.pending_fleet_run_id):
        return None
    if _unchanged(last_audits.get(server.id), snapshot, _parameters(server, snapshot)):
        return "unchanged"
    return None


def _audit_row(server: Any, snapshot: _Snapshot, now: datetime) -> dict[str, Any]:
    return {
        "id": new_id(),
        "organization_id": server.organization_id,
        "server_id": server.id,
        "snapshot_id": snapshot.id,
        "status": AuditStatus.QUEUED,
        "parameters": _parameters(server, snapshot),
        "attempts": 0,
        "fleet_run_id": server.pending_fleet_run_id,
        "created_at": now,
        "updated_at": now,
    }


def dispatch_due(
    session: Session,
    now: datetime,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    audits_per_task: int = DEFAULT_AUDITS_PER_TASK,
) -> DispatchReport:
    """Start the runs of due fleets, then dispatch one chunk of waiting servers; never commits.

    Call again while `report.more`, each call in a unit of work of its own: its commit sends the
    chunk's audits to the workers.
    """
    report = DispatchReport()
    start_due_runs(session, now, report)
    dispatch_chunk(session, now, chunk_size, report, audits_per_task)
    return report
