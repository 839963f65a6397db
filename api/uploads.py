"""Read a snapshot's inputs from a request body — JSON or multipart — into a `SnapshotUpload`.

Multipart fields: `mycnf` (repeatable; the path is the upload's filename, or the n-th `mycnf_path`
field when given — includes resolve by these paths), `variables`,
`status` (repeatable, oldest first), `innodb_status`, `schema`, `hardware`, `persisted`; each a file, or a
plain text field. Sizes are checked before a file is read: over the limits is a 413.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import weakref
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException

from advisor.inputs.upload_text import decode_option_file
from api.deps import MULTIPART_MEDIA_TYPE, is_json, media_type
from api.problems import Problem
from api.schemas.snapshots import SnapshotCreate
from services.snapshots import LIMITS, SnapshotUpload, path_problem

ModelT = TypeVar("ModelT", bound=BaseModel)

TEXT_FIELDS = ("mycnf", "variables", "status", "innodb_status", "schema", "hardware", "persisted")
REPEATABLE_FIELDS = frozenset({"mycnf", "status"})
#: repeatable: the path of the n-th `mycnf` part (`/etc/mysql/conf.d/tuning.cnf`), when its filename
#: lacks the folders (browsers and curl send the base name only).
PATH_FIELD = "mycnf_path"
#: a generous bound on plain (non-file) form fields: the analyze parameters are eight.
MAX_FORM_FIELDS = 64
#: total body: every file at its limit, plus room for multipart boundaries and form fields.
MAX_BODY_BYTES = LIMITS.max_files * LIMITS.max_file_bytes + 1024 * 1024
#: what a text field without a filename is called in error messages.
DEFAULT_NAMES = {
    "mycnf": "my.cnf",
    "variables": "variables",
    "status": "status",
    "innodb_status": "innodb_status",
    "schema": "schema",
    "hardware": "hardware.json",
    "persisted": "persisted",
}


@dataclass(frozen=True)
class NamedText:
    name: str
    text: str


@dataclass(frozen=True)
class UploadBody:
    """What a body held: the snapshot's inputs and the plain form fields (or JSON members) beside them."""

    upload: SnapshotUpload
    fields: dict[str, Any]


def _too_large(detail: str, file: str | None = None) -> Problem:
    return Problem(413, detail, file=file)


def _check_size(name: str, size_bytes: int) -> None:
    if size_bytes > LIMITS.max_file_bytes:
        raise _too_large(
            f"{name} is {size_bytes} bytes; the limit is {LIMITS.max_file_bytes} bytes a file.", name
        )


def _check_count(texts: dict[str, list[NamedText]]) -> None:
    count = sum(len(items) for items in texts.values())
    if count > LIMITS.max_files:
        raise _too_large(f"{count} files uploaded; the limit is {LIMITS.max_files} files.")
    paths = [item.name for item in texts.get("mycnf", ())]
    twice = sorted({path for path in paths if paths.count(path) > 1})
    if twice:
        raise Problem(422, f"Option file path uploaded twice: {twice[0]}.", file=twice[0], line=None)


async def _read_part(field: str, value: UploadFile | str) -> NamedText:
    """One multipart part as text, refused before reading when it declares a size over the limit."""
    if isinstance(value, str):
        _check_size(DEFAULT_NAMES[field], len(value.encode()))
        return NamedText(DEFAULT_NAMES[field], value)
    name = value.filename or DEFAULT_NAMES[field]
    if value.size is not None:
        _check_size(name, value.size)
    data = await value.read(LIMITS.max_file_bytes + 1)
    _check_size(name, len(data))
    if field == "mycnf":  # a Latin-1 comment is read as such (advisor.inputs.upload_text)
        return NamedText(name, decode_option_file(data))
    # Dumps are ASCII in practice; a stray Latin-1 byte must not refuse the upload.
    return NamedText(name, data.decode("utf-8", errors="replace"))


