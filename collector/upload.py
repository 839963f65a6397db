"""`--upload URL`: POST the snapshot files to the service as one snapshot of a registered server.

`POST {URL}/v1/servers/{ID}/snapshots`, multipart/form-data with the fields `variables`, `status`
(twice, oldest first), `innodb_status`, `schema`, `hardware` and `persisted` (MySQL 8.0+), plus the detected role as the plain
fields `detected_role` and `detected_role_how` (the server takes it unless a user gave its role),
authorised by `Bearer {API key}`.
The answer is the snapshot resource (its `id` is printed); an error is application/problem+json,
whose `detail` is shown.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from collector.errors import CollectError
from collector.files import SnapshotFile
from collector.role import RoleFinding

TIMEOUT_SECONDS = 60.0
_USER_AGENT = "innotune-collect"


def snapshots_url(base_url: str, server_id: str) -> str:
    """The snapshots collection of one server under the service's base URL."""
    return f"{base_url.rstrip('/')}/v1/servers/{quote(server_id, safe='')}/snapshots"


def _problem_detail(response: Any) -> str:
    """The problem+json `detail` (or `title`), else the start of the body."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and (body.get("detail") or body.get("title")):
        return str(body.get("detail") or body.get("title"))
    text = response.text.strip()
    return text[:300] if text else str(response.reason_phrase)


def upload_snapshot(
    files: list[SnapshotFile], base_url: str, api_key: str, server_id: str, role: RoleFinding | None = None
) -> str:
    """Upload the files (and the detected role); the new snapshot's id. CollectError with the
    service's reason on failure."""
    import httpx

    url = snapshots_url(base_url, server_id)
    parts = [(file.field, (file.name, file.text.encode("utf-8"), file.content_type)) for file in files]
    fields = {"detected_role": role.role, "detected_role_how": role.how[:500]} if role is not None else {}
    headers = {"Authorization": f"Bearer {api_key}", "User-Agent": _USER_AGENT, "Accept": "application/json"}
    try:
        response = httpx.post(url, files=parts, data=fields, headers=headers, timeout=TIMEOUT_SECONDS)
    except httpx.HTTPError as exc:
        raise CollectError(f"cannot upload to {url}: {exc}") from None
    if response.status_code >= 400:
        raise CollectError(f"upload refused ({response.status_code}): {_problem_detail(response)}")
    try:
        body = response.json()
    except ValueError:
        body = None
    snapshot_id = body.get("id") if isinstance(body, dict) else None
    if not isinstance(snapshot_id, str) or not snapshot_id:
        raise CollectError(f"upload answered {response.status_code} without a snapshot id")
    return snapshot_id
