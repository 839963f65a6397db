"""A Snapshot built from the real MariaDB 10.11 sysbench files of the corpus, for tests that need
one without a server."""

from __future__ import annotations

from collector.redact import strip_innodb_status
from collector.snapshot import Snapshot
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default."


def _text(suffix: str) -> str:
    return corpus_file(SYSBENCH + suffix).read_text()


def corpus_snapshot() -> Snapshot:
    """Variables, the two status samples 20 s apart, the stripped InnoDB status, the TABLES dump."""
    innodb_status, removed = strip_innodb_status(_text("innodb_status.txt"))
    return Snapshot(
        variables=_text("global_variables.tsv"),
        status=(_text("global_status.t20s.tsv"), _text("global_status.tsv")),
        innodb_status=innodb_status,
        schema=_text("is_tables.tsv"),
        server_version="10.11.19-MariaDB-0+deb12u1",
        server_hostname="db1",
        datadir="/var/lib/mysql/",
        collected_at="2026-11-22T11:40:00+00:00",
        interval_seconds=20,
        innodb_lines_removed=removed,
        redacted_variables=(),
        notes=("schema facts: an example note",),
    )
