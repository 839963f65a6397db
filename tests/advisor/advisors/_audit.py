"""Build an audit context from raw inputs, the way the engine does, for advisor unit tests."""

from __future__ import annotations

from advisor.audit import AuditInputs
from advisor.context import AuditContext
from advisor.engine import build_context, parse_inputs


def context(inputs: AuditInputs) -> AuditContext:
    """Parse the inputs and build the immutable context the rules read."""
    return build_context(parse_inputs(inputs), inputs)
