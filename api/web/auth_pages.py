"""Signing in to the pages with an API key, and signing out (not in the embedded default)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from api.deps import DbSession
from api.web.session import FormPost, end_session, session_token, signed_in_organization, start_session
from api.web.templating import render
from conf.settings import get_settings
from services.web_sessions import sign_in, sign_out

router = APIRouter(prefix="/ui", include_in_schema=False)
HOME = "/ui"


def safe_next(path: str | None) -> str:
    """Where to go after signing in: a path of the pages, never another site."""
    if not path or not path.startswith(HOME) or path.startswith(("//", "/\\")) or "\\" in path:
        return HOME
    return path


def _sign_in(session: Session, key: str) -> str | None:
    token = sign_in(session, key)
    session.commit()
    return token


@router.get("/login")
def login_form(request: Request, session: DbSession, next: str | None = None) -> Response:
    """The sign-in form: one field for an API key."""
    if get_settings().embedded or signed_in_organization(request, session) is not None:
        return RedirectResponse(safe_next(next), status_code=303)
    return render(request, "login.html", {"next": safe_next(next), "error": None})


@router.post("/login", dependencies=[FormPost])
async def login(
    request: Request,
    session: DbSession,
    api_key: Annotated[str, Form(max_length=300)] = "",
    next: Annotated[str, Form(max_length=2000)] = HOME,
) -> Response:
    """Check the key; on success start a session and go where the user was going."""
    if get_settings().embedded:
        return RedirectResponse(HOME, status_code=303)
    key = api_key.strip()
    token = await run_in_threadpool(_sign_in, session, key) if key else None
    if token is None:
        error = "Enter an API key." if not key else "That API key is unknown or revoked."
        return render(request, "login.html", {"next": safe_next(next), "error": error}, status_code=401)
    response = RedirectResponse(safe_next(next), status_code=303)
    start_session(response, token)
    return response


@router.post("/logout", dependencies=[FormPost])
def logout(request: Request, session: DbSession) -> Response:
    """End the session, on the server too: a copy of the cookie stops working."""
    sign_out(session, session_token(request))
    response = RedirectResponse(f"{HOME}/login", status_code=303)
    end_session(response)
    return response
