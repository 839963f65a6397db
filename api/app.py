"""The FastAPI application factory."""

from __future__ import annotations

from fastapi import FastAPI

from api.problems import install_problem_handlers
from api.routers import health
from conf.logging import configure_logging
from conf.settings import get_settings

API_TITLE = "InnoTune"
API_VERSION = "0.1.0"


def create_app() -> FastAPI:
    """Build the app: routers, problem+json handlers, logging."""
    settings = get_settings()
    configure_logging(settings.log_level, settings.log_format)
    app = FastAPI(
        title=API_TITLE,
        version=API_VERSION,
        description="MySQL/InnoDB configuration audits: submit what you know of a server, get a diffed my.cnf.",
    )
    install_problem_handlers(app)
    app.include_router(health.router)
    return app
