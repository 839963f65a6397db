"""`innotune admin`: one organisation in the embedded default whose keys the CLI prints, lists,
rotates and revokes; organisations and webhook secrets with a broker."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner
from fastapi.testclient import TestClient

from cli.main import cli
from tests.fixtures.real_services import ServiceUrls


def _embedded(tmp_path: Path, use_env: Callable[..., None]) -> str:
    database_url = f"sqlite:///{tmp_path / 'var' / 'innotune.db'}"
    use_env(DATABASE_URL=database_url, CELERY_BROKER_URL=None)
    return database_url


def _run(*args: str) -> list[str]:
    result = CliRunner().invoke(cli, ["admin", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout.strip().splitlines()


def test_create_key_prints_a_key_of_the_organisation_the_pages_show(
    tmp_path: Path, use_env: Callable[..., None]
) -> None:
    """In the embedded default (a real subprocess on a fresh SQLite file) `create-key` prints a key as
    its last line; it authenticates as `local`, the organisation the pages use, so what the API makes
    the pages show."""
    database_url = _embedded(tmp_path, use_env)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env["DATABASE_URL"] = database_url
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "admin", "create-key", "--name", "provisioning"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    key = done.stdout.strip().splitlines()[-1]
    assert key.startswith("itk_") and " " not in key
    from api.app import create_app

    with TestClient(create_app()) as client:
        created = client.post(
            "/v1/servers", json={"name": "db-api-made"}, headers={"Authorization": f"Bearer {key}"}
        )
        assert created.status_code == 201, created.text
        page = client.get("/ui/servers")
        assert "db-api-made" in page.text
    from services.jobs.in_process import wait_for_embedded_work

    wait_for_embedded_work()


def test_create_org_is_refused_in_the_embedded_default(tmp_path: Path, use_env: Callable[..., None]) -> None:
    """No second world: create-org is a usage error there (exit 2) that points at create-key."""
    _embedded(tmp_path, use_env)
    result = CliRunner().invoke(cli, ["admin", "create-org", "local"])
    assert result.exit_code == 2 and "create-key" in result.output and "itk_" not in result.output


def test_keys_are_listed_with_name_and_last_use_rotated_and_revoked(
    tmp_path: Path, use_env: Callable[..., None]
) -> None:
    """keys lists name and last use (after a request); rotate-key prints a new key and kills the
    old one; revoke-key kills the new one; the listing shows both revoked."""
    _embedded(tmp_path, use_env)
    key_id = _run("create-key", "--name", "ci")[0].removeprefix("key_id: ")
    key = _run("keys")  # header + one row, never used yet
    assert len(key) == 2 and key[1].startswith(key_id) and key[1].endswith("  ci") and "  -  -  " in key[1]
    first = _run("create-key", "--name", "deploy")[-1]
    from api.app import create_app

    with TestClient(create_app()) as client:

        def status(api_key: str) -> int:
            return client.get("/v1/servers", headers={"Authorization": f"Bearer {api_key}"}).status_code

        assert status(first) == 200
        (deploy_row,) = [line for line in _run("keys") if line.endswith("  deploy")]
        deploy_id = deploy_row.split()[0]
        assert deploy_row.split("  ")[3] != "-"  # last used: now
        rotated = _run("rotate-key", deploy_id)
        new_key, new_id = rotated[-1], rotated[0].removeprefix("key_id: ")
        assert status(first) == 401 and status(new_key) == 200
        _run("revoke-key", new_id)
        assert status(new_key) == 401
    rows = [line for line in _run("keys") if line.endswith("  deploy")]
    assert len(rows) == 2 and all(row.split("  ")[4] != "-" for row in rows)


def test_create_org_and_webhook_secret_with_a_broker(service_settings: ServiceUrls) -> None:
    """create-org prints id, webhook secret and key; webhook-secret prints the same secret, and
    --rotate a new one that the next call prints."""
    lines = _run("create-org", "Acme Databases")
    assert lines[0].startswith("organization_id: ") and lines[-1].startswith("itk_")
    org_id = lines[0].removeprefix("organization_id: ")
    secret = lines[1].removeprefix("webhook_secret: ")
    assert secret.startswith("whsec_")
    assert _run("webhook-secret", "--org", org_id) == [secret]
    (rotated,) = _run("webhook-secret", "--org", org_id, "--rotate")
    assert rotated != secret and _run("webhook-secret", "--org", org_id) == [rotated]
    result = CliRunner().invoke(cli, ["admin", "create-key", "--name", "x"])
    assert result.exit_code == 2 and "--org" in result.output


def test_create_org_refuses_an_empty_name(service_settings: ServiceUrls) -> None:
    """A blank name is a usage error (exit 2), and no key is printed."""
    result = CliRunner().invoke(cli, ["admin", "create-org", "  "])
    assert result.exit_code == 2 and "itk_" not in result.output
