"""replication: the shared binlog helpers and real replica/primary configurations."""

from __future__ import annotations

import pytest

from advisor.advisors.replication import binlog_retention_unset, replica_writable
from advisor.audit import AuditInputs
from advisor.derived.replication import binlog_enabled, normalise_level
from tests.advisor.advisors._audit import context
from tests.corpus import corpus_file


@pytest.mark.parametrize(
    ("version", "lines", "expected"),
    [
        ("8.0.36", "", True),  # on by default from 8.0.3
        ("5.7.44", "", False),
        ("10.11.6-MariaDB", "", False),
        ("5.7.44", "log-bin\n", True),  # a bare flag
        ("5.7.44", "log_bin = /var/log/mysql/mysql-bin\n", True),  # a base name
        ("8.0.36", "skip-log-bin\n", False),
        ("8.0.36", "disable_log_bin\n", False),
    ],
)
def test_binlog_enabled_reads_every_spelling(version: str, lines: str, expected: bool) -> None:
    """Defaults per version, bare log-bin, a base name and skip-/disable- prefixes all decide correctly."""
    ctx = context(AuditInputs(mycnf={"my.cnf": f"[mysqld]\n{lines}"}, server_version=version))
    assert binlog_enabled(ctx) is expected


@pytest.mark.parametrize(
    "spelling", ["read-committed", "READ_COMMITTED", "'READ COMMITTED'", " Read-Committed "]
)
def test_isolation_spellings_normalise(spelling: str) -> None:
    """Every way people write the level compares as READ-COMMITTED."""
    assert normalise_level(spelling) == "READ-COMMITTED"


def test_percona_replica_conf_is_writable() -> None:
    """The real Percona 8.0 replica config sets neither read_only nor super_read_only."""
    text = corpus_file("realworld/mycnf/DataDog_integrations-core__percona-replica.conf").read_text()
    ctx = context(AuditInputs(mycnf={"my.cnf": text}, server_version="8.0.36-28", role="replica"))
    (proposal,) = replica_writable.check(ctx)
    assert (proposal.variable, proposal.recommended) == ("super_read_only", "ON")


def test_percona_57_master_never_purges_binlogs() -> None:
    """The real Percona 5.7 master example enables log_bin without any retention."""
    text = corpus_file(
        "realworld/mycnf/percona_percona-docker__percona-server-master-slave__my.cnf"
    ).read_text()
    assert "log_bin=/var/log/mysql/mysqlbinlog" in text and "expire_logs_days" not in text
    ctx = context(AuditInputs(mycnf={"my.cnf": text}, server_version="5.7.44-48", role="primary"))
    (proposal,) = binlog_retention_unset.check(ctx)
    days = ctx.thresholds.replication.binlog_retention_days
    assert (proposal.variable, proposal.recommended) == ("expire_logs_days", str(days))
