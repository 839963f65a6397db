"""What the result page shows of the files an audit hands back: every recommended option file with its
path, whether it changed, its own diff (rows linked to findings) and its download name; the drop-in
alternative; and whether lines holding secrets were kept out of the copies."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from api.web.resultview import DiffView, diff_view

#: the comment that stands in a recommended copy for a line holding a secret (advisor.differ).
KEPT_OUT_COMMENT = "# innotune: a line holding a secret is kept out of this copy"
#: words of the audit warning that says secrets were kept out (advisor.engine).
SECRETS_WARNING_WORDS = "secrets stay where they are"
_UNSAFE_NAME_CHARS = re.compile(r"[^A-Za-z0-9._+-]")


def download_name(path: str, fallback: str = "my.cnf") -> str:
    """The file name a download offers: the path's last part, in characters safe in a header."""
    name = _UNSAFE_NAME_CHARS.sub("_", posixpath.basename(path.replace("\\", "/")))
    return name if name.strip("._") else fallback


@dataclass(frozen=True)
class FileView:
    """One recommended option file on the page."""

    index: int
    path: str
    recommended: str
    diff: DiffView
    changed: bool
    #: where the server reads a file uploaded by a relative path (an absolute include named it)
    installed_path: str | None = None

    @property
    def download_name(self) -> str:
        return download_name(self.path)

    @property
    def secrets_kept_out(self) -> bool:
        return KEPT_OUT_COMMENT in self.recommended


@dataclass
class FilesView:
    """Every recommended file; `combined` holds the diff alone for audits stored before files were."""

    files: list[FileView] = field(default_factory=list)
    combined: DiffView = field(default_factory=DiffView)
    first_line_of: dict[int, str] = field(default_factory=dict)
    secrets_kept_out: bool = False

    @property
    def changed_count(self) -> int:
        return sum(1 for file in self.files if file.changed)


def files_view(view: Mapping[str, Any], findings: Sequence[Mapping[str, Any]]) -> FilesView:
    """The files of a finished audit, each diff numbered after the previous one (unique anchors)."""
    warned = any(SECRETS_WARNING_WORDS in str(warning) for warning in view.get("warnings") or [])
    stored = view.get("files")
    if stored is None:
        combined = diff_view(view.get("diff"), findings)
        return FilesView(combined=combined, first_line_of=combined.first_line_of, secrets_kept_out=warned)
    result = FilesView()
    next_number = 1
    for index, file in enumerate(stored):
        rows = diff_view(file.get("diff"), findings, first_number=next_number)
        next_number += len(rows.rows)
        for finding, anchor in rows.first_line_of.items():
            result.first_line_of.setdefault(finding, anchor)
        path, recommended = str(file["path"]), str(file.get("recommended") or "")
        installed = file.get("installed_path")
        result.files.append(
            FileView(
                index, path, recommended, rows, bool(file.get("diff")), str(installed) if installed else None
            )
        )
    result.secrets_kept_out = warned or any(file.secrets_kept_out for file in result.files)
    return result


def dropin_download_name(dropin: Mapping[str, Any] | None) -> str:
    """The drop-in file's download name (`zz-innotune.cnf`)."""
    return download_name(str(dropin.get("path") or ""), "zz-innotune.cnf") if dropin else "zz-innotune.cnf"
