"""Live variables are the existence oracle: a complete SHOW GLOBAL VARIABLES dump says what exists."""

from __future__ import annotations

from advisor.audit import AuditInputs, run_audit
from advisor.catalog import get_catalog
from advisor.context import COMPLETE_DUMP_MIN_NAMES, LiveExistence
from advisor.effective import build_effective_config
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
    """A complete-looking dump: every option-settable variable of the version but `drop`."""
    version = parse_version(version_text)
    names = sorted(n for n in CATALOG.names_for(version) if n != drop)
    return "\n".join(f"{name}\t{CATALOG.default(name, version) or ''}" for name in names) + "\n"


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
    assert LiveExistence.from_dump(f"v{i}" for i in range(COMPLETE_DUMP_MIN_NAMES - 1)) is None


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
