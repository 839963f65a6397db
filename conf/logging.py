"""Logging configured once per process: one JSON object per line, one line per event.

Every line carries `ts` (ISO-8601, UTC), `level`, `logger`, `message`, and the `request_id` of the
HTTP request it belongs to — in the API process, and in the worker while it runs that request's
audit (the id travels in the task's headers). Messages lose any ANSI colour codes: a JSON line is
read by machines, and an escape sequence inside it is noise at best.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from collections.abc import Mapping
from contextvars import ContextVar

#: the id of the HTTP request (or of the request that queued the task) this code runs for.
request_id_var: ContextVar[str | None] = ContextVar("innotune_request_id", default=None)
#: the Celery message header that carries it to the worker.
REQUEST_ID_HEADER = "innotune_request_id"

_ANSI_ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_configured = False


def strip_ansi(text: str) -> str:
    """Remove terminal colour and cursor codes."""
    return _ANSI_ESCAPE.sub("", text)


def _plain(value: object) -> object:
    return strip_ansi(value) if isinstance(value, str) else value


class RequestContextFilter(logging.Filter):
    """Stamp each record with the current request id and strip colour codes from its message."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id_var.get()
        if isinstance(record.msg, str) and "\x1b" in record.msg:
            record.msg = strip_ansi(record.msg)
        # uvicorn adds `color_message` (the message again, with escapes) as an extra field; any other
        # extra string field the JSON line would carry loses its escapes too.
        record.__dict__.pop("color_message", None)
        for key, value in record.__dict__.items():
            if isinstance(value, str) and "\x1b" in value:
                record.__dict__[key] = strip_ansi(value)
        if isinstance(record.args, Mapping):  # `log("%(name)s", {...})`: one mapping of arguments
            record.args = {key: _plain(value) for key, value in record.args.items()}
        elif record.args:
            record.args = tuple(_plain(arg) for arg in record.args)
        return True


class _UtcFormatter(logging.Formatter):
    """The plain-text format, with the same ISO-8601 UTC timestamps as the JSON lines."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        return f"{stamp}.{int(record.msecs):03d}Z"


def build_handler(fmt: str = "json") -> logging.Handler:
    """The stderr handler every process logs through (json, or `text` for people at a terminal)."""
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        from pythonjsonlogger.json import JsonFormatter

        handler.setFormatter(
            JsonFormatter(
                "%(levelname)s %(name)s %(message)s %(request_id)s",
                rename_fields={"levelname": "level", "name": "logger"},
                timestamp="ts",
            )
        )
    else:
        handler.setFormatter(_UtcFormatter("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"))
    handler.addFilter(RequestContextFilter())
    return handler


def configure_logging(level: str = "INFO", fmt: str = "json") -> None:
    """Route every logger (ours, uvicorn's, celery's) to one structured stderr handler."""
    global _configured
    if _configured:
        return
    root = logging.getLogger()
    root.handlers[:] = [build_handler(fmt)]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "celery"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    # Our access log (api.middleware) replaces uvicorn's, which has neither route nor organisation.
    logging.getLogger("uvicorn.access").disabled = True
    _configured = True
