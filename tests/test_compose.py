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


def test_app_services_wait_for_migrations_and_have_healthchecks() -> None:
    """api, worker and beat start after `innotune migrate` succeeded; each has a healthcheck that
    runs a real command."""
    services = _compose()["services"]
    for name in ("api", "worker", "beat"):
        assert services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully", name
        test = services[name]["healthcheck"]["test"]
        assert test[0] == "CMD", name
        if test[1] == "innotune":
            result = CliRunner().invoke(cli, [*test[2:4], "--help"])
            assert result.exit_code == 0, (name, result.output)
            for option in (part for part in test[4:] if part.startswith("--")):
                assert option in result.output, (name, option)


def test_image_ships_every_package_and_installs_the_lock() -> None:
    """The Dockerfile copies every package the wheel includes (collector too) and installs the
    hashed lock before the wheel, as an unprivileged user at run time."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    for package in (
        "advisor",
        "api",
        "worker",
        "store",
        "services",
        "cli",
        "conf",
        "migrations",
        "collector",
    ):
        assert f"COPY {package} {package}" in dockerfile, package
    assert "--require-hashes -r /tmp/requirements.lock" in dockerfile
    assert "--no-deps /wheels/" in dockerfile
    assert "\nUSER innotune" in dockerfile and "INNOTUNE_BEAT_SCHEDULE=/var/lib/innotune/" in dockerfile


def test_the_lock_pins_every_runtime_dependency() -> None:
    """requirements.lock is current: every dependency of pyproject.toml is pinned there with hashes
    (after changing dependencies, run `make lock`)."""
    import tomllib

    from packaging.requirements import Requirement

    lock = (ROOT / "requirements.lock").read_text()
    pinned = {
        line.split("==")[0].strip().lower().replace("_", "-")
        for line in lock.splitlines()
        if "==" in line and not line.startswith((" ", "#"))
    }
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    missing = [req for req in declared if Requirement(req).name.lower().replace("_", "-") not in pinned]
    assert not missing, f"not in requirements.lock (run `make lock`): {missing}"
    assert "--hash=sha256:" in lock and "packaging==" in lock  # kombu's Redis transport needs it
