"""The files an audit hands back, as one zip: every recommended option file under its own path, and
the drop-in alternative beside them (under `dropin/`, so unpacking at `/` never installs both)."""

from __future__ import annotations

import io
import posixpath
import zipfile
from typing import Any

from advisor.unidiff import relative_path

#: the README inside the zip: what is there and how to install it.
_README = """Recommended option files from InnoTune.

Each file sits under its own path: unpack at / (or copy file by file) to replace yours.
Lines holding secrets are kept out of these copies: copy yours back, or apply the
combined diff (recommended.diff, `patch -p1` from /) to your own files instead.
dropin/ holds the alternative: one override file that leaves your files as they are.
"""


def _member(path: str) -> str:
    """A safe name inside the zip: the file's path, or its base name when the path climbs out."""
    return relative_path(path) or posixpath.basename(path.replace("\\", "/"))


def files_zip(files: list[dict[str, Any]], dropin: dict[str, Any] | None) -> bytes:
    """A zip of the recommended files (each where the server reads it, when an include showed that for
    a file uploaded by a relative path), the combined diff and the drop-in file."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", _README)
        for file in files:
            archive.writestr(_member(file.get("installed_path") or file["path"]), file["recommended"])
        archive.writestr("recommended.diff", "".join(file["diff"] for file in files))
        if dropin is not None:
            archive.writestr(posixpath.join("dropin", _member(dropin["path"])), dropin["text"])
    return buffer.getvalue()
