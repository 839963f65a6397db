"""What the audit endpoints share: commit-then-enqueue, and long-polling until an audit finishes.

The audit row is committed as `queued` before its task is sent, so a worker never looks for an
audit that is not there yet. Waiting polls the database with a fresh session each time and holds
no transaction (nor a threadpool thread) between polls.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from api.deps import MAX_WAIT_SECONDS
from services import audits, queue
from store.db import unit_of_work
from store.models import Audit

POLL_INTERVAL_SECONDS = 0.05
FINISHED_STATUSES = frozenset({"succeeded", "failed"})
logger = logging.getLogger(__name__)


def audit_location(audit_id: str) -> str:
    return f"/v1/audits/{audit_id}"


def commit_and_enqueue(session: Session, audit: Audit, created: bool) -> str:
    """Commit the request's work, then send a new audit's task; return the audit id.

    A broker that refuses the task leaves the audit queued: the sweeper re-sends stuck audits,
    so the client still gets its 202 rather than an error for work that was recorded.
    """
    audit_id = audit.id
    session.commit()
    if created:
        try:
            queue.enqueue_audit(audit_id)
        except Exception:
            logger.exception("enqueue failed; the sweeper will retry", extra={"audit_id": audit_id})
    return audit_id


def load_audit(org_id: str, audit_id: str, *, with_files: bool = False) -> dict[str, Any]:
    """The audit resource read in a unit of work of its own (NotFound for another organisation's)."""
    with unit_of_work() as session:
        audit = audits.get_audit(session, org_id, audit_id)
        view = audits.audit_as_dict(audit)
        if with_files:
            view["diff"] = audit.diff
            view["mycnf"] = audit.mycnf
        return view


async def wait_for_audit(
    org_id: str, audit_id: str, wait_seconds: float, *, with_files: bool = False
) -> dict[str, Any]:
    """Poll every ~50 ms until the audit has finished or `wait_seconds` (capped) ran out."""
    deadline = time.monotonic() + min(max(wait_seconds, 0.0), MAX_WAIT_SECONDS)
    while True:
        view = await run_in_threadpool(load_audit, org_id, audit_id, with_files=with_files)
        remaining_seconds = deadline - time.monotonic()
        if view["status"] in FINISHED_STATUSES or remaining_seconds <= 0:
            return view
        await asyncio.sleep(min(POLL_INTERVAL_SECONDS, remaining_seconds))


def is_finished(view: dict[str, Any]) -> bool:
    return view["status"] in FINISHED_STATUSES
