"""What the durability rules share: helpers and manual pages."""

from __future__ import annotations

from advisor.context import AuditContext
from advisor.findings import Severity
from advisor.model import Role


def relaxed_for_role(ctx: AuditContext) -> Severity | None:
    """A replica may trade durability for speed: its findings drop to notices."""
    return Severity.NOTICE if ctx.role == Role.REPLICA else None
