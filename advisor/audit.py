"""The one entry point of the core: inputs (texts as uploaded) in, an audit result out.

The CLI, the API's validation on upload and the worker all call this module, so an
audit means the same thing everywhere. Everything here is pure: no files, no clock.
"""

from __future__ import annotations

from collections.abc import Iterable

from advisor.model import AuditInputs, AuditResult, InputSummary, Profile, Role, VersionSource

__all__ = [
    "ADVISOR_VERSION",
    "AuditInputs",
    "AuditResult",
    "InputSummary",
    "Profile",
    "Role",
    "VersionSource",
    "run_audit",
    "validate_inputs",
]

# Bump when a rule changes what it finds: stored audits record it, and the fleet
# dispatcher re-audits a server whose snapshot is unchanged only when this moved.
ADVISOR_VERSION = "2026.11.25.26"


def run_audit(
    inputs: AuditInputs, *, timings: dict[str, float] | None = None, prepared: bytes | None = None
) -> AuditResult:
    """Parse every input, run every advisor, settle conflicts and diff the my.cnf.

    Raises `advisor.errors.InputError` naming the file and line of the first bad input.
    `timings`, when given, gains the seconds spent parsing ("parse") and advising ("rules").
    `prepared` is `InputSummary.prepared` of the same inputs: when this parser wrote it, the dumps are
    read from it instead of parsed from their texts (which `inputs` may then leave out).
    """
    from advisor.engine import audit
    from advisor.prepared import read_prepared

    return audit(inputs, timings, read_prepared(prepared))


def validate_inputs(
    inputs: AuditInputs, *, fallback_version: str | None = None, watched: Iterable[str] = ()
) -> InputSummary:
    """Parse every input once without running advisors: what the API does on upload.

    The version is `inputs.server_version`, else the variables dump's `version`, else
    `fallback_version` (a server's known version); `VersionUnknown` (an InputError) when none.
    `watched` names the variables whose live values the summary carries.
    """
    from advisor.engine import parse_inputs
    from advisor.prepared import prepare

    parsed = parse_inputs(inputs, fallback_version=fallback_version)
    variables = parsed.variables
    settings = (
        {}
        if variables is None
        else {name: value for name in watched if (value := variables.get(name)) is not None}
    )
    return InputSummary(
        parsed.version, parsed.version_source, parsed.warnings, settings, prepare(parsed.dumps)
    )
