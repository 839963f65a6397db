"""The Celery application. Results live in the database, so there is no result backend."""

from __future__ import annotations

from celery import Celery
from celery.signals import setup_logging

from conf.logging import configure_logging
from conf.settings import Settings, get_settings


def configure_celery(app: Celery, settings: Settings) -> None:
    """(Re)apply the settings to the app: broker, queue, time limits, redelivery and the beat schedule."""
    app.conf.update(
        broker_url=settings.celery_broker_url or "memory://",
        task_default_queue=settings.celery_queue,
        task_always_eager=settings.embedded,
        task_soft_time_limit=settings.audit_soft_time_limit_seconds,
        task_time_limit=settings.audit_time_limit_seconds,
        # With acks_late, a task whose worker died is handed out again once this much time has passed
        # (checked at worker start and every few seconds); the sweeper covers anything longer.
        broker_transport_options={
            "visibility_timeout": settings.broker_visibility_timeout_seconds,
            "unacked_restore_interval": 5,
            "unacked_restore_throttle": 1,
            # each free worker process takes from the main queue before the fleet queue (settings)
            "queue_order_strategy": "sorted",
        },
        beat_schedule={
            "sweep-stuck-audits": {
                "task": "audits.sweep",
                "schedule": settings.sweep_interval_seconds,
                "options": {"queue": settings.celery_queue, "expires": settings.sweep_interval_seconds},
            },
            "prune-audits": {
                "task": "audits.prune",
                "schedule": settings.audit_prune_interval_seconds,
                "options": {"queue": settings.celery_queue, "expires": settings.audit_prune_interval_seconds},
            },
            # Beat fans out: this small task starts due fleets' runs and sends one audit per server.
            "dispatch-fleets": {
                "task": "fleets.dispatch",
                "schedule": settings.fleet_dispatch_interval_seconds,
                "options": {
                    "queue": settings.celery_queue,
                    "expires": settings.fleet_dispatch_interval_seconds,
                },
            },
        },
    )
    if app._pool is not None:  # connections to the previous broker must not be reused
        app._pool.force_close_all()
        app._pool = None


def create_celery() -> Celery:
    """Build the Celery app from the settings; embedded mode runs tasks in-process."""
    app = Celery("innotune", include=["worker.tasks"])
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        # A child that an upload blew up is replaced after its task instead of keeping the memory.
        worker_max_memory_per_child=get_settings().worker_max_memory_per_child_kib or None,
        # Beat writes its schedule after every task it sends: the file's age tells beat is alive.
        beat_sync_every=1,
        worker_hijack_root_logger=False,
        timezone="UTC",
    )
    configure_celery(app, get_settings())
    return app


@setup_logging.connect
def _configure_worker_logging(**_kwargs: object) -> None:
    settings = get_settings()
    configure_logging(settings.log_level, settings.log_format)


celery_app = create_celery()

import worker.observability  # noqa: E402, F401  (its signal handlers: request ids and metrics)
