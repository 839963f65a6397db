"""The effective configuration: catalog default, then the option files, then live SHOW VARIABLES."""

from __future__ import annotations

import pytest

from advisor.catalog import get_catalog
from advisor.effective import build_effective_config
from advisor.inputs.optionfiles import OptionFileSet, groups_read
from advisor.inputs.statusvars import parse_variables
from advisor.version import parse_version
from tests.corpus import corpus_file

CATALOG = get_catalog()


def _config(version_text: str, cnf: str | None = None, variables: str | None = None):  # type: ignore[no-untyped-def]
    version = parse_version(version_text)
    options = OptionFileSet.from_texts({"my.cnf": cnf}) if cnf is not None else None
    live = parse_variables(variables, "vars.tsv") if variables is not None else None
    return build_effective_config(CATALOG, version, options, groups_read(version), live)


def test_default_then_file_then_live() -> None:
    """Each layer overrides the one below and says where the value came from."""
    assert _config("8.0.36").get("innodb_buffer_pool_size").source == "default"  # type: ignore[union-attr]
    from_file = _config("8.0.36", "[mysqld]\ninnodb_buffer_pool_size = 4G\n").get("innodb_buffer_pool_size")
    assert (from_file.value, from_file.source, from_file.where()) == ("4G", "cnf", "my.cnf:2")  # type: ignore[union-attr]
    live = _config(
        "8.0.36", "[mysqld]\ninnodb_buffer_pool_size = 4G\n", "innodb_buffer_pool_size\t134217728\n"
    )
    setting = live.get("innodb_buffer_pool_size")
    assert (setting.value, setting.source, setting.file_value) == ("134217728", "live", "4G")  # type: ignore[union-attr]


def test_a_live_value_that_departs_from_the_file_is_drift() -> None:
    """4G in the file but 128 MiB live is drift; 1G written as 1073741824 live is not."""
    config = _config(
        "8.0.36",
        "[mysqld]\ninnodb_buffer_pool_size = 4G\nmax_heap_table_size = 1G\n",
        "innodb_buffer_pool_size\t134217728\nmax_heap_table_size\t1073741824\n",
    )
    assert [(d.name, d.file_value, d.live_value) for d in config.drift] == [
        ("innodb_buffer_pool_size", "4G", "134217728")
    ]


def test_lines_the_server_refuses_or_does_not_read_set_nothing() -> None:
    """tx_isolation on 8.0 (refused), [client] options and `maximum-` caps leave the value alone."""
    config = _config(
        "8.0.36",
        "[client]\nmax_allowed_packet = 1G\n[mysqld]\ntx_isolation = READ-COMMITTED\nmaximum-sort_buffer_size = 8M\n",
    )
    assert config.get("tx_isolation") is None
    assert config.get("max_allowed_packet").source == "default"  # type: ignore[union-attr]
    assert config.get("sort_buffer_size").source == "default"  # type: ignore[union-attr]


def test_an_option_sets_the_variable_of_another_name() -> None:
    """On MySQL 5.6 the option transaction-isolation sets the variable tx_isolation."""
    config = _config("5.6.51", "[mysqld]\ntransaction-isolation = READ-COMMITTED\n")
    assert config.text("tx_isolation") == "READ-COMMITTED"


def test_real_server_file_and_variables_from_the_corpus() -> None:
    """pt-mysql-summary temp_enc008: the file's binlog_format and the live 16 MiB buffer pool."""
    folder = "percona-toolkit/t/pt-mysql-summary/samples/temp_enc008/"
    cnf = corpus_file(folder + "mysql-config-file").read_text()
    variables = corpus_file(folder + "mysql-variables").read_text()
    config = _config("8.0.32-24", cnf, variables)
    assert config.number("innodb_buffer_pool_size") == 16 * 1024 * 1024
    binlog_format = config.get("binlog_format")
    assert binlog_format is not None and binlog_format.file_value == "STATEMENT"
    assert binlog_format.line is not None and binlog_format.source == "live"


MARIADB = "10.11.19-MariaDB"


