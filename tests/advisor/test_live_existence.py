"""Live variables are the existence oracle: a complete SHOW GLOBAL VARIABLES dump says what exists;
a filtered one (however long) gives its values and proves nothing about the names it leaves out."""

from __future__ import annotations

import pytest

from advisor.audit import AuditInputs, run_audit
from advisor.catalog import get_catalog
from advisor.context import LiveExistence
from advisor.effective import build_effective_config
from advisor.errors import InputError
from advisor.inputs.optionfiles import groups_read
from advisor.inputs.statusvars import parse_variables
from advisor.version import parse_version
from tests.corpus import corpus_file

CATALOG = get_catalog()
# MySQL 5.1.49 with the built-in InnoDB (no innodb_version): its own listing has no innodb_old_blocks_time.
BUILTIN_INNODB_51 = "percona-toolkit/t/pt-mysql-summary/samples/temp003/mysql-variables"
# MySQL 5.1.61 (Percona Server, XtraDB): the same variable is listed, at 0.
XTRADB_51 = "percona-toolkit/t/pt-mysql-summary/samples/temp001/mysql-variables"


def _audit(relative: str) -> dict[str, str | None]:
    text = corpus_file(relative).read_text()
    result = run_audit(AuditInputs(variables=text, memory="8G", storage="ssd"))
    return {finding.rule: finding.variable for finding in result.findings}


def test_builtin_innodb_51_gets_no_old_blocks_time_advice() -> None:
    """The 5.1 built-in InnoDB lacks innodb_old_blocks_time: nothing proposes setting it."""
    found = _audit(BUILTIN_INNODB_51)
    assert "buffer_pool.old_blocks_time_zero" not in found
    assert "innodb_old_blocks_time" not in found.values()


def test_xtradb_51_that_lists_old_blocks_time_still_gets_the_advice() -> None:
    """The same rule fires when the server's own listing shows the variable at 0."""
    assert _audit(XTRADB_51).get("buffer_pool.old_blocks_time_zero") == "innodb_old_blocks_time"


def _dump(version_text: str, drop: str) -> str:
    """A complete-looking dump: `version`, `version_comment` and every option-settable variable of the
    version but `drop`."""
    version = parse_version(version_text)
    names = sorted(n for n in CATALOG.names_for(version) if n != drop)
    rows = [
        f"version\t{version_text}",
        "version_comment\tMySQL Community Server - GPL",
        *(f"{name}\t{CATALOG.default(name, version) or ''}" for name in names),
    ]
    return "\n".join(rows) + "\n"


def _config(version_text: str, variables: str):  # type: ignore[no-untyped-def]
    version = parse_version(version_text)
    live = parse_variables(variables, "vars.tsv")
    return build_effective_config(CATALOG, version, None, groups_read(version), live)


def test_a_complete_dump_lacking_a_variable_removes_its_default() -> None:
    """No catalog default is in effect for a variable the live server does not list."""
    config = _config("8.0.36", _dump("8.0.36", "innodb_io_capacity"))
    assert config.get("innodb_io_capacity") is None
    assert config.live is not None and config.live.lacks(
        CATALOG, parse_version("8.0.36"), "innodb_io_capacity"
    )


def test_an_excerpt_is_no_oracle() -> None:
    """A short listing (`SHOW VARIABLES LIKE 'innodb%'`) says nothing about what it leaves out."""
    config = _config("8.0.36", "innodb_buffer_pool_size\t134217728\n")
    assert config.live is None
    assert config.get("innodb_io_capacity") is not None
    assert LiveExistence.from_dump(parse_variables("innodb_buffer_pool_size\t134217728\n", "v")) is None


def test_a_long_dump_without_the_core_names_is_no_oracle() -> None:
    """Length proves nothing: every name of a complete dump but `version` is an excerpt (a LIKE, a grep)."""
    text = _dump("8.0.36", "innodb_io_capacity").replace("version\t8.0.36\n", "")
    config = _config("8.0.36", text)
    assert len(parse_variables(text, "vars.tsv").values) > 200
    assert config.live is None
    assert config.get("innodb_io_capacity") is not None


def test_session_only_and_option_less_names_are_not_judged() -> None:
    """SHOW GLOBAL VARIABLES never lists session-only variables; `lacks` never claims them absent."""
    oracle = LiveExistence(frozenset({"version"}))
    version = parse_version("8.0.36")
    assert not oracle.lacks(CATALOG, version, "sql_log_bin")  # session-only
    assert oracle.lacks(CATALOG, version, "innodb_io_capacity")


def test_an_alias_listed_counts_as_the_variable() -> None:
    """MariaDB lists slave_parallel_threads; its alias slave_parallel_workers exists through it."""
    oracle = LiveExistence(frozenset({"slave_parallel_threads"}))
    assert not oracle.lacks(CATALOG, parse_version("10.11.6-MariaDB"), "slave_parallel_workers")


FULL_10_11 = "mariadb-10.11-sysbench/s02_load_rw_default.global_variables.tsv"
# The DBA review's my.cnf: binlog unsynced, 5000 connections with 256M sort buffers on 8G (32 counted busy: 8 GiB).
RISKY_CNF = "[mysqld]\nlog_bin=mysql-bin\nsync_binlog=0\nmax_connections=5000\nsort_buffer_size=256M\n"


def _risky_audit(variables: str) -> dict[str, str | None]:
    inputs = AuditInputs(
        mycnf={"m.cnf": RISKY_CNF},
        variables=variables,
        variables_name="like.tsv",
        server_version="10.11.19-MariaDB",
        memory="8G",
        storage="ssd",
    )
    result = run_audit(inputs)
    found = {finding.rule: finding.recommended for finding in result.findings}
    found["warnings"] = "\n".join(warning.describe() for warning in result.warnings)
    return found


def test_like_innodb_dump_keeps_the_rules_on_the_file_values() -> None:
    """`SHOW GLOBAL VARIABLES LIKE 'innodb%'` (142 rows on 10.11) proves nothing about sync_binlog or
    max_connections: the file's values are judged as with the full dump, and the input says why."""
    lines = corpus_file(FULL_10_11).read_text().splitlines()
    like = "\n".join(line for line in lines if line.lower().startswith(("variable_name", "innodb"))) + "\n"
    full = _risky_audit(corpus_file(FULL_10_11).read_text())
    partial = _risky_audit(like)
    for found in (full, partial):
        assert "durability.sync_binlog" in found
        assert "memory.overcommitted" in found
    # the pool is held back (the file's connections overcommit memory) and the sort buffer comes down
    assert "buffer_pool.undersized" in partial and partial["buffer_pool.undersized"] is None
    assert (
        partial["memory.per_connection_buffer_raised"] == full["memory.per_connection_buffer_raised"] == "2M"
    )
    assert "like.tsv: looks like a filtered listing: 142 variable(s)" in (partial["warnings"] or "")
    assert "filtered listing" not in (full["warnings"] or "")


def test_an_empty_variables_file_is_named() -> None:
    """An empty file given is refused naming it, not taken as no dump (`<input>: version unknown`)."""
    for version in (None, "10.11.19-MariaDB"):
        with pytest.raises(InputError) as caught:
            run_audit(AuditInputs(variables="", variables_name="vars.tsv", server_version=version))
        assert caught.value.file == "vars.tsv"
        assert "empty" in caught.value.message
