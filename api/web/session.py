"""Who is looking at the pages: the embedded default's local organisation, or a signed-in API key.

A sign-in is a server-side session (services.web_sessions): the cookie holds a random token whose hash
the database keeps, so signing out, expiry and revoking the key end it at once, wherever the cookie
was copied. The cookie is Secure, HttpOnly, SameSite=Strict and scoped to /ui. Forms are guarded
separately (api.web.csrf).
"""

from __future__ import annotations

import threading
from typing import Annotated

from fastapi import Depends, Request, Response

from api.deps import DbSession
from api.ratelimit import enforce_rate_limit
from api.web.csrf import COOKIE_PATH, CSRF_COOKIE, SESSION_COOKIE, CrossSiteRequest, FormPost
from conf.settings import get_settings
from services.orgs import local_organization
from services.web_sessions import SESSION_LIFETIME, session_organization
from store.models import Organization

COOKIE_NAME = SESSION_COOKIE
SESSION_SECONDS = int(SESSION_LIFETIME.total_seconds())
_local_lock = threading.Lock()

__all__ = ["CrossSiteRequest", "FormPost", "WebOrg"]


class SignInRequired(Exception):
    """No valid session: the pages answer with a redirect to the sign-in form."""

    def __init__(self, next_path: str) -> None:
        super().__init__(next_path)
        self.next_path = next_path


def start_session(response: Response, token: str) -> None:
    """Set the session cookie on a response, and drop the CSRF id so the next page makes a new one."""
    response.set_cookie(
        COOKIE_NAME,
        token,
        max_age=SESSION_SECONDS,
        path=COOKIE_PATH,
        secure=True,
        httponly=True,
        samesite="strict",
    )
    response.delete_cookie(CSRF_COOKIE, path=COOKIE_PATH, httponly=True, samesite="strict")


def end_session(response: Response) -> None:
    """Remove the session cookie (the session row is revoked by the caller)."""
    response.delete_cookie(COOKIE_NAME, path=COOKIE_PATH, secure=True, httponly=True, samesite="strict")
    response.delete_cookie(CSRF_COOKIE, path=COOKIE_PATH, httponly=True, samesite="strict")


def session_token(request: Request) -> str:
    return request.cookies.get(COOKIE_NAME, "")


def signed_in_organization(request: Request, session: DbSession) -> Organization | None:
    """The organisation of the request: the local one in the embedded default, else the session's."""
    if get_settings().embedded:
        with _local_lock:  # one process serves the embedded default: never create "local" twice
            organization: Organization | None = local_organization(session)
            session.commit()
    else:
        organization = session_organization(session, session_token(request))
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
    # The pages draw from the organisation's one rate limit, as its API calls do.
    enforce_rate_limit(request.app.state.rate_limiter, organization.id)
    return organization


WebOrg = Annotated[Organization, Depends(web_organization)]
