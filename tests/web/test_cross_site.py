"""Forged form posts: every state-changing form needs our per-session token and our Origin, also in
the embedded default where no sign-in guards the pages."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.routing import APIRoute, APIRouter
from fastapi.testclient import TestClient

from tests.corpus import corpus_file
from tests.web.corpus_form import VARIABLES
from tests.web.forms_csrf import form_token


@pytest.fixture
def embedded_client(use_env: Callable[..., None], tmp_path: Path) -> Iterator[TestClient]:
    """The app on a fresh, migrated SQLite file with no broker."""
    url = f"sqlite:///{tmp_path / 'innotune.db'}"
    use_env(DATABASE_URL=url, CELERY_BROKER_URL=None, INNOTUNE_PUBLIC_ORIGIN=None)
    from api.app import create_app
    from migrations.commands import upgrade

    upgrade(url)
    with TestClient(create_app(), base_url="http://127.0.0.1:8000", follow_redirects=False) as client:
        yield client
    from services.jobs.in_process import wait_for_embedded_work

    wait_for_embedded_work()  # the in-process audit finishes on this database, not the next test's


def _page_routers() -> list[APIRouter]:
    """The `router` of every module of the pages (api.web), found by walking the package."""
    import api.web

    routers = []
    for module_info in pkgutil.iter_modules(api.web.__path__):
        module = importlib.import_module(f"api.web.{module_info.name}")
        if isinstance(getattr(module, "router", None), APIRouter):
            routers.append(module.router)
    return routers


def _audit_count() -> int:
    from sqlalchemy import func, select

    from store.db import unit_of_work
    from store.models import Audit

    with unit_of_work() as session:
        return int(session.scalar(select(func.count()).select_from(Audit)) or 0)


def _form(token: str | None) -> dict[str, str]:
    form = {"variables_text": corpus_file(VARIABLES).read_text(), "memory": "24G"}
    if token is not None:
        form["csrf_token"] = token
    return form


def test_every_state_changing_page_route_refuses_a_post_without_our_token(
    embedded_client: TestClient,
) -> None:
    """Each POST/PUT/PATCH/DELETE route under /ui answers 403 to a post with no token and to one with
    a token of another browser, before doing anything."""
    routes = [
        (route.path, method)
        for router in _page_routers()
        for route in router.routes
        if isinstance(route, APIRoute)
        for method in route.methods - {"GET", "HEAD"}
    ]
    assert {("/ui/audits", "POST"), ("/ui/login", "POST"), ("/ui/logout", "POST")} <= set(routes)
    form_token(embedded_client)  # this client has a CSRF cookie, but posts no or a wrong token
    for path, method in routes:
        bare = embedded_client.request(method, path, data={"x": "1"})
        assert bare.status_code == 403, (path, method, bare.status_code)
        wrong = embedded_client.request(method, path, data={"csrf_token": "A" * 43})
        assert wrong.status_code == 403, (path, method, wrong.status_code)
    assert _audit_count() == 0


def test_the_token_of_another_browser_does_not_pass(embedded_client: TestClient) -> None:
    """A token is tied to the browser's own CSRF cookie: one read by another client is refused."""
    from api.app import create_app

    with TestClient(create_app(), base_url="http://127.0.0.1:8000") as attacker:
        stolen = form_token(attacker)
    form_token(embedded_client)
    refused = embedded_client.post("/ui/audits", data=_form(stolen))
    assert refused.status_code == 403
    assert _audit_count() == 0


def test_a_post_from_another_origin_is_refused_even_with_the_token(embedded_client: TestClient) -> None:
    """Another port or a sibling subdomain is same-site but another origin: 403, no audit; our own
    origin (or no Origin at all: a script that read our form) with the token is accepted."""
    token = form_token(embedded_client)
    for origin in ("http://127.0.0.1:9999", "http://evil.127.0.0.1:8000", "null", "https://127.0.0.1:8000"):
        refused = embedded_client.post("/ui/audits", data=_form(token), headers={"Origin": origin})
        assert refused.status_code == 403, origin
    referer = embedded_client.post(
        "/ui/audits", data=_form(token), headers={"Referer": "http://127.0.0.1:9999/attack.html"}
    )
    assert referer.status_code == 403
    cross_site = embedded_client.post(
        "/ui/audits", data=_form(token), headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert cross_site.status_code == 403
    assert _audit_count() == 0
    ours = embedded_client.post("/ui/audits", data=_form(token), headers={"Origin": "http://127.0.0.1:8000"})
    assert ours.status_code == 303 and ours.headers["location"].startswith("/ui/audits/")
    scripted = embedded_client.post("/ui/audits", data=_form(token))
    assert scripted.status_code == 303
    assert _audit_count() == 2


def test_the_configured_public_origin_is_the_only_one(
    embedded_client: TestClient, use_env: Callable[..., None]
) -> None:
    """Behind a proxy the request's own origin is not the user's: INNOTUNE_PUBLIC_ORIGIN decides."""
    use_env(INNOTUNE_PUBLIC_ORIGIN="https://innotune.example.com")
    token = form_token(embedded_client)
    own_host = embedded_client.post(
        "/ui/audits", data=_form(token), headers={"Origin": "http://127.0.0.1:8000"}
    )
    assert own_host.status_code == 403
    public = embedded_client.post(
        "/ui/audits", data=_form(token), headers={"Origin": "https://innotune.example.com"}
    )
    assert public.status_code == 303
    page = embedded_client.get("/ui")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["cache-control"] == "no-store"
