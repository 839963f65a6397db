"""What operators see of the worker: its logs carry the request id of the HTTP request that queued
each task, and its metrics (services.telemetry's, counted in the pool's child processes) are served
by the worker's main process in prometheus-client's multiprocess mode.

`prepare_metrics_directory()` must run before prometheus_client is first imported (the `innotune
worker` command does it): the children inherit the directory and write their samples there.
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import tempfile
from contextvars import Token
from pathlib import Path
from typing import Any

from celery.signals import task_postrun, task_prerun, worker_init, worker_process_shutdown

from conf.logging import REQUEST_ID_HEADER, request_id_var
from conf.settings import get_settings

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
logger = logging.getLogger(__name__)
_tokens: dict[str, Token[str | None]] = {}


def prepare_metrics_directory() -> Path:
    """An empty directory for this worker's metric files (samples of an earlier run would add up)."""
    configured = os.environ.get(MULTIPROC_ENV)
    if configured:
        directory = Path(configured)
    else:  # ours alone: removed when the worker exits
        directory = Path(tempfile.mkdtemp(prefix="innotune-worker-metrics-"))
        atexit.register(shutil.rmtree, directory, ignore_errors=True)
    directory.mkdir(parents=True, exist_ok=True)
    for stale in directory.glob("*.db"):
        stale.unlink()
    os.environ[MULTIPROC_ENV] = str(directory)
    return directory


@worker_init.connect
def _serve_metrics(**_kwargs: Any) -> None:
    port = get_settings().worker_metrics_port
    if not port or not os.environ.get(MULTIPROC_ENV):
        return
    from prometheus_client import CollectorRegistry, start_http_server
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    start_http_server(port, registry=registry)
    logger.info("worker metrics on port %d", port, extra={"port": port})


@worker_process_shutdown.connect
def _forget_child(pid: int | None = None, **_kwargs: Any) -> None:
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid or os.getpid())


@task_prerun.connect
def _adopt_request_id(task_id: str | None = None, task: Any = None, **_kwargs: Any) -> None:
    request = getattr(task, "request", None)
    request_id = getattr(request, REQUEST_ID_HEADER, None) if request is not None else None
    if request_id is None and request is not None:
        request_id = (getattr(request, "headers", None) or {}).get(REQUEST_ID_HEADER)
    if task_id and isinstance(request_id, str):
        _tokens[task_id] = request_id_var.set(request_id)


@task_postrun.connect
def _drop_request_id(task_id: str | None = None, **_kwargs: Any) -> None:
    token = _tokens.pop(task_id or "", None)
    if token is not None:
        request_id_var.reset(token)
