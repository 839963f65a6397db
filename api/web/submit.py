"""Turn a filled-in audit form into a queued audit, through the same services and upload helpers as
the JSON API: a one-off audit (like POST /v1/analyze), or a snapshot and audit of a server.

Every error lands on the form (beside its field when it names one) and rolls the request's work back.
"""

from __future__ import annotations

from typing import Any

from fastapi.exceptions import RequestValidationError
from sqlalchemy.orm import Session

from api.problems import Problem, validation_message
from api.schemas.analyze import AnalyzeParameters
from api.uploads import upload_from_texts, validate_fields
from api.web.forms import AuditForm, attach_error
from api.web.option_file_rows import FieldError
from services import audits
from services.errors import Conflict, InvalidInput, NotFound, ServiceError
from services.servers import ServerFields, create_server, get_server, update_server
from services.snapshots import SnapshotUpload, ingest_snapshot
from store.models import Audit

PARAMETER_FIELDS = ("server_version", "role", "profile", "memory", "memory_limit", "cpus", "storage")
HARDWARE_FIELDS = ("memory", "memory_limit", "cpus", "storage")
#: how the form labels each field: every message names its field ("CPUs: …").
FIELD_LABELS = {
    "server_version": "Version",
    "role": "Role",
    "profile": "Profile",
    "memory": "Memory",
    "memory_limit": "Memory limit",
    "cpus": "CPUs",
    "storage": "Storage",
    "server_id": "Server",
    "new_server_name": "New server name",
}


def _parameters(form: AuditForm) -> AnalyzeParameters | None:
    """The server facts, checked like the API's form fields; errors go beside their field."""
    given = {name: form.value(name) for name in PARAMETER_FIELDS if form.value(name)}
    try:
        return validate_fields(AnalyzeParameters, given)
    except RequestValidationError as exc:
        for error in exc.errors():
            name = str(error["loc"][-1])
            label = FIELD_LABELS.get(name, name)
            form.errors.setdefault(name, FieldError(f"{label}: {validation_message(error)}"))
        return None


def _server_changes(form: AuditForm, parameters: AnalyzeParameters) -> dict[str, Any]:
    """What the form says about the server; a blank field leaves the server's value as it is."""
    changes: dict[str, Any] = {}
    if form.value("role"):
        changes["role"] = parameters.role
    if form.value("profile"):
        changes["profile"] = parameters.profile
    if parameters.server_version:
        changes["version"] = parameters.server_version
    hardware = {name: getattr(parameters, name) for name in HARDWARE_FIELDS if getattr(parameters, name)}
    if hardware:
        changes["hardware"] = hardware
    return changes


def _server_audit(
    session: Session, org_id: str, form: AuditForm, upload: SnapshotUpload, parameters: AnalyzeParameters
) -> tuple[Audit, bool]:
    changes = _server_changes(form, parameters)
    new_name = form.value("new_server_name")
    if new_name:
        server = create_server(session, org_id, ServerFields(name=new_name, **changes))
    else:
        server = get_server(session, org_id, form.value("server_id"))
        if changes:
            update_server(session, org_id, server.id, changes)
    snapshot = ingest_snapshot(session, org_id, server.id, upload)
    return audits.submit_audit(
        session,
        org_id,
        server_id=server.id,
        snapshot_id=snapshot.id,
        callback_url=None,
        idempotency_key=None,
        request_hash=None,
    )


def _record(form: AuditForm, exc: ServiceError) -> None:
    """Put a service error on the form."""
    if isinstance(exc, InvalidInput):
        if exc.file is None and "version" in exc.detail:
            form.errors["server_version"] = FieldError(f"Version: {exc.detail}")
        else:
            attach_error(form, exc.detail, file=exc.file, line=exc.line)
    elif isinstance(exc, Conflict):
        form.errors["new_server_name"] = FieldError(f"New server name: {exc.detail}: choose it above.")
    elif isinstance(exc, NotFound):
        form.errors["server_id"] = FieldError("Server: that server no longer exists.")
    else:
        form.form_errors.append(exc.detail)


def submit_audit_form(session: Session, org_id: str, form: AuditForm) -> str | None:
    """Queue the form's audit and return its id; None when the form has errors (now on the form)."""
    parameters = _parameters(form)
    try:
        upload = upload_from_texts(form.texts())
    except Problem as problem:
        file = problem.extra.get("file")
        attach_error(form, problem.detail, file=file if isinstance(file, str) else None)
        return None
    if parameters is None or form.has_errors:
        return None
    try:
        if form.value("new_server_name") or form.value("server_id"):
            audit, _created = _server_audit(session, org_id, form, upload, parameters)
        else:
            audit, _created = audits.analyze(
                session,
                org_id,
                upload,
                parameters.service_parameters(),
                callback_url=None,
                idempotency_key=None,
                request_hash=None,
            )
    except ServiceError as exc:
        session.rollback()  # nothing of a failed submission is kept (the request's unit of work commits)
        _record(form, exc)
        return None
    return audit.id  # the request's unit of work commits it and then sends its job
