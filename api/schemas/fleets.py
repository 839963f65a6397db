"""Fleets: groups of servers re-audited on a schedule; their runs and their summary."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from api.schemas.audits import DriftEntry, FindingRead
from api.schemas.common import InputModel, Profile, ReadModel, Role

CRON_DESCRIPTION = "Five-field cron expression in UTC (e.g. `0 3 * * *`) or an alias such as `@daily`."
INTERVAL_DESCRIPTION = "Re-audit every this many seconds."


class FleetCreate(InputModel):
    """A fleet with exactly one schedule: `schedule_cron` or `schedule_interval_seconds`."""

    name: str = Field(min_length=1, max_length=200, description="Unique within the organisation.")
    schedule_cron: str | None = Field(None, max_length=120, description=CRON_DESCRIPTION)
    schedule_interval_seconds: int | None = Field(
        None, ge=1, le=366 * 86400, description=INTERVAL_DESCRIPTION
    )
    default_role: Role = Field("standalone", description="The role of a server created into the fleet.")
    default_profile: Profile = Field("production", description="The profile of a server created into it.")


class FleetUpdate(InputModel):
    """Only the fields present change. Giving one schedule clears the other; a new schedule restarts."""

    name: str | None = Field(None, min_length=1, max_length=200)
    schedule_cron: str | None = Field(None, max_length=120, description=CRON_DESCRIPTION)
    schedule_interval_seconds: int | None = Field(
        None, ge=1, le=366 * 86400, description=INTERVAL_DESCRIPTION
    )
    default_role: Role | None = None
    default_profile: Profile | None = None

    def changes(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.model_fields_set}


class FleetRead(ReadModel):
    id: str
    name: str
    schedule_cron: str | None
    schedule_interval_seconds: int | None
    default_role: str
    default_profile: str
    next_run_at: datetime = Field(description="When the dispatcher next starts a re-audit of the fleet.")
    last_dispatch_at: datetime | None
    created_at: datetime


class RunProgress(ReadModel):
    """A fleet re-audit: `done` of `total` servers (audited, failed or skipped as unchanged)."""

    id: str
    fleet_id: str
    started_at: datetime
    forced: bool
    total: int = Field(description="Servers of the fleet when the run started.")
    done: int = Field(description="Servers finished: succeeded, failed or skipped.")
    pending: int = Field(description="Servers not dispatched yet.")
    queued: int
    running: int
    succeeded: int
    failed: int
    skipped_unchanged: int = Field(
        description="Same snapshot, advisor version and server facts: not re-audited."
    )
    skipped_no_snapshot: int = Field(description="Nothing uploaded yet.")
    skipped_in_flight: int = Field(description="An earlier audit of the server was still queued or running.")
    finished: bool


class ServerBrief(ReadModel):
    id: str
    name: str
    audit_id: str | None


class SeverityGroup(ReadModel):
    count: int
    servers: list[ServerBrief] = Field(description="The first 50 of them, by name.")


class RuleCount(ReadModel):
    rule: str
    servers: int = Field(description="Servers whose latest audit raised it.")


class DepartingServer(ServerBrief):
    value: str


class Departure(ReadModel):
    """A watched variable whose live value is not the same on every server."""

    variable: str
    majority_value: str
    majority_servers: int
    servers_with_value: int
    departing_count: int
    departing: list[DepartingServer] = Field(description="The first 50 departing servers.")


class NewlyWrongServer(ServerBrief):
    new: list[str] = Field(description="`rule|variable` of the findings its previous audit did not have.")


class NewlyWrong(ReadModel):
    count: int
    servers: list[NewlyWrongServer]


class FleetSummary(ReadModel):
    """The fleet at a glance, over each server's latest finished audit."""

    fleet_id: str
    name: str
    servers: int
    by_severity: dict[str, SeverityGroup] = Field(
        description="critical, warning, notice, info (worst finding), clean, failed, unaudited."
    )
    top_rules: list[RuleCount] = Field(description="The ten rules raised on the most servers.")
    departures: list[Departure]
    newly_wrong: NewlyWrong
    latest_run: RunProgress | None


class FindingChange(ReadModel):
    rule: str
    variable: str | None
    severity: str
    severity_before: str | None
    title: str
    current: str | None
    recommended: str | None


class FindingsComparison(ReadModel):
    new: list[FindingRead]
    resolved: list[FindingRead] = Field(
        description="Gone from the later audit, and the server does not run the old value any more."
    )
    not_yet_live: list[FindingRead] = Field(
        default_factory=list,
        description="Gone from the later audit's files only: the server still runs the old value "
        "(restart it, or run the drift entry's SQL). Never counted as resolved.",
    )
    unchanged: list[FindingChange]


class LineChange(ReadModel):
    line: int
    text: str


class FileChange(ReadModel):
    path: str
    removed: list[LineChange] = Field(description="Lines of the earlier file, numbered in it.")
    added: list[LineChange] = Field(description="Lines of the later file, numbered in it.")
    diff: str = Field(description="Unified diff of the two uploads (secrets redacted).")


class OptionFilesComparison(ReadModel):
    changed: bool
    files: list[FileChange]


class DriftComparison(ReadModel):
    live_vs_file: list[DriftEntry] = Field(
        description="Live values (SHOW VARIABLES) that differ from the file."
    )
    new: list[str]
    resolved: list[str]


class SeverityChange(ReadModel):
    before: str | None
    after: str | None


class AuditComparison(ReadModel):
    """How an audit differs from an earlier one: findings, the uploaded option files, live-vs-file drift."""

    audit_id: str
    previous_audit_id: str | None
    server_id: str | None
    worst_severity: SeverityChange
    findings: FindingsComparison
    mycnf: OptionFilesComparison
    drift: DriftComparison
