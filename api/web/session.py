"""Who is looking at the pages: the embedded default's local organisation, or a signed-in API key.

The session cookie holds no secret: the SHA-256 of the API key (what the database stores, useless as a
Bearer key) and when the session started, signed with an HMAC of the server's secret. Each request
looks the key up again, so a revoked key ends its sessions at once. The cookie is Secure, HttpOnly,
SameSite=Strict and scoped to /ui: browsers send it back only over HTTPS (or to localhost) and never
with another site's request, which is also what keeps the forms safe from cross-site posts.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import logging
import secrets
import threading
import time
from typing import Annotated

from fastapi import Depends, Request, Response

from api.deps import DbSession
from conf.settings import get_settings
from services.orgs import local_organization, organization_for_key_hash
from store.models import Organization

COOKIE_NAME = "innotune_session"
COOKIE_PATH = "/ui"
SESSION_SECONDS = 12 * 3600
_VERSION = "v1"
logger = logging.getLogger(__name__)

_lock = threading.Lock()
_local_lock = threading.Lock()
_process_secret: bytes | None = None


class CrossSiteRequest(Exception):
    """A form posted from another site: refused (403) whether or not a session cookie came with it."""


def refuse_cross_site(request: Request) -> None:
    """Browsers name the site a request comes from (Sec-Fetch-Site); our forms post from our pages.

    The SameSite=Strict cookie already keeps other sites' posts unauthenticated; this also covers the
    embedded default, whose pages need no cookie at all.
    """
    if request.headers.get("sec-fetch-site", "same-origin") == "cross-site":
        raise CrossSiteRequest()


SameSitePost = Depends(refuse_cross_site)


class SignInRequired(Exception):
    """No valid session: the pages answer with a redirect to the sign-in form."""

    def __init__(self, next_path: str) -> None:
        super().__init__(next_path)
        self.next_path = next_path


def _secret() -> bytes:
    """INNOTUNE_SECRET_KEY, else one made up for this process (sessions then end with the process)."""
    configured = get_settings().secret_key
    if configured:
        return configured.encode()
    global _process_secret
    with _lock:
        if _process_secret is None:
            _process_secret = secrets.token_bytes(32)
            if not get_settings().embedded:
                logger.warning(
                    "INNOTUNE_SECRET_KEY is not set: web sign-ins last only as long as this process "
                    "and are not shared with other API processes"
                )
        return _process_secret


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(payload: str) -> str:
    return _b64(hmac.new(_secret(), f"{_VERSION}.{payload}".encode(), hashlib.sha256).digest())


def sign_session(key_hash: str, issued_at: int) -> str:
    """The cookie value for a session of the key with this hash, started at `issued_at` (Unix time)."""
    payload = _b64(f"{key_hash}|{issued_at}".encode())
    return f"{_VERSION}.{payload}.{_mac(payload)}"


def read_session(value: str | None, now: int) -> str | None:
    """The key hash a cookie value vouches for; None when absent, forged, malformed or expired."""
    if not value or value.count(".") != 2:
        return None
    version, payload, mac = value.split(".")
    if version != _VERSION or not hmac.compare_digest(mac, _mac(payload)):
        return None
    try:
        key_hash, issued_text = _unb64(payload).decode().split("|")
        issued_at = int(issued_text)
    except (ValueError, UnicodeDecodeError, binascii.Error):
        return None
    if not 0 <= now - issued_at <= SESSION_SECONDS:
        return None
    return key_hash


def start_session(response: Response, key_hash: str) -> None:
    """Set the session cookie on a response."""
    response.set_cookie(
        COOKIE_NAME,
        sign_session(key_hash, int(time.time())),
        max_age=SESSION_SECONDS,
        path=COOKIE_PATH,
        secure=True,
        httponly=True,
        samesite="strict",
    )


def end_session(response: Response) -> None:
    """Remove the session cookie."""
    response.delete_cookie(COOKIE_NAME, path=COOKIE_PATH, secure=True, httponly=True, samesite="strict")


def signed_in_organization(request: Request, session: DbSession) -> Organization | None:
    """The organisation of the request: the local one in the embedded default, else the session's."""
    if get_settings().embedded:
        with _local_lock:  # one process serves the embedded default: never create "local" twice
            organization: Organization | None = local_organization(session)
            session.commit()
    else:
        key_hash = read_session(request.cookies.get(COOKIE_NAME), int(time.time()))
        organization = organization_for_key_hash(session, key_hash) if key_hash else None
    # End the lookup's transaction: the organisation stays usable (expire_on_commit is off).
    session.commit()
    return organization


def web_organization(request: Request, session: DbSession) -> Organization:
    """The page's organisation; SignInRequired (a redirect to the sign-in form) without one."""
    organization = signed_in_organization(request, session)
    if organization is None:
        path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        raise SignInRequired(path)
    request.state.organization_id = organization.id  # for the access log
    return organization


WebOrg = Annotated[Organization, Depends(web_organization)]
