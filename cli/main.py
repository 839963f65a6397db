"""`innotune` — one entry point for the audit, the service processes and administration."""

from __future__ import annotations

import importlib
import sys
from typing import ClassVar

import click

from cli.version import __version__

NOT_IMPLEMENTED_EXIT = 2


class LazyGroup(click.Group):
    """Commands whose modules are imported only when they run (click's lazy-loading pattern).

    `innotune --help` and `--version` then cost click alone: the listing shows each lazy
    command's one-line summary from this table instead of importing its module.
    """

    #: name → (module:attribute, one-line summary for the listing)
    LAZY: ClassVar[dict[str, tuple[str, str]]] = {
        "audit": (
            "cli.audit_command:audit_command",
            "Audit a server offline: my.cnf, variables, status, hardware in; findings and a diff out.",
        ),
        "admin": (
            "cli.admin_command:admin",
            "Administration: organisations, API keys and webhook secrets.",
        ),
        "collect": (
            "cli.collect_command:collect_command",
            "Collect variables, status and InnoDB status from a running server.",
        ),
        "health": (
            "cli.health_command:health_command",
            "Healthchecks of this host's worker and beat (exit 0 when working).",
        ),
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.LAZY])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.LAZY and cmd_name not in self.commands:
            module, _, attribute = self.LAZY[cmd_name][0].partition(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            if name in self.LAZY and name not in self.commands:
                rows.append((name, self.LAZY[name][1]))
            elif (command := self.get_command(ctx, name)) is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(formatter.width - 6 - len(name))))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _not_implemented(name: str) -> None:
    click.echo(f"innotune {name}: not implemented yet", err=True)
    sys.exit(NOT_IMPLEMENTED_EXIT)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="innotune", message="%(prog)s %(version)s")
def cli() -> None:
    """InnoTune: audit a MySQL/MariaDB configuration, or run the service that does it."""


@cli.command()
@click.option("--host", default=None, help="Interface to bind (default from INNOTUNE_HOST, 127.0.0.1).")
@click.option("--port", type=int, default=None, help="Port to listen on (default from INNOTUNE_PORT, 8000).")
def serve(host: str | None, port: int | None) -> None:
    """Start the HTTP API (and, in the embedded default, run tasks in-process)."""
    from cli.serve_process import run_server
    from conf.settings import get_settings

    settings = get_settings()
    run_server(host or settings.host, settings.port if port is None else port)


@cli.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.option("--concurrency", type=int, default=None, help="Worker processes (default: CPU count).")
@click.pass_context
def worker(ctx: click.Context, concurrency: int | None) -> None:
    """Start a Celery worker consuming audits from the broker (extra args go to Celery)."""
    from conf.settings import get_settings

    settings = get_settings()
    if settings.embedded:
        raise click.UsageError(
            "no CELERY_BROKER_URL set: the embedded default runs tasks inside `innotune serve`"
        )
    if settings.worker_metrics_port:
        from worker.observability import prepare_metrics_directory

        prepare_metrics_directory()  # before prometheus_client is imported
    from worker.app import celery_app

    queues = f"{settings.celery_queue},{settings.celery_fleet_queue}"
    argv = [*_quiet(settings.log_format), "worker", "--queues", queues]
    argv += ["--loglevel", settings.log_level]
    if concurrency:
        argv += ["--concurrency", str(concurrency)]
    celery_app.start([*argv, *ctx.args])


@cli.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.pass_context
def beat(ctx: click.Context) -> None:
    """Start Celery beat, which sends the periodic tasks (sweeper, fleet dispatcher)."""
    from conf.settings import get_settings

    settings = get_settings()
    if settings.embedded:
        raise click.UsageError("no CELERY_BROKER_URL set: beat needs a broker")
    from worker.app import celery_app

    schedule = settings.beat_schedule_file
    schedule.parent.mkdir(parents=True, exist_ok=True)
    argv = [
        *_quiet(settings.log_format),
        "beat",
        "--loglevel",
        settings.log_level,
        "--schedule",
        str(schedule),
    ]
    celery_app.start([*argv, *ctx.args])


def _quiet(log_format: str) -> list[str]:
    """Celery's start-up banner is not JSON: leave it out when the logs are."""
    return ["--quiet"] if log_format == "json" else []


@cli.command()
@click.option("--revision", default="head", show_default=True, help="Alembic revision to upgrade to.")
def migrate(revision: str) -> None:
    """Bring the database schema up to date (creates the SQLite file in the embedded default)."""
    from conf.settings import get_settings
    from migrations.commands import upgrade
    from store.db import build_engine

    url = get_settings().database_url
    build_engine(url).dispose()  # creates ./var for the SQLite default
    upgrade(url, revision)
    click.echo(f"database migrated to {revision}", err=True)


def main() -> None:
    """Console-script entry point."""
    cli()


if __name__ == "__main__":
    main()
