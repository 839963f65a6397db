"""The result page's files, prepared in Python, and the form's path check — on a real two-file audit."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.audit import AuditInputs, run_audit
from api.web.filesview import KEPT_OUT_COMMENT, download_name, files_view
from services.snapshots import MAX_PATH_CHARS, path_problem
from tests.corpus import corpus_file
from tests.web.corpus_form import VARIABLES

TWO_FILES = {
    "/etc/mysql/my.cnf": "[client]\npassword = s3cret\n\n[mysqld]\n!includedir /etc/mysql/conf.d/\n",
    "/etc/mysql/conf.d/tuning.cnf": "[mysqld]\ninnodb_buffer_pool_size = 8M\n",
}


def _two_file_audit() -> dict[str, Any]:
    inputs = AuditInputs(mycnf=TWO_FILES, variables=corpus_file(VARIABLES).read_text(), memory="24G")
    return run_audit(inputs).to_dict()


def test_every_file_is_listed_with_its_own_diff_and_anchors_unique_across_files() -> None:
    """Files keep the upload order; each diff's rows are numbered after the previous file's, and every
    finding that changes a line points at a row of the page."""
    audit = _two_file_audit()
    view = files_view(audit, audit["findings"])
    assert [file.path for file in view.files] == list(TWO_FILES)
    anchors = [row.anchor for file in view.files for row in file.diff.rows]
    assert len(anchors) == len(set(anchors))
    assert set(view.first_line_of.values()) <= set(anchors)
    assert [file.changed for file in view.files] == [bool(file["diff"]) for file in audit["files"]]
    assert view.files[0].secrets_kept_out and KEPT_OUT_COMMENT in view.files[0].recommended
    assert view.secrets_kept_out


def test_a_file_uploaded_by_its_name_shows_where_the_server_reads_it() -> None:
    """`tuning.cnf` uploaded without its folder, read through `!includedir /etc/mysql/conf.d/`: the page
    keeps its upload name and says where to install it (the zip and the diff use that path)."""
    files = {
        "/etc/mysql/my.cnf": TWO_FILES["/etc/mysql/my.cnf"],
        "conf.d/tuning.cnf": TWO_FILES["/etc/mysql/conf.d/tuning.cnf"],
    }
    audit = run_audit(
        AuditInputs(mycnf=files, variables=corpus_file(VARIABLES).read_text(), memory="24G")
    ).to_dict()
    view = files_view(audit, audit["findings"])
    assert [(file.path, file.installed_path) for file in view.files] == [
        ("/etc/mysql/my.cnf", None),
        ("conf.d/tuning.cnf", "/etc/mysql/conf.d/tuning.cnf"),
    ]


def test_an_audit_stored_before_files_shows_its_combined_diff() -> None:
    """Without `files` (older audits) the combined diff alone is shown; the warning still flags secrets."""
    audit = _two_file_audit()
    old = {"diff": audit["diff"], "files": None, "warnings": audit["warnings"]}
    view = files_view(old, audit["findings"])
    assert view.files == [] and len(view.combined.rows) == len(audit["diff"].splitlines())
    assert view.secrets_kept_out


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("/etc/mysql/conf.d/tuning.cnf", "tuning.cnf"),
        ("C:\\ProgramData\\MySQL\\my.ini", "my.ini"),
        ('/etc/my "odd".cnf', "my__odd_.cnf"),
        ("/etc/mysql/", "my.cnf"),
    ],
)
def test_download_names_are_the_last_part_in_safe_characters(path: str, name: str) -> None:
    """A download is offered under the path's last part, with quotes and spaces replaced."""
    assert download_name(path) == name


@pytest.mark.parametrize(
    ("path", "refused"),
    [
        ("/etc/mysql/conf.d/tuning.cnf", False),
        ("my.cnf", False),
        ("/etc/mysql/../shadow", True),
        ("..\\my.ini", True),
        ("/etc/my\tfile.cnf", True),
        ("/" + "a" * MAX_PATH_CHARS, True),
    ],
)
def test_paths_are_checked_like_the_api(path: str, refused: bool) -> None:
    """Printable, at most MAX_PATH_CHARS characters, no `..` part (either slash), as `mycnf_path`."""
    assert (path_problem(path) is not None) == refused
