"""Audit callbacks: a POST of the finished audit, signed the Standard Webhooks way, and the rows it
reads and writes.

Headers (https://www.standardwebhooks.com/): `webhook-id` (the message id, the same on every retry of
one callback), `webhook-timestamp` (Unix seconds when sent) and `webhook-signature`
(`v1,<base64 HMAC-SHA256>` over `{webhook-id}.{webhook-timestamp}.{body}` with the organisation's
`whsec_…` secret). Receivers verify with any Standard Webhooks library (`Webhook(secret).verify(body,
headers)`), which also refuses timestamps more than five minutes away: a replayed callback fails.
The body is compact JSON; the signature covers its exact bytes.

The address is checked again right before sending (services.audits.callback_address); the outcome is
`delivered <code>`, `rejected <code>` (the receiver answered otherwise), `failed` (no answer: refused,
timed out or unresolvable — we say no more, so the status cannot map someone's network) or `refused`
(the URL leads to an address callbacks may not reach).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.orm import Session
from standardwebhooks.webhooks import Webhook

from services.audits.callback_address import CallbackAddressRefused, resolve_allowed
from services.audits.view import audit_as_dict
from services.webhooks import webhook_secret
from store.models import FINISHED_STATUSES
from store.repositories import audits as repository
from store.repositories import organizations as organization_repository

ID_HEADER = "webhook-id"
TIMESTAMP_HEADER = "webhook-timestamp"
SIGNATURE_HEADER = "webhook-signature"
EVENT_HEADER = "X-InnoTune-Event"
DEFAULT_TIMEOUT_SECONDS = 5.0
USER_AGENT = "InnoTune-Callback/2"
FAILED = "failed"
REFUSED = "refused"


def encode_body(audit_dict: dict[str, Any]) -> bytes:
    return json.dumps(audit_dict, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode("utf-8")


def signed_headers(body: bytes, secret: str, message_id: str, now: datetime | None = None) -> dict[str, str]:
    """The three Standard Webhooks headers for `body`."""
    moment = now or datetime.now(UTC)
    signature = Webhook(secret).sign(message_id, moment, body.decode("utf-8"))
    return {
        ID_HEADER: message_id,
        TIMESTAMP_HEADER: str(int(moment.timestamp())),
        SIGNATURE_HEADER: signature,
    }


def _pinned_request(url: str) -> tuple[str, dict[str, str], dict[str, Any]]:
    """The URL with its host replaced by the checked address, the Host header and the TLS name."""
    import httpx

    parsed = httpx.URL(url)
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    address = resolve_allowed(parsed.host, port)
    pinned = parsed.copy_with(host=address)
    host_header = parsed.host if parsed.port is None else f"{parsed.host}:{parsed.port}"
    if ":" in parsed.host:  # IPv6 literal
        host_header = f"[{parsed.host}]" + (f":{parsed.port}" if parsed.port else "")
    extensions = {"sni_hostname": parsed.host} if parsed.scheme == "https" else {}
    return str(pinned), {"Host": host_header}, extensions


def send_callback(
    audit_dict: dict[str, Any],
    url: str,
    secret: str,
    *,
    message_id: str | None = None,
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS,
) -> str:
    """POST the audit to `url`; a short status for `callback_status` (see the module docstring).

    Never raises for network trouble. Redirects are not followed (a callback URL is where the caller
    said, not where a server sends us).
    """
    import httpx

    body = encode_body(audit_dict)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        EVENT_HEADER: "audit.finished",
        **signed_headers(body, secret, message_id or f"msg_{audit_dict.get('id', 'test')}"),
    }
    try:
        target, host_header, extensions = _pinned_request(url)
        # trust_env off: a proxy from the environment would make its own lookup of the host.
        with httpx.Client(timeout=timeout_seconds, follow_redirects=False, trust_env=False) as client:
            response = client.post(
                target, content=body, headers={**headers, **host_header}, extensions=extensions
            )
    except CallbackAddressRefused:
        return REFUSED
    except (httpx.HTTPError, httpx.InvalidURL, ValueError, OSError):
        return FAILED
    verdict = "delivered" if 200 <= response.status_code < 300 else "rejected"
    return f"{verdict} {response.status_code}"


def worth_retrying(status: str) -> bool:
    """No answer, 429 and 5xx may pass later; other answers (and refused addresses) will not change."""
    if status == FAILED:
        return True
    code = status.rpartition(" ")[2]
    return status.startswith("rejected") and (code == "429" or code.startswith("5"))


@dataclass(frozen=True)
class CallbackTarget:
    url: str
    secret: str
    payload: dict[str, object]
    message_id: str


def callback_target(session: Session, audit_id: str) -> CallbackTarget | None:
    """The finished audit's callback (URL, the organisation's signing secret, the body), if it has one."""
    audit = repository.get_audit_by_id(session, audit_id)
    if audit is None or audit.callback_url is None or audit.status not in FINISHED_STATUSES:
        return None
    organization = organization_repository.get_organization(session, audit.organization_id)
    if organization is None:
        return None
    return CallbackTarget(
        audit.callback_url, webhook_secret(organization), audit_as_dict(audit), f"msg_{audit.id}"
    )


def record_callback_status(session: Session, audit_id: str, status: str) -> None:
    """Keep the outcome of the last callback attempt on the audit."""
    audit = repository.get_audit_by_id(session, audit_id)
    if audit is not None:
        audit.callback_status = status[:64]


def host_of(url: str) -> str:
    """The host a callback URL names (for logs that must not carry the path's tokens)."""
    return urlsplit(url).hostname or ""
