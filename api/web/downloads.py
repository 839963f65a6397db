"""The result page's downloads: each recommended option file, a zip of all, the combined diff, and the
drop-in file — read from the stored audit (the same service the API's /files and /files.zip use)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from api.audit_flow import load_audit
from api.web.audit_pages import PageNotFound
from api.web.changes import audit_export, audit_markdown, changes_csv
from api.web.filesview import download_name, dropin_download_name
from api.web.session import WebOrg
from services.audits.files import files_zip
from services.errors import NotFound
from store.models import AuditStatus

router = APIRouter(prefix="/ui", include_in_schema=False)
TEXT = "text/plain; charset=utf-8"


def _succeeded(org_id: str, audit_id: str) -> dict[str, Any]:
    """The finished audit with its files; the 404 page for another organisation's or an unfinished one."""
    try:
        view = load_audit(org_id, audit_id, with_files=True)
    except NotFound:
        raise PageNotFound() from None
    if view["status"] != AuditStatus.SUCCEEDED:
        raise PageNotFound()
    return view


def _attachment(body: str | bytes, filename: str, media_type: str = TEXT) -> Response:
    headers = {"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"}
    return Response(body, media_type=media_type, headers=headers)


@router.get("/audits/{audit_id}/files/{index}")
def download_file(audit_id: str, index: int, org: WebOrg) -> Response:
    """One recommended option file (by its place in the upload order), under its own file name."""
    files = _succeeded(org.id, audit_id).get("files") or []
    if not 0 <= index < len(files):
        raise PageNotFound()
    return _attachment(files[index]["recommended"], download_name(files[index]["path"]))


@router.get("/audits/{audit_id}/files.zip")
def download_zip(audit_id: str, org: WebOrg) -> Response:
    """Every recommended file under its path, the combined diff and the drop-in file, as one zip."""
    view = _succeeded(org.id, audit_id)
    if view.get("files") is None:
        raise PageNotFound()  # stored before audits kept their files: the diff is there instead
    body = files_zip(view["files"], view.get("dropin"))
    return _attachment(body, f"innotune-{audit_id}.zip", "application/zip")


@router.get("/audits/{audit_id}/dropin")
def download_dropin(audit_id: str, org: WebOrg) -> Response:
    """The drop-in alternative: one override file read after the user's own."""
    dropin = _succeeded(org.id, audit_id).get("dropin")
    if dropin is None:
        raise PageNotFound()
    return _attachment(dropin["text"], dropin_download_name(dropin))


@router.get("/audits/{audit_id}/my.cnf")
def download_mycnf(audit_id: str, org: WebOrg) -> Response:
    """The first recommended file alone (links from before every file was offered)."""
    mycnf = _succeeded(org.id, audit_id).get("mycnf")
    if mycnf is None:
        raise PageNotFound()
    return _attachment(mycnf, "my.cnf")


@router.get("/audits/{audit_id}/my.cnf.diff")
def download_diff(audit_id: str, org: WebOrg) -> Response:
    """The combined unified diff of every file (apply with `patch -p1` in `/`)."""
    diff = _succeeded(org.id, audit_id).get("diff")
    if diff is None:
        raise PageNotFound()
    return _attachment(diff, "my.cnf.diff")


@router.get("/audits/{audit_id}/export.json")
def export_json(audit_id: str, org: WebOrg) -> Response:
    """What the page shows, as JSON: the audit as the API reads it, its drift and its diff."""
    body = audit_export(_succeeded(org.id, audit_id))
    headers = {
        "Content-Disposition": f'attachment; filename="innotune-{audit_id}.json"',
        "Cache-Control": "no-store",
    }
    return JSONResponse(body, headers=headers)


@router.get("/audits/{audit_id}/export.csv")
def export_csv(audit_id: str, org: WebOrg) -> Response:
    """The changes table as CSV: one row per finding."""
    body = changes_csv(_succeeded(org.id, audit_id).get("findings") or [])
    return _attachment(body, f"innotune-{audit_id}.csv", "text/csv; charset=utf-8")


@router.get("/audits/{audit_id}/export.md")
def export_markdown(audit_id: str, org: WebOrg) -> Response:
    """The page as Markdown: the changes table, the drift, the findings and the diff."""
    view = _succeeded(org.id, audit_id)
    body = audit_markdown(view, f"InnoTune audit {audit_id}")
    return _attachment(body, f"innotune-{audit_id}.md", "text/markdown; charset=utf-8")
