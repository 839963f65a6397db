"""The registry of job bodies by name, for the in-process runner of the embedded default.

Bodies register with `@job(name)` in the modules listed in JOB_MODULES (one explicit list, like
Celery's `include`); the registry imports those modules on first lookup, so whoever sends jobs
imports no job body. `worker/tasks.py` wraps the same bodies as Celery tasks of the same names.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from typing import Any, TypeVar

JOB_MODULES = ("services.audits.jobs", "services.audits.batch", "services.fleets.jobs")

Body = TypeVar("Body", bound=Callable[..., Any])
_bodies: dict[str, Callable[..., Any]] = {}
_lock = threading.Lock()
_loaded = False


def job(name: str) -> Callable[[Body], Body]:
    """Register the decorated function as the body of job `name` (names are unique)."""

    def register(body: Body) -> Body:
        existing = _bodies.get(name)
        if existing is not None and existing is not body:
            raise ValueError(f"job {name!r} is registered twice")
        _bodies[name] = body
        return body

    return register


def registered_jobs() -> dict[str, Callable[..., Any]]:
    """Every job body by name, after importing the modules that hold them."""
    global _loaded
    with _lock:
        if not _loaded:
            for module in JOB_MODULES:
                importlib.import_module(module)
            _loaded = True
    return dict(_bodies)


def job_body(name: str) -> Callable[..., Any]:
    """The body of job `name`; LookupError for a name nobody registered."""
    try:
        return registered_jobs()[name]
    except KeyError:
        raise LookupError(f"no job named {name!r} (bodies register in {', '.join(JOB_MODULES)})") from None
