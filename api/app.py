"""The FastAPI application factory."""

from __future__ import annotations

from fastapi import FastAPI

from api.docs import install_docs
from api.input_guard import InputGuardMiddleware
from api.limits import BodySizeLimitMiddleware
from api.metrics import install_work_collector
from api.metrics import router as metrics_router
from api.middleware import RequestContextMiddleware
from api.problems import install_problem_handlers
from api.ratelimit import build_rate_limiter
from api.routers import analyze, audits, drift, fleets, health, keys, servers, snapshots
from api.schemas.common import install_problem_schema
from api.uploads import MAX_BODY_BYTES
from api.web import fleets as fleet_pages
from api.web import install_web_pages
from conf.logging import configure_logging
from conf.settings import get_settings

API_TITLE = "InnoTune"
API_VERSION = "0.1.0"


def create_app() -> FastAPI:
    """Build the app: routers, problem+json handlers, body-size limit, rate limiter, logging."""
    settings = get_settings()
    configure_logging(settings.log_level, settings.log_format)
    app = FastAPI(
        title=API_TITLE,
        version=API_VERSION,
        description="MySQL/InnoDB configuration audits: submit what you know of a server, get a diffed my.cnf.",
        docs_url=None,  # api.docs serves them from the package, not a CDN
        redoc_url=None,
    )
    app.state.rate_limiter = build_rate_limiter(
        settings.rate_limit_per_minute, settings.celery_broker_url, settings.celery_queue
    )
    app.add_middleware(BodySizeLimitMiddleware, max_body_bytes=MAX_BODY_BYTES)
    app.add_middleware(InputGuardMiddleware)  # URL, authentication and JSON checks before any body is read
    app.add_middleware(RequestContextMiddleware)  # outermost: ids, headers, access log, metrics
    install_problem_handlers(app)
    app.include_router(health.router)
    app.include_router(metrics_router)
    install_work_collector()
    install_docs(app)
    for resource in (servers, snapshots, audits, analyze, fleets, drift, keys):
        app.include_router(resource.router)
    app.include_router(snapshots.by_id_router)
    install_problem_schema(app)
    app.include_router(fleet_pages.router)  # before the pages' catch-all 404 route
    install_web_pages(app)
    return app
