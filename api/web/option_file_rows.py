"""The option-file rows of the audit form: each row is one file — its path, and an upload or a paste.

A row's path names the file the way the server reads it (`/etc/mysql/conf.d/tuning.cnf`), so that
`!include` and `!includedir` resolve among the uploads and the diff applies with `patch -p1` from `/`.
A blank path falls back to the upload's file name, then to `my.cnf`. Paths are checked like the API's
`mycnf_path` fields; errors sit beside the path or the text of their row, and nothing typed is lost
(an uploaded file's text moves into the row's paste area when the form comes back).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from starlette.datastructures import FormData, UploadFile

from api.problems import Problem
from api.uploads import read_named_text
from services.snapshots import LIMITS, path_problem

DEFAULT_MYCNF_NAME = "my.cnf"
MAX_MYCNF_ENTRIES = LIMITS.max_files
#: rows the form shows at least (blank ones included); a script adds more.
MIN_MYCNF_ROWS = 3


@dataclass
class FieldError:
    """A message for one field, with the line of the text it is about (and that line) when known."""

    message: str
    line: int | None = None
    excerpt: str | None = None


@dataclass
class TextInput:
    """One text input: its name in error messages (a file name or the default), the text, an error."""

    key: str
    name: str
    text: str = ""
    error: FieldError | None = None

    @property
    def given(self) -> bool:
        return bool(self.text.strip())


@dataclass
class OptionFileInput(TextInput):
    """One option-file row: `name` is its path (as typed, kept even when refused), with its own error."""

    path_error: FieldError | None = None


#: bytes no text dump or option file holds: NUL and the other C0 controls but tab and line ends,
#: and U+FFFD, which decoding put where the upload was not UTF-8.
_BINARY = re.compile(r"[\x00-\x08\x0e-\x1f\x7f\ufffd]")


def binary_upload_error(filename: str, text: str) -> FieldError | None:
    """An uploaded file that is not text (an encrypted .mylogin.cnf, a compressed dump): said plainly,
    its bytes never pasted back into the form as mojibake."""
    if _BINARY.search(text[:65536]) is None:
        return None
    return FieldError(
        f"{filename} is a binary file, not text (an encrypted .mylogin.cnf or a compressed file cannot be "
        "read): upload the plain-text file, or paste its text."
    )


def pasted(text: str) -> str:
    """A textarea's text: browsers send line breaks as CRLF; the parsers and the differ keep what they get."""
    return text.replace("\r\n", "\n")


def _strings(data: FormData, key: str) -> list[str]:
    return [value if isinstance(value, str) else "" for value in data.getlist(key)]


async def _row(path: str, text: str, upload: UploadFile | None) -> OptionFileInput | None:
    """One row as an input; None for a blank row."""
    chosen = upload is not None and bool(upload.filename)
    if not (path or text.strip() or chosen):
        return None
    name = path or (upload.filename if upload is not None and upload.filename else "") or DEFAULT_MYCNF_NAME
    entry = OptionFileInput("", name, text)
    if upload is not None and chosen:
        try:  # a chosen file wins over text already in the row (the text of an earlier upload)
            entry.text = (await read_named_text("mycnf", upload)).text
        except Problem as problem:
            entry.error = FieldError(f"Option file {upload.filename}: {problem.detail}")
        entry.error = entry.error or binary_upload_error(str(upload.filename), entry.text)
        if entry.error is not None:
            entry.text = ""
    if path:
        problem_text = path_problem(path)
        entry.path_error = FieldError(problem_text) if problem_text else None
    if entry.error is None and not entry.given and not chosen:
        entry.error = FieldError("Upload this file or paste its text (or clear its path).")
    return entry


def _check_paths_unique(entries: list[OptionFileInput]) -> None:
    seen: dict[str, int] = {}
    for number, entry in enumerate(entries, start=1):
        if not entry.given or entry.path_error:
            continue
        if entry.name in seen:
            entry.path_error = FieldError(
                f"Option file {seen[entry.name]} has this path too: give each file its full path."
            )
        else:
            seen[entry.name] = number


async def read_option_files(data: FormData) -> tuple[list[OptionFileInput], list[str]]:
    """The rows as they were sent (path, file and text fields in row order), and form-wide errors."""
    paths, texts = _strings(data, "mycnf_path"), _strings(data, "mycnf_text")
    uploads = [value if isinstance(value, UploadFile) else None for value in data.getlist("mycnf_file")]
    entries: list[OptionFileInput] = []
    for index in range(max(len(paths), len(texts), len(uploads))):
        entry = await _row(
            paths[index].strip() if index < len(paths) else "",
            pasted(texts[index]) if index < len(texts) else "",
            uploads[index] if index < len(uploads) else None,
        )
        if entry is not None:
            entries.append(entry)
    errors: list[str] = []
    if len(entries) > MAX_MYCNF_ENTRIES:
        errors.append(f"At most {MAX_MYCNF_ENTRIES} option files; the rest were left out.")
        del entries[MAX_MYCNF_ENTRIES:]
    for index, entry in enumerate(entries):
        entry.key = f"mycnf-{index}"
    _check_paths_unique(entries)
    return entries, errors
