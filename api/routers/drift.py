"""Drift: a server's latest audit against its previous one, and any two audits compared."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import CurrentOrg, DbSession
from api.schemas.common import AUTHENTICATED, problem_responses
from api.schemas.fleets import AuditComparison
from services import drift

router = APIRouter(prefix="/v1", tags=["drift"])


@router.get(
    "/servers/{server_id}/drift",
    summary="What changed since the server's previous audit",
    responses=problem_responses(404, *AUTHENTICATED),
)
def server_drift(server_id: str, org: CurrentOrg, session: DbSession) -> AuditComparison:
    """The latest succeeded audit against the one before it: findings new, resolved and unchanged,
    option-file lines changed, and live values that differ from the file. 404 before any audit succeeded."""
    return AuditComparison.model_validate(drift.server_drift(session, org.id, server_id))


@router.get(
    "/audits/{audit_id}/compare/{other_id}",
    summary="Compare two audits",
    responses=problem_responses(404, 409, *AUTHENTICATED),
)
def compare_audits(audit_id: str, other_id: str, org: CurrentOrg, session: DbSession) -> AuditComparison:
    """`audit_id` against `other_id` as the baseline: `new` findings are those `other_id` did not have.
    Both audits must have succeeded (409 otherwise)."""
    return AuditComparison.model_validate(drift.compare(session, org.id, audit_id, other_id))
