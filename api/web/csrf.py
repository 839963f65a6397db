"""Forged form posts: every state-changing form carries a per-session token, and its Origin must be ours.

* Token: the browser gets a random `innotune_csrf` cookie (HttpOnly, SameSite=Strict); each form
  carries HMAC(server key, that cookie's value and the session token). Another page cannot read either
  cookie, so it cannot write the token; signing in or out changes the token.
* Origin: a browser names the page a post comes from (`Origin`, else `Referer`). It must be the
  configured public origin (INNOTUNE_PUBLIC_ORIGIN), or, when none is configured, the origin the request
  was sent to. A page on another port or a sibling subdomain is *same-site* for cookies but another
  origin, so its posts are refused here even though the browser sent our cookies along.
Clients that send neither header (scripts, curl) still need the token, which only our pages hand out.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from urllib.parse import urlsplit

from fastapi import Depends, Request, Response

from api.uploads import MAX_BODY_BYTES, MAX_FORM_FIELDS
from conf.server_secret import derived_key
from conf.settings import get_settings
from services.snapshots import LIMITS

CSRF_COOKIE = "innotune_csrf"
CSRF_FIELD = "csrf_token"
SESSION_COOKIE = "innotune_session"
COOKIE_PATH = "/ui"


class CrossSiteRequest(Exception):
    """A form posted from another origin or without our token: refused (403)."""


def _origin_of(url: str) -> str | None:
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def expected_origin(request: Request) -> str:
    """Where our pages live: the configured public origin, else the origin this request was sent to."""
    configured = get_settings().public_origin
    if configured:
        return configured.rstrip("/").lower()
    host = request.headers.get("host", "")
    return f"{request.url.scheme}://{host}".lower()


def check_origin(request: Request) -> None:
    """Refuse a post whose Origin (or Referer) is not ours, or that a browser calls cross-site."""
    origin = request.headers.get("origin")
    if origin is None and (referer := request.headers.get("referer")):
        origin = _origin_of(referer) or "null"
    if origin is not None and origin.lower() != expected_origin(request):
        raise CrossSiteRequest()
    if request.headers.get("sec-fetch-site", "same-origin") == "cross-site":
        raise CrossSiteRequest()


def _browser_id(request: Request) -> str:
    """This browser's random CSRF id: its cookie's, or a new one the page response will set."""
    known = getattr(request.state, "csrf_id", None)
    if known is None:
        cookie = request.cookies.get(CSRF_COOKIE, "")
        known = cookie if 20 <= len(cookie) <= 100 else secrets.token_urlsafe(24)
        request.state.csrf_id = known
        request.state.csrf_cookie_new = known != cookie
    return str(known)


def csrf_token(request: Request) -> str:
    """The token our forms carry for this browser and session."""
    message = f"{_browser_id(request)}|{request.cookies.get(SESSION_COOKIE, '')}".encode()
    digest = hmac.new(derived_key("csrf"), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def set_csrf_cookie(request: Request, response: Response) -> None:
    """Give the browser its CSRF id when the page just made one up."""
    if getattr(request.state, "csrf_cookie_new", False):
        response.set_cookie(
            CSRF_COOKIE,
            request.state.csrf_id,
            path=COOKIE_PATH,
            secure=request.url.scheme == "https",
            httponly=True,
            samesite="strict",
        )


async def protect_form(request: Request) -> None:
    """The guard of every state-changing form: our Origin, then our token in the posted form."""
    check_origin(request)
    if CSRF_COOKIE not in request.cookies:
        raise CrossSiteRequest()
    # The audit form's limits (the largest of our forms): the parsed form is cached for the handler.
    form = await request.form(
        max_files=LIMITS.max_files * 4, max_fields=MAX_FORM_FIELDS * 2, max_part_size=MAX_BODY_BYTES
    )
    submitted = form.get(CSRF_FIELD)
    if not isinstance(submitted, str) or not hmac.compare_digest(submitted, csrf_token(request)):
        raise CrossSiteRequest()


FormPost = Depends(protect_form)
