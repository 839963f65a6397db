"""Fleets: groups of servers re-audited on a schedule, their runs, the dispatcher and the summary.

`manage` creates, reads, changes and deletes fleets; `schedule` computes their next run; `runs`
starts re-audits and reports their progress; `dispatch` turns waiting servers into queued audits;
`summary` is the fleet at a glance; `jobs` holds the body of `fleets.dispatch`.
"""

from services.fleets.manage import (
    FleetFields,
    create_fleet,
    delete_fleet,
    fleet_for_reference,
    get_fleet,
    list_fleets,
    update_fleet,
)
from services.fleets.runs import begin_run, get_run_progress, latest_run_progress, run_progress, start_reaudit
from services.fleets.schedule import check_cron, check_interval, next_run_after
from services.fleets.summary import fleet_summary

__all__ = [
    "FleetFields",
    "begin_run",
    "check_cron",
    "check_interval",
    "create_fleet",
    "delete_fleet",
    "fleet_for_reference",
    "fleet_summary",
    "get_fleet",
    "get_run_progress",
    "latest_run_progress",
    "list_fleets",
    "next_run_after",
    "run_progress",
    "start_reaudit",
    "update_fleet",
]
