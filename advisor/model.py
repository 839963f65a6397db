"""The core's types: what an audit takes in, what it gives back, and the words for role and profile.

Role and Profile are the one home of those word lists: the CLI, the services and the API validate
against them. Everything here is pure data.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

from msgspec import Struct, field

from advisor.errors import InputWarning
from advisor.findings import Finding

if TYPE_CHECKING:
    from advisor.context import Setting
    from advisor.differ import RecommendedFile
    from advisor.dropin import DropIn
    from advisor.version import ServerVersion


class Role(StrEnum):
    """The server's place in replication."""

    PRIMARY = "primary"
    REPLICA = "replica"
    STANDALONE = "standalone"


class Profile(StrEnum):
    """What the server is for: production traffic, or a CI/test box where durability may be traded."""

    PRODUCTION = "production"
    CI = "ci"


class AuditInputs(Struct, frozen=True):
    """Everything a user can tell us about one server, as raw texts with their file names.

    `mycnf` maps each uploaded option file's path to its text (includes resolve by path).
    `status` holds zero, one or two SHOW GLOBAL STATUS dumps, oldest first.
    `hardware` is a JSON text (or None); `memory`/`cpus`/`storage`/`memory_limit` are the
    CLI-style overrides. `server_version` wins over the version in `variables`.
    `role` and `profile` take the enum or its word (`"primary"`); they are kept as given.
    `persisted` is what MySQL 8.0+ keeps in mysqld-auto.cnf (advisor.inputs.persisted): read after the
    option files at every restart.
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
    role: Role = Role.STANDALONE
    profile: Profile = Profile.PRODUCTION
    variables_name: str = "variables"
    status_names: tuple[str, ...] = ()
    innodb_status_name: str = "innodb_status"
    schema_name: str = "schema"
    hardware_name: str = "hardware.json"
    persisted: str | None = None
    persisted_name: str = "persisted"


#: Where the audited version came from: given explicitly, read from the variables dump's `version`,
#: or the caller's fallback (a server's known version).
VersionSource = Literal["given", "variables", "fallback"]


class InputSummary(Struct, frozen=True):
    """An upload parsed once: the version and where it came from, the warnings, the watched live values."""

    version: ServerVersion
    version_source: VersionSource
    warnings: tuple[InputWarning, ...]
    #: live values (SHOW GLOBAL VARIABLES) of the variables the caller watches, when the dump has them.
    settings: Mapping[str, str] = field(default_factory=dict)
    #: the parsed dumps in their prepared form (advisor.prepared): what a later audit reads instead of the texts
    prepared: bytes = b""


class Drift(Struct, frozen=True):
    """A setting whose running value is not the option file's: in the file, not yet live.

    `apply_sql` brings the running server to the file's value without a restart; None when the
    variable is not dynamic (a restart applies it) or when the target version does not say. `reason`
    says why the server runs another value than the file's when neither SQL nor a restart changes
    that (a table_open_cache lowered to fit open_files_limit)."""

    setting: Setting
    apply_sql: str | None = None
    reason: str | None = None
    #: without SQL: True when a restart applies the file's value (with a reason: when the remedy it names
    #: takes a restart — a higher open-files limit), None when it is not known whether the variable is
    #: dynamic (a name outside the catalog).
    restart: bool | None = True

    def to_dict(self) -> dict[str, Any]:
        setting = self.setting
        return {
            "name": setting.name,
            "file_value": setting.file_value,
            "live_value": setting.live_value,
            "live_source": setting.live_source,
            "file": setting.file,
            "line": setting.line,
            "apply_sql": self.apply_sql,
            "persisted_value": setting.persisted_value,
            "restart_required": self.restart if self.apply_sql is None else False,
            "reason": self.reason,
        }


class AuditResult(Struct, frozen=True):
    """Findings sorted by severity, the unified diff of the my.cnf and the recommended file."""

    flavor: str
    version: str
    findings: tuple[Finding, ...]
    diff: str
    mycnf: str
    warnings: tuple[InputWarning, ...] = ()
    #: the numbers behind the pictures (AuditFigures.to_dict); {} when not computed.
    figures: Mapping[str, int | None] = field(default_factory=dict)
    #: settings whose live value (SHOW VARIABLES) differs from the option file's: unapplied changes.
    drift: tuple[Drift, ...] = ()
    #: every uploaded option file with its path, recommended text and diff (upload order).
    files: tuple[RecommendedFile, ...] = ()
    #: the override-file alternative to editing the files, or None when nothing changes.
    dropin: DropIn | None = None
    #: `path:line` of the lines holding secrets: never in a diff, a comment in the recommended copies.
    secrets_kept_out: tuple[str, ...] = ()

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
            "files": [file.to_dict() for file in self.files],
            "dropin": self.dropin.to_dict() if self.dropin is not None else None,
            "secrets_kept_out": list(self.secrets_kept_out),
            "warnings": [warning.describe() for warning in self.warnings],
            "drift": [item.to_dict() for item in self.drift],
            "figures": dict(self.figures),
        }
