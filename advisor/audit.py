"""The one entry point of the core: inputs (texts as uploaded) in, an audit result out.

The CLI, the API's validation on upload and the worker all call this module, so an
audit means the same thing everywhere. Everything here is pure: no files, no clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from advisor.errors import InputWarning
from advisor.findings import Finding

if TYPE_CHECKING:
    from advisor.context import Setting

Role = Literal["primary", "replica", "standalone"]
Profile = Literal["production", "ci"]

# Bump when a rule changes what it finds: stored audits record it, and the fleet
# dispatcher re-audits a server whose snapshot is unchanged only when this moved.
ADVISOR_VERSION = "2026.11.22"


@dataclass(frozen=True)
class AuditInputs:
    """Everything a user can tell us about one server, as raw texts with their file names.

    `mycnf` maps each uploaded option file's path to its text (includes resolve by path).
    `status` holds zero, one or two SHOW GLOBAL STATUS dumps, oldest first.
    `hardware` is a JSON text (or None); `memory`/`cpus`/`storage`/`memory_limit` are the
    CLI-style overrides. `server_version` wins over the version in `variables`.
    """

    mycnf: Mapping[str, str] = field(default_factory=dict)
    variables: str | None = None
    status: tuple[str, ...] = ()
    innodb_status: str | None = None
    schema: str | None = None
    hardware: str | None = None
    memory: str | None = None
    memory_limit: str | None = None
    cpus: int | None = None
    storage: str | None = None
    server_version: str | None = None
    role: Role = "standalone"
    profile: Profile = "production"
    variables_name: str = "variables"
    status_names: tuple[str, ...] = ()
    innodb_status_name: str = "innodb_status"
    schema_name: str = "schema"
    hardware_name: str = "hardware.json"


@dataclass(frozen=True)
class AuditResult:
    """Findings sorted by severity, the unified diff of the my.cnf and the recommended file."""

    flavor: str
    version: str
    findings: tuple[Finding, ...]
    diff: str
    mycnf: str
    warnings: tuple[InputWarning, ...] = ()
    #: the numbers behind the pictures (advisor.figures.AuditFigures.to_dict); {} when not computed.
    figures: Mapping[str, int | None] = field(default_factory=dict)
    #: settings whose live value (SHOW VARIABLES) differs from the option file's: unapplied changes.
    drift: tuple[Setting, ...] = ()

    @property
    def worst_severity(self) -> str | None:
        return min(self.findings, key=lambda f: f.severity.rank).severity.value if self.findings else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON object printed by `innotune audit --format json` and stored by the service."""
        return {
            "server": {"flavor": self.flavor, "version": self.version},
            "findings": [finding.to_dict() for finding in self.findings],
            "diff": self.diff,
            "mycnf": self.mycnf,
            "warnings": [warning.describe() for warning in self.warnings],
            "drift": [
                {
                    "name": setting.name,
                    "file_value": setting.file_value,
                    "live_value": setting.live_value,
                    "file": setting.file,
                    "line": setting.line,
                }
                for setting in self.drift
            ],
            "figures": dict(self.figures),
        }


def run_audit(inputs: AuditInputs) -> AuditResult:
    """Parse every input, run every advisor, settle conflicts and diff the my.cnf.

    Raises `advisor.errors.InputError` naming the file and line of the first bad input.
    """
    from advisor.engine import audit

    return audit(inputs)


def validate_inputs(inputs: AuditInputs) -> tuple[InputWarning, ...]:
    """Parse every input without running advisors: what the API does on upload."""
    from advisor.engine import parse_inputs

    return parse_inputs(inputs).warnings
