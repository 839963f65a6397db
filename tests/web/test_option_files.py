"""Several option files through the form, each with its path, in headless Chromium against `innotune
serve` on PostgreSQL with a real worker: every recommended file comes back on the result page, its
downloads and the zip hold them, and the combined diff applies with `patch -p1` in a fake root."""

from __future__ import annotations

import io
import subprocess
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.corpus import corpus_file
from tests.fixtures.service_data import OrganizationHandle
from tests.recommended import KEPT_OUT
from tests.web.corpus_form import VARIABLES
from tests.web.flow import sign_in, stored_audit, submit_and_wait

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.service

MAIN = "/etc/mysql/my.cnf"
TUNING = "/etc/mysql/conf.d/tuning.cnf"
TWO_FILES = {
    MAIN: "[mysqld]\nmax_connections = 151\n\n!includedir /etc/mysql/conf.d/\n",
    TUNING: "[mysqld]\ninnodb_buffer_pool_size = 8M\n",
}


def _on_disk(folder: Path, files: dict[str, str]) -> list[Path]:
    """The files as a DBA has them: each in a folder of its own, under its base name."""
    written = []
    for number, (path, text) in enumerate(files.items()):
        target = folder / f"upload-{number}" / Path(path).name
        target.parent.mkdir(parents=True)
        target.write_text(text)
        written.append(target)
    return written


def _upload_rows(page: Page, uploads: list[Path], paths: list[str]) -> None:
    """Row n of the form: the n-th file chosen, the n-th path typed beside it."""
    for number, (upload, path) in enumerate(zip(uploads, paths, strict=True), start=1):
        page.get_by_label(f"Upload option file {number}").set_input_files(str(upload))
        page.get_by_label(f"Path of option file {number}", exact=True).fill(path)


def _download(page: Page, link_name: str, folder: Path) -> Path:
    with page.expect_download() as download:
        page.get_by_role("link", name=link_name, exact=True).click()
    target = folder / download.value.suggested_filename
    download.value.save_as(target)
    return target


