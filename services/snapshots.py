"""Snapshots: uploads checked against the limits, redacted, validated by the advisor's parsers, stored.

Secrets are redacted FIRST: validation errors quote lines of the upload, and an error message is
something we return and log, so it must never see a password either.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec
from sqlalchemy.orm import Session

from advisor.errors import InputError
from advisor.inputs.text_encoding import UTF16_ADVICE, looks_utf16
from services.audit_facts import WATCHED_VARIABLES
from services.errors import InvalidInput, NotFound, TooLarge
from services.pagination import Page, after, check_limit, make_page
from services.servers import get_server, learn_role
from store.models import Snapshot
from store.repositories import snapshots as repository

if TYPE_CHECKING:
    from advisor.audit import AuditInputs
    from advisor.version import ServerVersion
    from store.models import Server

MiB = 1024 * 1024
MAX_PATH_CHARS = 500
MAX_NAME_CHARS = 255
MAX_HOW_CHARS = 500


@dataclass(frozen=True)
class SnapshotLimits:
    """What one upload may hold: bytes per file (UTF-8) and files in all."""

    max_file_bytes: int = 2 * MiB
    max_files: int = 16
    max_status_files: int = 2
    #: lines in all files together: what the parsers and advisors walk (a variables dump has ~700,
    #: a schema dump of 100,000 tables fits); past it the upload costs memory, not insight.
    max_total_lines: int = 250_000


LIMITS = SnapshotLimits()


@dataclass
class SnapshotUpload:
    """What a user uploads about a server: texts as sent, with the names errors should use."""

    mycnf: dict[str, str] = field(default_factory=dict)
    variables: str | None = None
    status: list[str] = field(default_factory=list)
    innodb_status: str | None = None
    schema: str | None = None
    hardware: str | None = None
    #: MySQL 8.0+: the persisted values (performance_schema.persisted_variables or mysqld-auto.cnf)
    persisted: str | None = None
    variables_name: str = "variables"
    status_names: list[str] = field(default_factory=list)
    innodb_status_name: str = "innodb_status"
    schema_name: str = "schema"
    hardware_name: str = "hardware.json"
    persisted_name: str = "persisted"
    #: the role `innotune collect` detected (replica, primary, standalone) and how it decided.
    detected_role: str | None = None
    detected_role_how: str | None = None

    def status_file_names(self) -> list[str]:
        """One name per status dump: the given ones, `statusN` for the rest."""
        given = self.status_names
        return [given[i] if i < len(given) else f"status{i + 1}" for i in range(len(self.status))]

    def files(self) -> list[tuple[str, str]]:
        """(name, text) of every uploaded file."""
        found = list(self.mycnf.items())
        found += list(zip(self.status_file_names(), self.status, strict=True))
        for name, text in (
            (self.variables_name, self.variables),
            (self.innodb_status_name, self.innodb_status),
            (self.schema_name, self.schema),
            (self.hardware_name, self.hardware),
            (self.persisted_name, self.persisted),
        ):
            if text is not None:
                found.append((name, text))
        return found


def check_limits(upload: SnapshotUpload, limits: SnapshotLimits = LIMITS) -> None:
    """TooLarge over the limits; InvalidInput for text PostgreSQL cannot store (NUL, lone surrogates)."""
    files = upload.files()
    if len(files) > limits.max_files:
        raise TooLarge(f"{len(files)} files uploaded; the limit is {limits.max_files}")
    if len(upload.status) > limits.max_status_files:
        raise InvalidInput(f"status takes one or two SHOW GLOBAL STATUS dumps, not {len(upload.status)}")
    if not upload.mycnf and upload.variables is None:
        raise InvalidInput("upload at least an option file (mycnf) or a SHOW GLOBAL VARIABLES dump")
    for name, text in files:
        if not isinstance(name, str) or not name or len(name) > MAX_NAME_CHARS:
            raise InvalidInput(f"file names must have 1 to {MAX_NAME_CHARS} characters")
        if "\x00" in name or not _encodable(name):  # before the name appears in any message
            raise InvalidInput("file names must be printable text (no NUL, no lone surrogates)")
        if not isinstance(text, str):
            raise InvalidInput(f"{name}: must be text", file=name)
        if len(text) > limits.max_file_bytes:  # characters ≤ bytes: over for sure, skip encoding
            raise TooLarge(f"{name}: over the limit of {limits.max_file_bytes // MiB} MiB per file")
        try:
            size = len(text.encode("utf-8")) if len(text) * 4 > limits.max_file_bytes else 0
        except UnicodeEncodeError:
            raise InvalidInput(f"{name}: not valid UTF-8 text", file=name) from None
        if size > limits.max_file_bytes:
            raise TooLarge(
                f"{name}: {size / MiB:.1f} MiB is over the limit of {limits.max_file_bytes // MiB} MiB"
            )
        if "\x00" in text:
            if looks_utf16(text):  # PowerShell's `>`: say how to save it rather than "binary"
                raise InvalidInput(f"{name}: {UTF16_ADVICE}", file=name)
            raise InvalidInput(f"{name}: binary content (NUL bytes) is not a text dump", file=name)
        if not _encodable(text):
            raise InvalidInput(f"{name}: not valid UTF-8 text (a lone surrogate)", file=name)
    lines = sum(text.count("\n") + 1 for _, text in files)
    if lines > limits.max_total_lines:
        raise TooLarge(f"the upload holds {lines} lines in all; the limit is {limits.max_total_lines} lines")

    for path in upload.mycnf:
        problem = path_problem(path)
        if problem is not None:
            raise InvalidInput(f"option file path {path!r}: {problem}", file=path)
    _check_detected_role(upload)


def path_problem(path: str) -> str | None:
    """Why an option file's path is refused (the API's `mycnf` names and `mycnf_path`, the form's path
    box alike); None when it is a plain file path: bounded, printable, not climbing out with `..`, and
    not a folder (`/etc/mysql/` would come back as a zip entry named like the folder)."""
    if len(path) > MAX_PATH_CHARS:
        return f"A path of at most {MAX_PATH_CHARS} characters, please (this one has {len(path)})."
    if not path.isprintable():
        return "A path of printable characters only, please (no tabs or control characters)."
    parts = path.replace("\\", "/").split("/")
    if ".." in parts:
        return "A path without `..`, please: give the file's full path, e.g. /etc/mysql/conf.d/tuning.cnf."
    if path and parts[-1] in ("", "."):  # an empty `mycnf_path` keeps the upload's own name
        return "A file's path, please, not a folder's: e.g. /etc/mysql/conf.d/tuning.cnf."
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_detected_role(upload: SnapshotUpload) -> None:
    from advisor.model import Role

    if upload.detected_role is not None and upload.detected_role not in tuple(Role):
        raise InvalidInput(f"detected_role must be one of {', '.join(Role)}, not {upload.detected_role!r}")
    how = upload.detected_role_how
    if how is not None and (
        upload.detected_role is None or len(how) > MAX_HOW_CHARS or not how.isprintable()
    ):
        raise InvalidInput(
            f"detected_role_how goes with detected_role: one line of at most {MAX_HOW_CHARS} characters"
        )


def stored_inputs(upload: SnapshotUpload) -> dict[str, Any]:
    """The inputs as stored: every text redacted in its own layout (advisor.redact_inputs), with the
    names errors use."""
    from advisor.redact_inputs import InputKind, redact_input

    def redacted(kind: InputKind, text: str | None) -> str | None:
        return redact_input(kind, text) if text is not None else None

    detected = {"detected_role": {"role": upload.detected_role, "how": upload.detected_role_how}}
    persisted = {"persisted": redacted(InputKind.PERSISTED, upload.persisted)}
    return {
        "mycnf": {path: redact_input(InputKind.MYCNF, text) for path, text in upload.mycnf.items()},
        "variables": redacted(InputKind.VARIABLES, upload.variables),
        "status": [redact_input(InputKind.STATUS, text) for text in upload.status],
        "innodb_status": redacted(InputKind.INNODB_STATUS, upload.innodb_status),
        "schema": redacted(InputKind.SCHEMA, upload.schema),
        "hardware": redacted(InputKind.HARDWARE, upload.hardware),
        "names": {
            "variables": upload.variables_name,
            "status": upload.status_file_names(),
            "innodb_status": upload.innodb_status_name,
            "schema": upload.schema_name,
            "hardware": upload.hardware_name,
            **({"persisted": upload.persisted_name} if upload.persisted is not None else {}),
        },
        # only when sent: a snapshot without it keeps the content hash it always had
        **(detected if upload.detected_role is not None else {}),
        **(persisted if upload.persisted is not None else {}),  # likewise
    }


def audit_inputs(inputs: dict[str, Any], parameters: dict[str, Any]) -> AuditInputs:
    """The advisor's inputs for stored snapshot inputs and an audit's parameters."""
    from advisor.audit import AuditInputs, Profile, Role

    names = inputs.get("names") or {}
    hardware = inputs.get("hardware")
    if hardware is None and parameters.get("hardware"):
        hardware = json.dumps(parameters["hardware"])
    return AuditInputs(
        mycnf=inputs.get("mycnf") or {},
        variables=inputs.get("variables"),
        status=tuple(inputs.get("status") or ()),
        innodb_status=inputs.get("innodb_status"),
        schema=inputs.get("schema"),
        hardware=hardware,
        memory=parameters.get("memory"),
        memory_limit=parameters.get("memory_limit"),
        cpus=parameters.get("cpus"),
        storage=parameters.get("storage"),
        server_version=parameters.get("server_version"),
        role=Role(parameters.get("role") or Role.STANDALONE),
        profile=Profile(parameters.get("profile") or Profile.PRODUCTION),
        variables_name=names.get("variables") or "variables",
        status_names=tuple(names.get("status") or ()),
        innodb_status_name=names.get("innodb_status") or "innodb_status",
        schema_name=names.get("schema") or "schema",
        hardware_name=names.get("hardware") or "hardware.json",
        persisted=inputs.get("persisted"),
        persisted_name=names.get("persisted") or "persisted",
    )


#: the texts the advisor's parsers read; everything else in the stored inputs is small
_DUMP_KEYS = frozenset({"variables", "status", "innodb_status", "schema"})


class _PreparedForm(msgspec.Struct, frozen=True, array_like=True):
    rest: dict[str, Any]  # the stored inputs less the dump texts
    dumps: bytes  # advisor.prepared


_PREPARED_DECODER = msgspec.msgpack.Decoder(_PreparedForm)


def prepared_form(inputs: dict[str, Any], dumps: bytes) -> bytes:
    """What a re-audit reads instead of `inputs`: the dumps as parsed at upload, the rest as stored."""
    rest = {key: value for key, value in inputs.items() if key not in _DUMP_KEYS}
    return msgspec.msgpack.encode(_PreparedForm(rest, dumps))


def read_prepared_form(blob: bytes | None) -> tuple[dict[str, Any], bytes] | None:
    """(the inputs without their dump texts, the prepared dumps) when this parser wrote them; else None:
    the caller reads `inputs` and parses."""
    from advisor.prepared import is_current

    if not blob:
        return None
    try:
        form = _PREPARED_DECODER.decode(blob)
    except msgspec.DecodeError:
        return None
    return (form.rest, form.dumps) if is_current(form.dumps) else None


def content_hash(inputs: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of the stored inputs."""
    canonical = json.dumps(inputs, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def build_snapshot(
    org_id: str, server: Server | None, upload: SnapshotUpload, parameters: dict[str, Any]
) -> tuple[Snapshot, ServerVersion]:
    """Check, redact and validate an upload into an unsaved Snapshot and the version it was read with.

    InvalidInput names the file and line of a bad input; TooLarge reports an upload over the limits.

    `parameters` are a one-shot audit's (server_version, memory, …); a server's snapshot passes {}.
    """
    from advisor.audit import validate_inputs
    from advisor.errors import VersionUnknown

    check_limits(upload)
    inputs = stored_inputs(upload)
    inputs["version_from_variables"] = False
    try:
        summary = validate_inputs(
            audit_inputs(inputs, parameters),
            fallback_version=server.version if server else None,
            watched=WATCHED_VARIABLES,
        )
    except VersionUnknown:
        unknown = "the server version is unknown: upload SHOW GLOBAL VARIABLES (with `version`) or give the server a version"
        raise InvalidInput.from_input_error(InputError(unknown)) from None
    except InputError as exc:
        raise InvalidInput.from_input_error(exc) from None
    version = summary.version
    inputs["version_from_variables"] = summary.version_source == "variables"
    snapshot = Snapshot(
        organization_id=org_id,
        server_id=server.id if server else None,
        inputs=inputs,
        content_hash=content_hash(inputs),
        server_version=version.raw,
        warnings=[warning.describe() for warning in summary.warnings],
        settings=dict(summary.settings),
        version_from_variables=bool(inputs["version_from_variables"]),
        prepared=prepared_form(inputs, summary.prepared),
    )
    return snapshot, version


def ingest_snapshot(session: Session, org_id: str, server_id: str | None, upload: SnapshotUpload) -> Snapshot:
    """Store a validated, redacted snapshot; learn flavor and version onto a server that has none, and
    the role the collector detected onto a server whose role no user gave."""
    server = get_server(session, org_id, server_id) if server_id is not None else None
    snapshot, version = build_snapshot(org_id, server, upload, {})
    if server is not None and snapshot.inputs["version_from_variables"]:
        server.flavor = server.flavor or version.flavor
        server.version = server.version or version.raw
    if server is not None:
        learn_role(server, upload.detected_role)
    return repository.add_snapshot(session, snapshot)


def get_snapshot(session: Session, org_id: str, snapshot_id: str) -> Snapshot:
    """The organisation's snapshot, or NotFound."""
    snapshot = repository.get_snapshot(session, org_id, snapshot_id)
    if snapshot is None:
        raise NotFound(f"no snapshot {snapshot_id}")
    return snapshot


def list_snapshots(
    session: Session, org_id: str, server_id: str, *, cursor: str | None, limit: int, newest: bool = False
) -> Page[Snapshot]:
    """The server's snapshots, oldest first (NotFound for another organisation's server)."""
    get_server(session, org_id, server_id)
    rows = repository.list_snapshots(
        session, org_id, server_id, after=after(cursor), limit=check_limit(limit), newest=newest
    )
    return make_page(rows, limit, lambda snapshot: (snapshot.created_at, snapshot.id))