@pytest.mark.parametrize(
    ("version", "name", "file_value", "live_value"),
    [
        (MARIADB, "long_query_time", "2", "2.000000"),
        (MARIADB, "expire_logs_days", "3", "3.000000"),
        (MARIADB, "event_scheduler", "1", "ON"),
        (MARIADB, "query_cache_type", "1", "ON"),
        (MARIADB, "binlog_format", "2", "ROW"),
        (MARIADB, "binlog_format", "row", "ROW"),
        (MARIADB, "transaction_isolation", "read-committed", "READ-COMMITTED"),
        (MARIADB, "character_set_server", "UTF8MB4", "utf8mb4"),
        (MARIADB, "character_set_server", "utf8", "utf8mb3"),
        (MARIADB, "collation_server", "UTF8MB4_GENERAL_CI", "utf8mb4_general_ci"),
        (MARIADB, "default_storage_engine", "innodb", "InnoDB"),
        (
            MARIADB,
            "sql_mode",
            "TRADITIONAL",
            "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,"
            "TRADITIONAL,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION",
        ),
        (MARIADB, "sql_mode", "ansi", "REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ANSI"),
        (
            "8.0.36",
            "sql_mode",
            "TRADITIONAL",
            "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,"
            "TRADITIONAL,NO_ENGINE_SUBSTITUTION",
        ),
        (
            "8.0.36",
            "sql_mode",
            "NO_ENGINE_SUBSTITUTION,STRICT_TRANS_TABLES",
            "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION",
        ),
        (MARIADB, "optimizer_switch", "'index_merge=off'", "index_merge=off,index_merge_union=on,mrr=off"),
        (MARIADB, "optimizer_switch", "index_merge=default,mrr=OFF", "index_merge=on,mrr=off"),
        (MARIADB, "max_allowed_packet", "1000000", "999424"),
        (MARIADB, "join_buffer_size", "300000", "299904"),
        (MARIADB, "innodb_log_buffer_size", "10000000", "9998336"),
        ("8.0.36", "max_allowed_packet", "1000000", "999424"),
        (MARIADB, "datadir", "/var/lib/mysql", "/var/lib/mysql/"),
        (MARIADB, "tmpdir", "/tmp/", "/tmp"),
        (MARIADB, "max_password_errors", "5", "********"),
    ],
)
def test_one_value_in_two_spellings_is_no_drift(
    version: str, name: str, file_value: str, live_value: str
) -> None:
    """The file's value and the live one compared as the server stores them (each pair read back from
    mariadbd 10.11.19, or from MySQL 8.0's `--verbose --help`), and a masked live value proves nothing."""
    config = _config(version, f"[mysqld]\n{name} = {file_value}\n", f"{name}\t{live_value}\n")
    assert config.drift == ()


@pytest.mark.parametrize(
    ("name", "file_value", "live_value"),
    [
        ("long_query_time", "2", "10.000000"),
        ("event_scheduler", "1", "OFF"),
        ("query_cache_type", "DEMAND", "ON"),
        ("binlog_format", "0", "ROW"),
        ("character_set_server", "utf8mb4", "latin1"),
        ("sql_mode", "TRADITIONAL", "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER"),
        ("optimizer_switch", "index_merge=off", "index_merge=on,index_merge_union=on"),
        ("max_allowed_packet", "1000000", "16777216"),
        ("max_allowed_packet", "1024", "999424"),
        ("datadir", "/var/lib/mysql", "/srv/mysql/"),
        ("innodb_flush_log_at_trx_commit", "2", "1"),
    ],
)
def test_another_stored_value_is_drift(name: str, file_value: str, live_value: str) -> None:
    """Each of these runs another value than the file's once stored."""
    config = _config(MARIADB, f"[mysqld]\n{name} = {file_value}\n", f"{name}\t{live_value}\n")
    assert [setting.name for setting in config.drift] == [name]


def test_an_open_files_limit_the_server_raised_says_so_and_needs_no_restart() -> None:
    """Review 8: mariadbd 10.11.19 ran open_files_limit 393 for the file's 100 (it asks for what
    max_connections 40 and table_open_cache 20 need): the drift says the server raised it and what to write,
    and no restart brings the 100 back (it said restart_required with no reason, audit after audit)."""
    config = _config(
        MARIADB,
        "[mysqld]\nopen_files_limit = 100\nmax_connections = 40\ntable_open_cache = 20\n",
        "open_files_limit\t393\nmax_connections\t40\ntable_open_cache\t20\n",
    )
    reason = config.drift_reasons["open_files_limit"]
    assert "raised open_files_limit from 100 to 393" in reason.text and "write 393 in the file" in reason.text
    assert reason.restart is False


def test_a_value_the_server_lowered_is_drift_with_its_reason() -> None:
    """table_open_cache 30000 lowered to 8485 for open_files_limit 20000, an open_files_limit the system
    caps, and a max_allowed_packet above the maximum: drift, each with the reason the file cannot run."""
    config = _config(
        MARIADB,
        "[mysqld]\ntable_open_cache = 30000\nopen_files_limit = 500000\nmax_allowed_packet = 4G\n",
        "table_open_cache\t8485\nopen_files_limit\t20000\nmax_connections\t3000\nmax_allowed_packet\t1073741824\n",
    )
    assert [setting.name for setting in config.drift] == [
        "table_open_cache",
        "open_files_limit",
        "max_allowed_packet",
    ]
    reasons = {name: reason.text for name, reason in config.drift_reasons.items()}
    assert "fit open_files_limit 20000" in reasons["table_open_cache"]
    assert "open 20000 files" in reasons["open_files_limit"]
    assert "above the largest value the server takes (1073741824)" in reasons["max_allowed_packet"]
    restarts = {name: reason.restart for name, reason in config.drift_reasons.items()}
    assert restarts == {"table_open_cache": True, "open_files_limit": True, "max_allowed_packet": False}


def test_a_table_cache_set_lower_by_hand_has_no_clamp_reason() -> None:
    """A live table_open_cache below the file's that open_files_limit would fit was set by someone: plain drift."""
    config = _config(
        MARIADB,
        "[mysqld]\ntable_open_cache = 4000\n",
        "table_open_cache\t2000\nopen_files_limit\t20000\nmax_connections\t151\n",
    )
    assert [setting.name for setting in config.drift] == ["table_open_cache"]
    assert config.drift_reasons == {}