async def _read_form(
    request: Request, allowed_fields: frozenset[str]
) -> tuple[dict[str, list[NamedText]], dict[str, Any]]:
    texts: dict[str, list[NamedText]] = defaultdict(list)
    fields: dict[str, Any] = {}
    paths: list[str] = []
    try:
        form_context = request.form(
            max_files=max(LIMITS.max_files * 4, 64), max_fields=MAX_FORM_FIELDS, max_part_size=MAX_BODY_BYTES
        )
        async with form_context as form:
            for key, value in form.multi_items():
                if key in TEXT_FIELDS:
                    if key not in REPEATABLE_FIELDS and texts[key]:
                        raise Problem(422, f"The field `{key}` may be sent once.")
                    texts[key].append(await _read_part(key, value))
                elif key == PATH_FIELD and isinstance(value, str):
                    paths.append(_checked_path(value))
                elif key in allowed_fields and isinstance(value, str):
                    if key in fields:
                        raise Problem(422, f"The field `{key}` may be sent once.")
                    fields[key] = value
                else:
                    raise Problem(422, f"Unknown or misplaced form field `{key}`.")
    except HTTPException as exc:
        # Starlette refuses too many parts with a 400; for us that is a body over the limits.
        if exc.status_code == 400 and "Too many files" in str(exc.detail):
            raise _too_large(f"Too many files; the limit is {LIMITS.max_files}.") from None
        raise
    _name_option_files(texts, paths)
    return texts, fields


def _checked_path(value: str) -> str:
    path = value.strip()
    problem = path_problem(path)
    if problem is not None:
        raise Problem(422, f"`{PATH_FIELD}`: {problem}")
    return path


def _name_option_files(texts: dict[str, list[NamedText]], paths: list[str]) -> None:
    """The n-th `mycnf_path` names the n-th `mycnf` part (an empty one keeps the upload's filename)."""
    files = texts.get("mycnf", [])
    if len(paths) > len(files):
        raise Problem(422, f"{len(paths)} `{PATH_FIELD}` fields for {len(files)} `mycnf` files.")
    for index, path in enumerate(paths):
        if path:
            files[index] = NamedText(path, files[index].text)


def _validate(model: type[ModelT], data: bytes | dict[str, Any]) -> ModelT:
    try:
        if isinstance(data, bytes):
            return model.model_validate_json(data)
        return model.model_validate(data)
    except ValidationError as exc:
        errors = [{**error, "loc": ("body", *error["loc"])} for error in exc.errors(include_url=False)]
        raise RequestValidationError(errors) from None


def _texts_from_json(body: SnapshotCreate) -> dict[str, list[NamedText]]:
    texts: dict[str, list[NamedText]] = defaultdict(list)
    texts["mycnf"] = [NamedText(path, text) for path, text in body.mycnf.items()]
    texts["status"] = [NamedText(f"status[{index}]", text) for index, text in enumerate(body.status)]
    for field, value in (
        ("variables", body.variables),
        ("innodb_status", body.innodb_status),
        ("schema", body.schema_facts),
        ("persisted", body.persisted),
    ):
        if value is not None:
            texts[field] = [NamedText(DEFAULT_NAMES[field], value)]
    if body.hardware is not None:
        # One member a line, so a bad member's line number points at it.
        texts["hardware"] = [NamedText(DEFAULT_NAMES["hardware"], json.dumps(body.hardware, indent=2))]
    for items in texts.values():
        for item in items:
            _check_size(item.name, len(item.text.encode()))
    return texts


def _single(texts: dict[str, list[NamedText]], field: str) -> NamedText | None:
    items = texts.get(field) or []
    return items[0] if items else None


