"""The audit form: what the DBA sent (files or pasted text), read back into the form on any error.

Each input can be uploaded or pasted. An uploaded file's text moves into its paste area when the
form comes back with an error, its file name kept in a hidden field (an option file's in its path
box: see `option_file_rows`), so nothing the user gave is lost and errors keep naming the file.
Errors sit beside the field they belong to, with the line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fastapi import Request
from starlette.datastructures import FormData, UploadFile

from advisor.redact_inputs import InputKind, redact_input, redact_message
from api.problems import Problem
from api.uploads import MAX_BODY_BYTES, MAX_FORM_FIELDS, NamedText, read_named_text
from api.web.option_file_rows import (
    MIN_MYCNF_ROWS,
    FieldError,
    OptionFileInput,
    TextInput,
    binary_upload_error,
    pasted,
    read_option_files,
)
from services.snapshots import LIMITS

#: the single-file inputs: form key → (the API's field, the name errors use when pasted, label).
SINGLE_INPUTS: dict[str, tuple[str, str, str]] = {
    "variables": ("variables", "variables", "SHOW GLOBAL VARIABLES"),
    "status1": ("status", "status-1", "SHOW GLOBAL STATUS"),
    "status2": ("status", "status-2", "SHOW GLOBAL STATUS, a little later"),
    "innodb_status": ("innodb_status", "innodb_status", "SHOW ENGINE INNODB STATUS"),
    "schema": ("schema", "schema", "Tables (information_schema.TABLES)"),
    "persisted": ("persisted", "persisted", "Persisted variables (MySQL 8.0+)"),
}
PLAIN_FIELDS = (
    "server_id",
    "new_server_name",
    "server_version",
    "role",
    "profile",
    "memory",
    "memory_limit",
    "cpus",
    "storage",
)


@dataclass
class AuditForm:
    """The whole form as the user filled it in."""

    mycnf: list[OptionFileInput] = field(default_factory=list)
    singles: dict[str, TextInput] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)
    errors: dict[str, FieldError] = field(default_factory=dict)
    form_errors: list[str] = field(default_factory=list)

    @classmethod
    def blank(cls) -> AuditForm:
        form = cls(singles={key: TextInput(key, default) for key, (_, default, _) in SINGLE_INPUTS.items()})
        form.values = {name: "" for name in PLAIN_FIELDS}
        return form

    @property
    def has_errors(self) -> bool:
        return bool(
            self.errors
            or self.form_errors
            or any(entry.error for entry in self.all_inputs())
            or any(entry.path_error for entry in self.mycnf)
        )

    def all_inputs(self) -> list[TextInput]:
        return [*self.mycnf, *self.singles.values()]

    def value(self, name: str) -> str:
        return self.values.get(name, "")

    def error_links(self) -> list[tuple[str, str]]:
        """(field id, message) for the error summary at the top of the form."""
        links = [(f"{entry.key}-text", _summary(entry)) for entry in self.all_inputs() if entry.error]
        links += [
            (f"{entry.key}-path", f"Path of option file {number}: {entry.path_error.message}")
            for number, entry in enumerate(self.mycnf, start=1)
            if entry.path_error
        ]
        links += [(name, error.message) for name, error in self.errors.items()]
        return links

    def texts(self) -> dict[str, list[NamedText]]:
        """The given inputs keyed by the API's field names, for `api.uploads.upload_from_texts`."""
        texts: dict[str, list[NamedText]] = {
            "mycnf": [NamedText(e.name, e.text) for e in self.mycnf if e.given]
        }
        for key, (api_field, _, _) in SINGLE_INPUTS.items():
            entry = self.singles[key]
            if entry.given:
                texts.setdefault(api_field, []).append(NamedText(entry.name, entry.text))
        return texts

    def mycnf_rows(self) -> list[OptionFileInput]:
        """The option-file rows to show: those given, then blank ones (at least one, a few in all)."""
        count = max(MIN_MYCNF_ROWS - len(self.mycnf), 1)
        start = len(self.mycnf)
        return [*self.mycnf, *(OptionFileInput(f"mycnf-{start + n}", "") for n in range(count))]

    def input_named(self, name: str | None) -> TextInput | None:
        """The input whose text carries this name in error messages."""
        if name is None:
            return None
        return next((entry for entry in self.all_inputs() if entry.given and entry.name == name), None)


