"""docker-compose.yml cannot be run here (no Docker engine), so read it and check what it names."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from cli.main import cli

ROOT = Path(__file__).resolve().parents[1]


def _compose() -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_has_the_production_services() -> None:
    """api, worker, beat, postgres and redis are all there."""
    assert {"api", "worker", "beat", "postgres", "redis"} <= set(_compose()["services"])


def test_compose_commands_are_real_innotune_subcommands() -> None:
    """Every `innotune X` the compose file runs exists and accepts the options it is given."""
    services = _compose()["services"]
    for name in ("api", "worker", "beat", "migrate"):
        command = services[name]["command"]
        assert command[0] == "innotune", name
        result = CliRunner().invoke(cli, [*command[1:2], "--help"])
        assert result.exit_code == 0, (name, result.output)
        for option in (part for part in command[2:] if part.startswith("--")):
            assert option in result.output, (name, option)


def test_compose_points_the_app_at_postgres_and_redis_services() -> None:
    """The app containers use psycopg on the postgres service and Redis on the redis service."""
    services = _compose()["services"]
    for name in ("api", "worker", "beat"):
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgresql+psycopg://") and "@postgres:" in env["DATABASE_URL"]
        assert env["CELERY_BROKER_URL"].startswith("redis://redis:")
        # one secret for every process: the worker signs callbacks with what the API hands out
        assert env["INNOTUNE_SECRET_KEY"].startswith("${INNOTUNE_SECRET_KEY:?")
    assert (ROOT / services["api"]["build"] / "Dockerfile").is_file()
