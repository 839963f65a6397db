"""What the audit endpoints share: long-polling until an audit finishes.

An endpoint that long-polls submits in a unit of work of its own (`services.jobs.unit_of_work`):
it commits the queued audit and sends its job before the polling starts, so a worker never looks
for an audit that is not there yet and the poll can see it finish. Waiting polls the database with
a fresh session each time and holds no transaction (nor a threadpool thread) between polls.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from starlette.concurrency import run_in_threadpool

from api.deps import MAX_WAIT_SECONDS
from services import audits
from store.db import unit_of_work
from store.models import FINISHED_STATUSES

POLL_INTERVAL_SECONDS = 0.05


def audit_location(audit_id: str) -> str:
    return f"/v1/audits/{audit_id}"


def load_audit(org_id: str, audit_id: str, *, with_files: bool = False) -> dict[str, Any]:
    """The audit resource read in a unit of work of its own (NotFound for another organisation's)."""
    with unit_of_work() as session:
        audit = audits.get_audit(session, org_id, audit_id)
        view = audits.audit_as_dict(audit)
        if with_files:
            view["diff"] = audit.diff
            view["mycnf"] = audit.mycnf
            view["files"] = audit.files
            view["dropin"] = audit.dropin
        return view


async def wait_for_audit(
    org_id: str, audit_id: str, wait_seconds: float, *, with_files: bool = False
) -> dict[str, Any]:
    """Poll every ~50 ms until the audit has finished or `wait_seconds` (capped) ran out."""
    deadline = time.monotonic() + min(max(wait_seconds, 0.0), MAX_WAIT_SECONDS)
    while True:
        view = await run_in_threadpool(load_audit, org_id, audit_id, with_files=with_files)
        remaining_seconds = deadline - time.monotonic()
        if is_finished(view) or remaining_seconds <= 0:
            return view
        await asyncio.sleep(min(POLL_INTERVAL_SECONDS, remaining_seconds))


def is_finished(view: dict[str, Any]) -> bool:
    return view["status"] in FINISHED_STATUSES