def test_two_uploaded_files_come_back_with_their_paths_and_the_diff_applies_from_root(
    page: Page, service_web: str, organization: OrganizationHandle, tmp_path: Path
) -> None:
    """my.cnf with `!includedir` and conf.d/tuning.cnf, uploaded with their paths: both are listed with
    their own diff and download; the zip holds both under their paths; `patch -p1` of the combined diff
    in a fake root turns the originals into exactly the recommended files."""
    sign_in(page, service_web, organization.key)
    _upload_rows(page, _on_disk(tmp_path / "uploads", TWO_FILES), list(TWO_FILES))
    page.set_input_files("#variables-file", str(corpus_file(VARIABLES)))
    page.get_by_label("Memory", exact=True).fill("24G")
    audit_id = submit_and_wait(page)
    audit = stored_audit(organization, audit_id)
    recommended = {file["path"]: file["recommended"] for file in audit["files"]}
    assert list(recommended) == list(TWO_FILES)
    assert audit["files"][1]["diff"], "the 8M pool in conf.d/tuning.cnf must be raised there"

    for index, path in enumerate(TWO_FILES):
        section = page.locator(f"#file-{index}")
        assert section.get_by_role("heading").inner_text().startswith(path)
        state = "changed" if audit["files"][index]["diff"] else "unchanged"
        assert section.locator(".file-state").text_content() == state
    tuning_section = page.locator("#file-1")
    assert tuning_section.locator("table.diff tr.diff-file").first.inner_text().strip() == f"--- a{TUNING}"
    assert tuning_section.locator("table.diff tr.diff-del", has_text="innodb_buffer_pool_size").count() == 1

    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for path in TWO_FILES:
        saved = _download(page, f"Download {path}", downloads)
        assert saved.name == Path(path).name
        assert saved.read_text() == recommended[path]
    combined = _download(page, "Download the diff of all files", downloads).read_text()
    assert combined == audit["diff"]
    archive = zipfile.ZipFile(io.BytesIO(_download(page, "Download all files (zip)", downloads).read_bytes()))
    for path in TWO_FILES:
        assert archive.read(path.lstrip("/")).decode() == recommended[path]
    assert archive.read("recommended.diff").decode() == combined
    if audit["dropin"] is not None:
        assert (
            archive.read(f"dropin/{audit['dropin']['path'].lstrip('/')}").decode() == audit["dropin"]["text"]
        )

    root = tmp_path / "root"
    for path, text in TWO_FILES.items():
        (root / path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        (root / path.lstrip("/")).write_text(text)
    run = subprocess.run(
        ["patch", "-p1", "--batch", "--no-backup-if-mismatch"],
        input=combined,
        text=True,
        cwd=root,
        capture_output=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    on_disk = {f"/{p.relative_to(root)}": p.read_text() for p in root.rglob("*") if p.is_file()}
    assert on_disk == recommended


def test_the_drop_in_and_the_secrets_note_are_on_the_page(
    page: Page, service_web: str, organization: OrganizationHandle, tmp_path: Path
) -> None:
    """A file holding a password: the page says plainly that secrets stay in the user's files, the copy
    holds the kept-out comment instead, and the drop-in is offered with its path and download."""
    secret_cnf = "[client]\npassword = s3cret\n\n[mysqld]\ninnodb_buffer_pool_size = 8M\n"
    sign_in(page, service_web, organization.key)
    page.get_by_label("Path of option file 1", exact=True).fill(MAIN)
    page.get_by_label("Text of option file 1").fill(secret_cnf)
    page.locator("#variables-text").fill(corpus_file(VARIABLES).read_text())
    page.get_by_label("Memory", exact=True).fill("24G")
    audit_id = submit_and_wait(page)
    audit = stored_audit(organization, audit_id)

    note = page.locator(".downloads + .secrets-note")
    assert "Your secrets stay in your own files" in note.inner_text()
    assert "s3cret" not in page.content()
    copy = _download(page, f"Download {MAIN}", tmp_path).read_text()
    assert KEPT_OUT in copy.splitlines() and "password" not in copy
    assert page.locator("#file-0 .hint", has_text="secret is kept out of this copy").count() == 1

    dropin = audit["dropin"]
    assert dropin is not None
    assert page.locator("#dropin-path").inner_text() == dropin["path"]
    assert page.locator("#dropin-include").inner_text() == dropin["include_line"]
    assert dropin["include_into"] in page.locator("#dropin").inner_text()
    assert _download(page, "Download the drop-in file", tmp_path).read_text() == dropin["text"]


def test_bad_or_repeated_paths_come_back_beside_their_row_and_keep_everything(
    page: Page, service_web: str, organization: OrganizationHandle, tmp_path: Path
) -> None:
    """Two uploads both named my.cnf without paths, and a pasted file whose path climbs with `..`:
    each error sits beside its path box; the uploads' texts move into their rows, every path stays;
    a row added by the script is blank and ignored; with the paths fixed the audit runs."""
    sign_in(page, service_web, organization.key)
    uploads = _on_disk(
        tmp_path, {"/etc/my.cnf": "[mysqld]\n", "/etc/mysql/my.cnf": "[mysqld]\nport = 3306\n"}
    )
    page.get_by_label("Upload option file 1").set_input_files(str(uploads[0]))
    page.get_by_label("Upload option file 2").set_input_files(str(uploads[1]))
    page.get_by_label("Path of option file 3", exact=True).fill("/etc/mysql/../x.cnf")
    page.get_by_label("Text of option file 3").fill("[mysqld]\nmax_connections = 100\n")
    page.set_input_files("#variables-file", str(corpus_file(VARIABLES)))
    page.get_by_role("button", name="Run the audit").click()

    page.locator(".error-summary").wait_for()
    assert "Option file 1 has this path too" in page.locator("#mycnf-1-path-error").inner_text()
    assert "without `..`" in page.locator("#mycnf-2-path-error").inner_text()
    assert page.locator("#mycnf-0-path-error").count() == 0
    assert page.locator("#mycnf-2-path").get_attribute("aria-invalid") == "true"
    summary_links = [link.get_attribute("href") for link in page.locator(".error-summary a").all()]
    assert summary_links == ["#mycnf-1-path", "#mycnf-2-path"]
    assert [page.locator(f"#mycnf-{n}-path").input_value() for n in range(3)] == [
        "my.cnf",
        "my.cnf",
        "/etc/mysql/../x.cnf",
    ]
    assert page.locator("#mycnf-1-text").input_value() == "[mysqld]\nport = 3306\n"
    assert page.locator("#mycnf-2-text").input_value() == "[mysqld]\nmax_connections = 100\n"
    assert page.locator("#variables-text").input_value() == corpus_file(VARIABLES).read_text()

    rows = page.locator(".mycnf-entry").count()
    page.get_by_role("button", name="Add another option file").click()
    assert page.locator(".mycnf-entry").count() == rows + 1
    added = page.get_by_label(f"Path of option file {rows + 1}", exact=True)
    assert added.get_attribute("id") == f"mycnf-{rows}-path" and added.input_value() == ""
    assert added.evaluate("node => node === document.activeElement")

    page.locator("#mycnf-0-path").fill("/etc/my.cnf")
    page.locator("#mycnf-1-path").fill("/etc/mysql/my.cnf")
    page.locator("#mycnf-2-path").fill("/etc/mysql/conf.d/x.cnf")
    audit = stored_audit(organization, submit_and_wait(page))
    assert [file["path"] for file in audit["files"]] == [
        "/etc/my.cnf",
        "/etc/mysql/my.cnf",
        "/etc/mysql/conf.d/x.cnf",
    ]
