"""The effective configuration: catalog default, then the option files, then live SHOW VARIABLES."""

from __future__ import annotations

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
