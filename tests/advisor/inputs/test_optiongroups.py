"""The option groups each server flavor and version reads."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from advisor.inputs.optionfiles import groups_read
from advisor.inputs.optiongroups import is_server_only_group
from advisor.version import parse_version

MARIADBD = os.environ.get("INNOTUNE_MARIADBD", "/usr/sbin/mariadbd")


@pytest.mark.parametrize(
    ("version", "groups"),
    [
        ("8.0.36", {"mysqld", "server", "mysqld-8.0"}),
        ("5.7.44-log", {"mysqld", "server", "mysqld-5.7"}),
        ("9.1.0", {"mysqld", "server", "mysqld-9.1"}),
        ("8.0.32-24", {"mysqld", "server", "mysqld-8.0"}),  # Percona Server reads MySQL's groups
        (
            "10.11.6-MariaDB",
            {"mysqld", "server", "mysqld-10.11", "mariadb", "mariadb-10.11", "mariadbd", "mariadbd-10.11"}
            | {"client-server", "galera"},
        ),
        (
            "10.4.5-MariaDB",
            {"mysqld", "server", "mysqld-10.4", "mariadb", "mariadb-10.4", "client-server", "galera"},
        ),
        (
            "10.4.6-MariaDB",
            {"mysqld", "server", "mysqld-10.4", "mariadb", "mariadb-10.4", "mariadbd", "mariadbd-10.4"}
            | {"client-server", "galera"},
        ),
        (
            "mariadb-10.4",
            {"mysqld", "server", "mysqld-10.4", "mariadb", "mariadb-10.4", "mariadbd", "mariadbd-10.4"}
            | {"client-server", "galera"},
        ),
        ("10.0.38-MariaDB", {"mysqld", "server", "mysqld-10.0", "mariadb", "mariadb-10.0", "client-server"}),
    ],
)
def test_groups_by_flavor_and_version(version: str, groups: set[str]) -> None:
    """MySQL/Percona: mysqld, server, mysqld-X.Y; MariaDB adds mariadb*, client-server, galera, mariadbd*."""
    assert groups_read(parse_version(version)) == groups


def test_server_only_groups_exclude_shared_ones() -> None:
    """New settings may go to [mysqld]/[mariadb]/[mysqld-8.0], never [client-server] or [galera]."""
    groups = groups_read(parse_version("10.11.6-MariaDB"))
    assert [g for g in sorted(groups) if is_server_only_group(g, groups)] == [
        "mariadb",
        "mariadb-10.11",
        "mariadbd",
        "mariadbd-10.11",
        "mysqld",
        "mysqld-10.11",
        "server",
    ]
    assert not is_server_only_group("mysqld_safe", groups)


@pytest.mark.mariadb
def test_groups_match_the_real_mariadbd() -> None:
    """`mariadbd --help --verbose` lists exactly the groups groups_read gives for its version."""
    if not os.access(MARIADBD, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{MARIADBD} is missing, and CI must run the MariaDB checks")
        pytest.skip(f"{MARIADBD} is not installed")
    run = subprocess.run(
        [MARIADBD, "--no-defaults", "--help", "--verbose"], capture_output=True, text=True, timeout=60
    )
    listed = re.search(r"The following groups are read: (.*)", run.stdout)
    version = re.search(r"Ver\s+(\S+)", run.stdout)
    assert listed is not None and version is not None, run.stdout[:500]
    assert groups_read(parse_version(version.group(1))) == set(listed.group(1).split())
