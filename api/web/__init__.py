"""The DBA pages under /ui: server-rendered Jinja2 templates over the same services as the JSON API.

Plain HTML forms that work without JavaScript (a little script adds copy buttons and faster progress);
pictures are inline SVG drawn on the server. `install_web_pages(app)` adds the routes, the static files
and the handlers that answer sign-in redirects and missing pages in HTML.
"""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from api.web import audit_pages, auth_pages, downloads, server_pages
from api.web.audit_pages import PageNotFound
from api.web.session import CrossSiteRequest, SignInRequired
from api.web.templating import STATIC_DIR, render

_fallback = APIRouter(prefix="/ui", include_in_schema=False)
_entry = APIRouter(include_in_schema=False)


@_entry.get("/")
@_entry.get("/ui/")
def entry() -> Response:
    """The address `make run` prints, and /ui/ with a slash: the form."""
    return RedirectResponse("/ui", status_code=307)


@_fallback.get("/{path:path}")
def missing_page(path: str) -> Response:
    """Any other address under /ui: the HTML 404 page."""
    raise PageNotFound()


def install_web_pages(app: FastAPI) -> None:
    """Mount /ui: pages, static files, and the HTML answers for sign-in and missing pages."""

    @app.exception_handler(SignInRequired)
    async def _sign_in(request: Request, exc: SignInRequired) -> Response:
        return RedirectResponse(f"/ui/login?next={quote(exc.next_path, safe='/')}", status_code=303)

    @app.exception_handler(CrossSiteRequest)
    async def _cross_site(request: Request, exc: CrossSiteRequest) -> Response:
        return PlainTextResponse(
            "Refused: forms are accepted from this site's own pages only. If you sent it from here, "
            "the page was too old: reload it and send the form again.",
            status_code=403,
        )

    @app.exception_handler(PageNotFound)
    async def _not_found(request: Request, exc: PageNotFound) -> Response:
        return render(request, "not_found.html", {}, status_code=404)

    app.mount("/ui/static", StaticFiles(directory=STATIC_DIR), name="ui-static")
    app.include_router(_entry)
    for module in (auth_pages, audit_pages, downloads, server_pages):
        app.include_router(module.router)
    app.include_router(_fallback)