def _snapshot_upload(texts: dict[str, list[NamedText]]) -> SnapshotUpload:
    _check_count(texts)
    variables, innodb = _single(texts, "variables"), _single(texts, "innodb_status")
    schema, hardware = _single(texts, "schema"), _single(texts, "hardware")
    persisted = _single(texts, "persisted")
    status = texts.get("status") or []
    return SnapshotUpload(
        mycnf={item.name: item.text for item in texts.get("mycnf") or []},
        variables=variables.text if variables else None,
        status=[item.text for item in status],
        innodb_status=innodb.text if innodb else None,
        schema=schema.text if schema else None,
        hardware=hardware.text if hardware else None,
        variables_name=variables.name if variables else DEFAULT_NAMES["variables"],
        status_names=[item.name for item in status],
        innodb_status_name=innodb.name if innodb else DEFAULT_NAMES["innodb_status"],
        schema_name=schema.name if schema else DEFAULT_NAMES["schema"],
        hardware_name=hardware.name if hardware else DEFAULT_NAMES["hardware"],
        persisted=persisted.text if persisted else None,
        persisted_name=persisted.name if persisted else DEFAULT_NAMES["persisted"],
    )


async def read_upload(
    request: Request,
    json_model: type[SnapshotCreate] = SnapshotCreate,
    form_fields: frozenset[str] = frozenset(),
) -> UploadBody:
    """The body as a SnapshotUpload plus the other fields (JSON members beyond the snapshot's,
    or the allowed plain form fields); 415 when the body is neither JSON nor multipart.

    Call it inside `upload_slot()`, and leave the slot once the upload is stored.
    """
    return await _read_upload(request, json_model, form_fields)


#: uploads read, checked and stored at once per API process (the rest wait their turn): each holds
#: its up to 33 MB several times over meanwhile, so this is what bounds the API's memory.
UPLOADS_AT_ONCE = 2
_slots_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def upload_slot() -> asyncio.Semaphore:
    """`async with upload_slot():` around reading and storing an upload. One semaphore per event
    loop (tests run several loops, one after another)."""
    loop = asyncio.get_running_loop()
    slots = _slots_by_loop.get(loop)
    if slots is None:
        slots = _slots_by_loop[loop] = asyncio.Semaphore(UPLOADS_AT_ONCE)
    return slots


async def _read_upload(
    request: Request, json_model: type[SnapshotCreate], form_fields: frozenset[str]
) -> UploadBody:
    if is_json(request):
        body = _validate(json_model, await request.body())
        snapshot_fields = set(SnapshotCreate.model_fields)
        others = {
            name: getattr(body, name) for name in type(body).model_fields if name not in snapshot_fields
        }
        return UploadBody(_snapshot_upload(_texts_from_json(body)), others)
    if media_type(request) == MULTIPART_MEDIA_TYPE:
        texts, fields = await _read_form(request, form_fields)
        return UploadBody(_snapshot_upload(texts), fields)
    raise Problem(415, "Send the inputs as multipart/form-data or application/json.")


async def read_named_text(field: str, value: UploadFile | str) -> NamedText:
    """One part of a form (a file, or a plain field) as text named for error messages; 413 over the
    size limit. For forms whose field names differ from the API's (the web pages)."""
    return await _read_part(field, value)


def upload_from_texts(texts: dict[str, list[NamedText]]) -> SnapshotUpload:
    """A SnapshotUpload from texts keyed by the API's field names (`TEXT_FIELDS`); 413 over the
    count limit, 422 for an option file path given twice."""
    return _snapshot_upload(texts)


def validate_fields(model: type[ModelT], fields: dict[str, Any]) -> ModelT:
    """Validate plain form fields (or JSON members) against an input model: 422 naming the field."""
    return _validate(model, fields)


def request_hash(upload: SnapshotUpload, **extra: Any) -> str:
    """SHA-256 of the canonical request: the same inputs hash the same whether sent as JSON or multipart."""
    # File names only label error messages; the texts are what the audit depends on.
    inputs = {key: value for key, value in asdict(upload).items() if not key.endswith(("_name", "_names"))}
    # a role (or persisted values) not sent leaves the hash as it was before uploads could carry one
    for key in ("detected_role", "detected_role_how", "persisted"):
        if inputs.get(key) is None:
            inputs.pop(key, None)
    canonical = {"inputs": inputs, **extra}
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()