def _summary(entry: TextInput) -> str:
    assert entry.error is not None
    where = f"{entry.name}, line {entry.error.line}" if entry.error.line else entry.name
    return f"{where}: {entry.error.message}"


async def _file_text(form: AuditForm, key: str, api_field: str, upload: UploadFile) -> str | None:
    """An uploaded file's text, or None (and an error on the field) when it is over the size limit."""
    try:
        return (await read_named_text(api_field, upload)).text
    except Problem as problem:
        target = form.singles.get(key)
        if target is not None:
            target.error = FieldError(problem.detail)
        else:
            form.form_errors.append(problem.detail)
        return None


def _unique_name(name: str, taken: set[str]) -> str:
    """Keep error messages unambiguous when two inputs were uploaded under one file name."""
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name} ({number})", number + 1
    taken.add(candidate)
    return candidate


async def _read_single(form: AuditForm, data: FormData, key: str, taken: set[str]) -> None:
    api_field, default, _ = SINGLE_INPUTS[key]
    entry = form.singles[key]
    upload = data.get(f"{key}_file")
    if isinstance(upload, UploadFile) and upload.filename:
        text = await _file_text(form, key, api_field, upload)
        entry.name, entry.text = upload.filename, text or ""
        binary = binary_upload_error(upload.filename, entry.text)
        if binary is not None:
            # Not pasted back as mojibake: the name stays so the message and the form still say which file.
            entry.error, entry.text = binary, ""
    else:
        entry.name = str(data.get(f"{key}_name") or default).strip()[:255] or default
        entry.text = pasted(str(data.get(f"{key}_text") or ""))
    if entry.given:
        entry.name = _unique_name(entry.name, taken)


async def read_audit_form(request: Request) -> AuditForm:
    """Read the posted form; files too large are errors on their field, never a lost form."""
    form = AuditForm.blank()
    async with request.form(
        max_files=LIMITS.max_files * 4, max_fields=MAX_FORM_FIELDS * 2, max_part_size=MAX_BODY_BYTES
    ) as data:
        form.mycnf, errors = await read_option_files(data)
        form.form_errors.extend(errors)
        taken = {entry.name for entry in form.mycnf}
        for key in SINGLE_INPUTS:
            await _read_single(form, data, key, taken)
        for name in PLAIN_FIELDS:
            value = data.get(name)
            form.values[name] = value.strip() if isinstance(value, str) else ""
    _redact_texts(form)
    return form


def _redact_texts(form: AuditForm) -> None:
    """Secrets go before anything else sees the texts: a form that comes back with an error shows
    (and quotes) the redacted text, never a password it was given."""
    for row in form.mycnf:
        row.text = redact_input(InputKind.MYCNF, row.text)
    for key, entry in form.singles.items():
        entry.text = redact_input(SINGLE_INPUTS[key][0], entry.text)


def attach_error(form: AuditForm, message: str, *, file: str | None = None, line: int | None = None) -> None:
    """Put a service's or parser's message beside the input it names (with the line), else on top."""
    message = redact_message(message)
    entry = form.input_named(file)
    if entry is None:
        form.form_errors.append(message)
        return
    prefix = f"{file}:{line}: " if line is not None else f"{file}: "
    text = message[len(prefix) :] if message.startswith(prefix) else message
    lines = entry.text.splitlines()
    excerpt = redact_message(lines[line - 1]) if line is not None and 0 < line <= len(lines) else None
    entry.error = FieldError(text[:1].upper() + text[1:], line, excerpt)
