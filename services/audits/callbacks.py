"""Audit callbacks: a POST of the finished audit, signed with the organisation's webhook secret, and
the rows it reads and writes.

The receiver checks `X-InnoTune-Signature: sha256=<hex>` = HMAC-SHA256(secret, raw body). The body
is compact JSON; the signature covers its exact bytes.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from services.audits.view import audit_as_dict
from store.models import FINISHED_STATUSES
from store.repositories import audits as repository
from store.repositories import organizations as organization_repository

SIGNATURE_HEADER = "X-InnoTune-Signature"
EVENT_HEADER = "X-InnoTune-Event"
DEFAULT_TIMEOUT_SECONDS = 5.0
USER_AGENT = "InnoTune-Callback/1"


def sign(body: bytes, secret: str) -> str:
    """The signature header's value for `body`."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def verify(body: bytes, secret: str, signature: str) -> bool:
    """Does `signature` sign `body` with `secret`? (Constant-time: what a receiver should do.)"""
    return hmac.compare_digest(sign(body, secret), signature)


def encode_body(audit_dict: dict[str, Any]) -> bytes:
    return json.dumps(audit_dict, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode("utf-8")


def send_callback(
    audit_dict: dict[str, Any], url: str, secret: str, *, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
) -> str:
    """POST the audit to `url`; a short status for `callback_status` (`delivered 200`, `timeout`, …).

    Never raises for network trouble: the status says what happened. Redirects are not followed
    (a callback URL is where the caller said, not where a server sends us).
    """
    import httpx

    body = encode_body(audit_dict)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        EVENT_HEADER: "audit.finished",
        SIGNATURE_HEADER: sign(body, secret),
    }
    try:
        response = httpx.post(
            url, content=body, headers=headers, timeout=timeout_seconds, follow_redirects=False
        )
    except httpx.TimeoutException:
        return "timeout"
    except httpx.HTTPError as exc:
        return f"error {type(exc).__name__}"[:64]
    verdict = "delivered" if 200 <= response.status_code < 300 else "rejected"
    return f"{verdict} {response.status_code}"


def worth_retrying(status: str) -> bool:
    """Timeouts, connection errors, 429 and 5xx may pass later; other answers will not change."""
    if status.startswith(("timeout", "error")):
        return True
    code = status.rpartition(" ")[2]
    return status.startswith("rejected") and (code == "429" or code.startswith("5"))


@dataclass(frozen=True)
class CallbackTarget:
    url: str
    secret: str
    payload: dict[str, object]


def callback_target(session: Session, audit_id: str) -> CallbackTarget | None:
    """The finished audit's callback (URL, the organisation's signing secret, the body), if it has one."""
    audit = repository.get_audit_by_id(session, audit_id)
    if audit is None or audit.callback_url is None or audit.status not in FINISHED_STATUSES:
        return None
    organization = organization_repository.get_organization(session, audit.organization_id)
    if organization is None:
        return None
    return CallbackTarget(audit.callback_url, organization.webhook_secret, audit_as_dict(audit))


def record_callback_status(session: Session, audit_id: str, status: str) -> None:
    """Keep the outcome of the last callback attempt on the audit."""
    audit = repository.get_audit_by_id(session, audit_id)
    if audit is not None:
        audit.callback_status = status[:64]
