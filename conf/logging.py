"""Logging configured once per process: one JSON object per line, one line per event."""

from __future__ import annotations

import logging
import sys

_configured = False


def configure_logging(level: str = "INFO", fmt: str = "json") -> None:
    """Route every logger (ours, uvicorn's, celery's) to one structured stderr handler."""
    global _configured
    if _configured:
        return
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        from pythonjsonlogger.json import JsonFormatter

        handler.setFormatter(
            JsonFormatter(
                "%(asctime)s %(levelname)s %(name)s %(message)s",
                rename_fields={"asctime": "ts", "levelname": "level", "name": "logger"},
            )
        )
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "celery"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    _configured = True
