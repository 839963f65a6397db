"""`innotune admin create-org` in the embedded default: the last line printed is a working API key."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path


def test_create_org_prints_a_key_that_authenticates(tmp_path: Path, use_env: Callable[..., None]) -> None:
    """On a fresh SQLite file (no broker), create-org prints the org id first and a valid key last."""
    database_url = f"sqlite:///{tmp_path / 'var' / 'innotune.db'}"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env["DATABASE_URL"] = database_url
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "admin", "create-org", "Acme Databases"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = done.stdout.strip().splitlines()
    key = lines[-1]
    assert key.startswith("itk_") and " " not in key
    assert lines[0].startswith("organization_id: ")
    use_env(DATABASE_URL=database_url, CELERY_BROKER_URL=None)
    from services.orgs import organization_for_key
    from store.db import unit_of_work

    with unit_of_work() as session:
        organization = organization_for_key(session, key)
        assert organization is not None
        assert (organization.id, organization.name) == (lines[0].split(": ", 1)[1], "Acme Databases")
        assert f"webhook_secret: {organization.webhook_secret}" in lines


def test_create_org_refuses_an_empty_name(tmp_path: Path) -> None:
    """A blank name is a usage error (exit 2), and no key is printed."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'innotune.db'}"
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "admin", "create-org", "  "],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "itk_" not in done.stdout
