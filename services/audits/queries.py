"""Reading audits: one of the organisation's, or a filtered page of them."""

from __future__ import annotations

from sqlalchemy.orm import Session

from advisor.findings import Severity
from services.errors import InvalidInput, NotFound
from services.pagination import Page, after, check_limit, make_page
from store.models import Audit, AuditStatus
from store.repositories import audits as repository


def get_audit(session: Session, org_id: str, audit_id: str) -> Audit:
    """The organisation's audit, or NotFound."""
    audit = repository.get_audit(session, org_id, audit_id)
    if audit is None:
        raise NotFound(f"no audit {audit_id}")
    return audit


def list_audits(
    session: Session,
    org_id: str,
    *,
    server_id: str | None,
    status: str | None,
    severity: str | None,
    cursor: str | None,
    limit: int,
    newest: bool = False,
) -> Page[Audit]:
    """The organisation's audits, oldest first, filtered by server, status and worst severity."""
    if status is not None and status not in tuple(AuditStatus):
        raise InvalidInput(f"status must be one of {', '.join(AuditStatus)}")
    if severity is not None and severity not in tuple(Severity):
        raise InvalidInput(f"severity must be one of {', '.join(Severity)}")
    rows = repository.list_audits(
        session,
        org_id,
        server_id=server_id,
        status=status,
        severity=severity,
        after=after(cursor),
        limit=check_limit(limit),
        newest=newest,
    )
    return make_page(rows, limit, lambda audit: (audit.created_at, audit.id))
