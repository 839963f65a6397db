"""`innotune health worker|beat`: container healthchecks for the processes that serve no HTTP.

worker: the node answers a Celery ping through the broker within the timeout.
beat: its schedule file was written recently (beat rewrites it after every task it sends, and the
sweeper is sent every 30 s by default).
"""

from __future__ import annotations

import socket
import sys
import time

import click

UNHEALTHY_EXIT = 1


@click.group("health")
def health_command() -> None:
    """Healthchecks of this host's worker and beat (exit 0 when working).

    Exit 1, with the reason, when not.
    """


@health_command.command("worker")
@click.option("--node", default=None, help="Celery node name (default: celery@<this host name>).")
@click.option("--timeout", type=float, default=5.0, show_default=True, help="Seconds to wait for the reply.")
def worker_health(node: str | None, timeout: float) -> None:
    """The worker answers a ping through the broker."""
    from worker.app import celery_app

    name = node or f"celery@{socket.gethostname()}"
    try:
        replies = celery_app.control.ping(destination=[name], timeout=timeout)
    except Exception as exc:  # the broker itself is down: unhealthy, say why
        _unhealthy(f"worker {name}: broker unreachable ({type(exc).__name__})")
    if not replies:
        _unhealthy(f"worker {name}: no answer to a ping within {timeout:g} s")
    click.echo(f"worker {name}: ok")


@health_command.command("beat")
@click.option(
    "--max-age", type=float, default=180.0, show_default=True, help="Seconds since beat last wrote."
)
def beat_health(max_age: float) -> None:
    """Beat wrote its schedule file within --max-age seconds."""
    from conf.settings import get_settings

    schedule = get_settings().beat_schedule_file
    # dbm backends may add a suffix (.db, .dat) to the name beat was given.
    written = [path.stat().st_mtime for path in schedule.parent.glob(f"{schedule.name}*") if path.is_file()]
    if not written:
        _unhealthy(f"beat: no schedule file at {schedule}")
    age = time.time() - max(written)
    if age > max_age:
        _unhealthy(f"beat: schedule last written {age:.0f} s ago (more than {max_age:g} s)")
    click.echo(f"beat: ok (schedule written {age:.0f} s ago)")


def _unhealthy(reason: str) -> None:
    click.echo(reason, err=True)
    sys.exit(UNHEALTHY_EXIT)
