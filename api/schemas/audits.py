"""Audits: their life (queued → running → succeeded | failed), timings and findings."""

from __future__ import annotations

from datetime import datetime

from pydantic import AnyHttpUrl, ConfigDict, Field

from api.schemas.common import AuditStatus, InputModel, ReadModel, Severity


class AuditCreate(InputModel):
    """Audit a server's snapshot (its latest when `snapshot_id` is omitted)."""

    server_id: str = Field(min_length=1, max_length=36)
    snapshot_id: str | None = Field(None, min_length=1, max_length=36)
    callback_url: AnyHttpUrl | None = Field(
        None, description="POSTed the audit when it finishes, signed with X-InnoTune-Signature."
    )


class EvidenceRead(ReadModel):
    label: str
    value: str
    source: str


class FindingRead(ReadModel):
    """One finding, with the same fields as `innotune audit --format json`."""

    model_config = ConfigDict(extra="allow")

    advisor: str
    rule: str
    severity: Severity
    title: str
    rationale: str
    evidence: list[EvidenceRead]
    variable: str | None
    current: str | None = Field(
        description="The value in effect, spelled like `recommended` (`128M` beside `512M`)."
    )
    recommended: str | None = Field(description="As written in the my.cnf; null: no new value.")
    current_value: int | None = Field(
        None, description="`current` as a number (bytes, count, seconds) for a numeric variable."
    )
    recommended_value: int | None = Field(
        None, description="`recommended` as a number, like `current_value`."
    )
    option_file: str | None = Field(None, description="The option file line this finding is about, if any.")
    option_line: int | None = None
    restart_required: bool | None
    apply_sql: str | None
    references: list[str]
    applies_to: str


class DriftEntry(ReadModel):
    """A variable set in the option file whose running value is another: in the file, not yet live."""

    name: str
    file_value: str | None
    live_value: str | None
    live_source: str = Field(
        "SHOW GLOBAL VARIABLES",
        description="Where the running value was read (a status counter for the pool).",
    )
    file: str | None
    line: int | None
    persisted_value: str | None = Field(
        None,
        description="MySQL 8.0+: the value mysqld-auto.cnf persists (SET PERSIST), which a restart brings back "
        "over the file's; the drift is from it when given.",
    )
    apply_sql: str | None = Field(
        None, description="Applies the file's value without a restart; null: see restart_required."
    )
    restart_required: bool | None = Field(
        None,
        description="True: only a restart applies the file's value (with a reason: the remedy the reason names "
        "takes a restart, e.g. a higher open-files limit); false: SQL applies it, or the file's value can never "
        "run (see reason); null: not known whether the variable is dynamic (a name outside the version catalog).",
    )
    reason: str | None = Field(
        None,
        description="Why the server runs another value than the file's when neither SQL nor a restart "
        "changes that (a table_open_cache lowered to fit open_files_limit); null otherwise.",
    )


class ServerFacts(ReadModel):
    flavor: str | None = None
    version: str | None = None
    role: str | None = Field(None, description="The role the audit runs as.")


class AuditFigures(ReadModel):
    """The numbers behind the audit's pictures, in bytes (the rate in bytes per hour); null when the
    inputs do not tell them."""

    usable_memory_bytes: int | None = None
    buffer_pool_bytes: int | None = None
    recommended_buffer_pool_bytes: int | None = None
    dataset_bytes: int | None = Field(None, description="InnoDB data and indexes, from schema facts.")
    redo_capacity_bytes: int | None = None
    recommended_redo_capacity_bytes: int | None = None
    redo_bytes_per_hour: int | None = Field(None, description="From two status dumps.")


class AuditRead(ReadModel):
    """An audit; `findings` is null until it has succeeded."""

    model_config = ConfigDict(extra="ignore")

    id: str
    status: AuditStatus
    server_id: str | None
    snapshot_id: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    duration_ms: int | None = Field(description="From started to finished.")
    queued_ms: int | None = Field(None, description="From submitted to started.")
    worst_severity: Severity | None
    server: ServerFacts | None = Field(description="The flavor, version and role the audit ran with.")
    findings: list[FindingRead] | None = Field(description="Most urgent first; empty until it has succeeded.")
    warnings: list[str] | None
    figures: AuditFigures | None = Field(None, description="Null until it has succeeded.")
    drift: list[DriftEntry] | None = Field(
        None,
        description="Settings in the option files that the server does not run yet (restart, or run "
        "each entry's `apply_sql`); null until it has succeeded.",
    )
    error: str | None = Field(description="Why a failed audit failed.")
    attempts: int = 0
    advisor_version: str | None = None
    callback_status: str | None = None
    links: dict[str, str] = Field(default_factory=dict)


class RecommendedFileRead(ReadModel):
    """One option file as handed back: its path, the recommended text, and its unified diff."""

    path: str = Field(description="The path the file was uploaded with.")
    recommended: str = Field(description="The whole file with the changes made; secret lines kept out.")
    diff: str = Field(description="`patch -p1` from `/` applies it; empty when the file is unchanged.")
    installed_path: str | None = Field(
        default=None,
        description="Where the server reads the file, when it was uploaded by a relative path and an "
        "include with an absolute path names it (the diff and the zip use this path); else null.",
    )


class DropInRead(ReadModel):
    """One override file read after the user's own, holding every changed setting."""

    path: str = Field(description="Where to install it (an `!includedir` folder, else beside the main file).")
    text: str
    include_line: str | None = Field(
        description="The line to append to `include_into` (an absolute path); null when read already, "
        "or when the main file's folder is not known (`include_note`)."
    )
    include_into: str | None
    cannot_fix: list[str] = Field(
        description="Changes the override file cannot make (removals, later lines)."
    )
    include_note: str | None = Field(
        default=None,
        description="Set when an `!include` line is needed but cannot be given (the main file was "
        "uploaded by a relative path, or none was): what to write instead.",
    )


class RecommendedFiles(ReadModel):
    """Every recommended file and the drop-in alternative."""

    files: list[RecommendedFileRead]
    dropin: DropInRead | None


class AuditWithFiles(AuditRead):
    """An audit with the unified diff, the recommended my.cnf and every recommended file (null until it
    has succeeded). `diff` is the combined diff of all files; `mycnf` is the main (first) file."""

    diff: str | None = None
    mycnf: str | None = None
    files: list[RecommendedFileRead] | None = None
    dropin: DropInRead | None = None
