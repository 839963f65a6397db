"""What judge() says, pinned on the behaviours observed on mariadbd 10.11.19 and MySQL's rules."""

from __future__ import annotations

import pytest

from advisor.optioncheck import Outcome, Verdict, judge


def maria(name: str, value: str | None) -> Verdict:
    return judge(name, value, flavor="mariadb", version="10.11")


def test_a_word_for_a_number_is_refused_and_the_number_suggested() -> None:
    """ON for a number is a bad suffix 'O' to the server; the intent is 1."""
    verdict = judge("max_connections", "ON", flavor="mariadb", version="10.11")
    assert verdict.outcome is Outcome.REFUSES_TO_START
    assert verdict.suggestion == "max_connections = 1"


def test_a_decimal_size_disables_innodb_and_the_whole_size_is_suggested() -> None:
    """1.5G is refused by the InnoDB plugin, which the server then disables; 1536M is meant."""
    verdict = judge("innodb_buffer_pool_size", "1.5G", flavor="mariadb", version="10.11")
    assert verdict.outcome is Outcome.DISABLES_PLUGIN and verdict.plugin == "InnoDB"
    assert verdict.stops_server and verdict.is_critical
    assert verdict.suggestion == "innodb_buffer_pool_size = 1536M"
    assert "InnoDB tables become unavailable" in verdict.message


@pytest.mark.parametrize(
    ("name", "value", "meant"),
    [
        ("max_heap_table_size", "64 M", "64M"),  # mariadbd 10.11.19: "Unknown suffix ' '"
        ("tmp_table_size", "64 MB", "64M"),
        ("wait_timeout", "28800s", "28800"),  # "Unknown suffix 's'"
        ("innodb_lock_wait_timeout", "50 sec", "50"),
        ("long_query_time", "2s", "2"),  # a decimal option: "no unit suffixes here"
    ],
)
def test_a_unit_set_apart_or_seconds_written_out_is_refused_and_the_number_suggested(
    name: str, value: str, meant: str
) -> None:
    verdict = maria(name, value)
    assert verdict.stops_server  # InnoDB's own options disable the plugin, and the server then aborts
    assert verdict.suggestion == f"{name} = {meant}"


@pytest.mark.parametrize(("name", "value"), [("max_heap_table_size", "64s"), ("wait_timeout", "8h")])
def test_no_number_is_suggested_where_the_intent_is_not_plain(name: str, value: str) -> None:
    """Seconds only for options counted in seconds; hours would need a unit the option data lacks."""
    verdict = maria(name, value)
    assert verdict.outcome is Outcome.REFUSES_TO_START and verdict.suggestion is None


def test_a_misspelling_is_refused_and_the_intended_name_suggested() -> None:
    """One letter off a known name: 'unknown variable', exit 7; the user's value is kept."""
    verdict = judge("innodb_bufer_pool_size", "8G", flavor="mariadb", version="10.11")
    assert verdict.outcome is Outcome.REFUSES_TO_START and verdict.reason == "misspelling"
    assert verdict.suggestion == "innodb_buffer_pool_size = 8G"


def test_loose_turns_an_unknown_name_into_a_warning() -> None:
    """loose- makes the server warn and skip an unknown name instead of refusing to start."""
    verdict = judge("loose-innodb_bufer_pool_size", "8G", flavor="mariadb", version="10.11")
    assert verdict.outcome is Outcome.IGNORES_WITH_WARNING
    assert judge("innodb_bufer_pool_size", "8G", flavor="mariadb", version="10.11", loose=True).outcome is (
        Outcome.IGNORES_WITH_WARNING
    )


def test_loose_also_downgrades_a_bad_value_but_not_a_value_for_a_flag() -> None:
    """loose-max_connections=ON logs an error yet starts; loose-ansi=1 still refuses."""
    assert maria("loose-max_connections", "ON").outcome is Outcome.IGNORES_WITH_WARNING
    assert maria("loose-ansi", "1").outcome is Outcome.REFUSES_TO_START


def test_mariadb_takes_a_unique_prefix_and_we_suggest_the_full_name() -> None:
    """A prefix of one option works on MariaDB; the verdict asks for the full name."""
    verdict = judge("innodb_file_per", "ON", flavor="mariadb", version="10.11")
    assert verdict.outcome is Outcome.ACCEPTS and verdict.reason == "unique_prefix"
    assert verdict.suggestion == "innodb_file_per_table = ON"


def test_an_ambiguous_prefix_refuses_in_the_core_and_disables_a_plugin() -> None:
    """table_open matches two core options (exit 3); innodb_buffer_pool_s two InnoDB ones."""
    assert maria("table_open", "5").outcome is Outcome.REFUSES_TO_START
    verdict = judge("innodb_buffer_pool_s", "1G", flavor="mariadb", version="10.11")
    assert verdict.outcome is Outcome.DISABLES_PLUGIN and verdict.plugin == "InnoDB"


def test_early_options_win_an_otherwise_ambiguous_prefix() -> None:
    """max_conn reaches max_connections (parsed early) although max_connect_errors shares it."""
    verdict = judge("max_conn", "500", flavor="mariadb", version="10.11")
    assert verdict.outcome is Outcome.ACCEPTS and verdict.option == "max_connections"


@pytest.mark.parametrize("version", ["5.7.44", "8.0.36", "8.4.0"])
def test_mysql_57_and_later_refuse_every_prefix(version: str) -> None:
    """WL#6978: an abbreviated name is an unknown variable from MySQL 5.7 on."""
    verdict = judge("max_allowed", "64M", flavor="mysql", version=version)
    assert verdict.outcome is Outcome.REFUSES_TO_START and verdict.reason == "refused_prefix"
    assert verdict.suggestion == "max_allowed_packet = 64M"


def test_mysql_56_takes_a_unique_prefix() -> None:
    """MySQL 5.5/5.6 accept a unique prefix (with a deprecation warning)."""
    verdict = judge("max_allowed", "64M", flavor="mysql", version="5.6.51")
    assert verdict.outcome is Outcome.ACCEPTS and verdict.option == "max_allowed_packet"


def test_names_of_the_other_flavor_and_of_missing_plugins_are_named_as_such() -> None:
    """A MySQL-only name on MariaDB, a plugin's name, a MariaDB-only name on MySQL. mysqlx_port is listed
    by the MySQL 8.0.46 binary (X Plugin built in), so on MariaDB it is simply a MySQL option."""
    assert maria("binlog_transaction_dependency_tracking", "WRITESET").reason == "other_flavor"
    assert maria("mysqlx_port", "33060").reason == "other_flavor"
    assert maria("group_replication_group_name", "x").reason == "plugin_not_loaded"
    assert judge("aria_pagecache_buffer_size", "1G", flavor="mysql", version="8.0").reason == "other_flavor"


@pytest.mark.parametrize(
    ("os_name", "outcome"), [("linux", Outcome.DISABLES_PLUGIN), ("windows", Outcome.ACCEPTS)]
)
def test_windows_only_flush_methods(os_name: str, outcome: Outcome) -> None:
    """innodb_flush_method=unbuffered exists on Windows only; on Linux InnoDB is disabled."""
    verdict = judge("innodb_flush_method", "unbuffered", flavor="mariadb", version="10.11", os=os_name)
    assert verdict.outcome is outcome


@pytest.mark.parametrize(("value", "outcome"), [("ON", Outcome.ACCEPTS), ("true", Outcome.ACCEPTS),
                                                ("yes", Outcome.IGNORES_WITH_WARNING)])  # fmt: skip
def test_boolean_spellings(value: str, outcome: Outcome) -> None:
    """ON/OFF, TRUE/FALSE and 1/0 are booleans; YES only draws a warning (and OFF)."""
    assert maria("local_infile", value).outcome is outcome


def test_clamping_and_suffixes() -> None:
    """Out of range is clamped with the value the server uses; T/P/E suffixes are known."""
    verdict = judge("max_connections", "999999", flavor="mariadb", version="10.11")
    assert verdict.outcome is Outcome.CLAMPS and verdict.value == "100000"
    assert maria("innodb_buffer_pool_size", "1T").outcome is Outcome.ACCEPTS


def test_a_placeholder_is_refused_where_a_number_is_read() -> None:
    """`port = <port>` is an unknown suffix '<' to the server."""
    assert maria("port", "<port>").outcome is Outcome.REFUSES_TO_START


def test_a_removed_option_mariadb_still_swallows_is_ignored_not_refused() -> None:
    """mariadbd 10.11.19 on `multi_range_count = 1`: "'multi-range-count' was removed. It does nothing now
    and exists only for compatibility with old my.cnf files." (exit 0; found by probing every name of the
    MySQL test results, generate_mariadb)."""
    verdict = maria("multi_range_count", "1")
    assert verdict.outcome is Outcome.IGNORES_WITH_WARNING and verdict.reason == "compatibility_stub"


def test_loaded_plugin_options_are_known() -> None:
    """A plugin the files load brings its options: taken with the plugin, refused without it (mariadbd 10.11.19)."""
    loaded = frozenset({"server_audit"})
    without = judge("server_audit_logging", "ON", flavor="mariadb", version="10.11.19")
    with_it = judge("server_audit_logging", "ON", flavor="mariadb", version="10.11.19", plugins=loaded)
    assert without.outcome is Outcome.REFUSES_TO_START
    assert with_it.outcome is Outcome.ACCEPTS and with_it.certain


def test_loaded_plugin_bad_value_disables_it() -> None:
    """A value the loaded plugin's option does not take disables the plugin ('Parsing options ... failed')."""
    said = judge("file_key_management_encryption_algorithm", "aes_xyz", flavor="mariadb", version="10.11.19",
                 plugins=frozenset({"file_key_management"}))  # fmt: skip
    assert said.outcome is Outcome.DISABLES_PLUGIN and said.plugin == "file_key_management"


def test_loaded_library_without_a_list_is_unjudged() -> None:
    """ha_rocksdb's options are not listed here: its names are taken, uncertain, never refused."""
    said = judge("rocksdb_block_cache_size", "1G", flavor="mariadb", version="10.11.19",
                 plugins=frozenset({"ha_rocksdb"}))  # fmt: skip
    assert said.outcome is Outcome.ACCEPTS and not said.certain


def test_only_the_last_item_of_a_set_may_be_abbreviated_and_the_full_list_is_suggested() -> None:
    """mariadbd 10.11.19 exits 13 on sql_mode = STRICT_TRANS_TABLE,NO_ENGINE_SUBSTITUTION and starts with the
    same two items reversed (DBA review, case 02b)."""
    verdict = maria("sql_mode", "STRICT_TRANS_TABLE,NO_ENGINE_SUBSTITUTION")
    assert verdict.outcome is Outcome.REFUSES_TO_START
    assert verdict.suggestion == "sql_mode = STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION"
    assert "only the last item" in verdict.message
    reversed_order = maria("sql_mode", "NO_ENGINE_SUBSTITUTION,STRICT_TRANS_TABLE")
    assert reversed_order.outcome is Outcome.ACCEPTS and reversed_order.value.endswith(",STRICT_TRANS_TABLES")
    assert maria("log_output", "TAB,FILE").outcome is Outcome.REFUSES_TO_START


def test_a_flag_of_a_flagset_must_be_spelt_in_full() -> None:
    """optimizer_switch = mrr_cost_b=on: a unique prefix of mrr_cost_based, refused by mariadbd 10.11.19."""
    assert maria("optimizer_switch", "mrr_cost_b=on").outcome is Outcome.REFUSES_TO_START
    assert maria("optimizer_switch", "MRR=ON,index_merge=off").outcome is Outcome.ACCEPTS


@pytest.mark.parametrize("version", ["8.0.11", "8.0.36", "8.4.3", "9.1.0"])
def test_a_sql_mode_mysql_removed_is_refused_and_the_list_without_it_suggested(version: str) -> None:
    """A 5.7 my.cnf on MySQL 8.0.11+: NO_AUTO_CREATE_USER is gone, the server exits ('Error while setting
    value ... to sql_mode'); the same line is fine on 5.7 and on MariaDB (10.11.19 starts with it)."""
    value = "STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION"
    verdict = judge("sql_mode", value, flavor="mysql", version=version)
    assert verdict.outcome is Outcome.REFUSES_TO_START
    assert "NO_AUTO_CREATE_USER was removed in MySQL 8.0.11" in verdict.message
    assert verdict.suggestion == "sql_mode = STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ENGINE_SUBSTITUTION"
    assert judge("sql_mode", value, flavor="mysql", version="5.7.42").outcome is Outcome.ACCEPTS
    assert maria("sql_mode", value).outcome is Outcome.ACCEPTS


def test_sql_modes_are_the_target_versions_own() -> None:
    """MAXDB went in 8.0.11 too; TIME_TRUNCATE_FRACTIONAL came with 8.0 and 5.7 refuses it."""
    assert judge("sql_mode", "MAXDB", flavor="mysql", version="8.0.36").outcome is Outcome.REFUSES_TO_START
    newer = judge("sql_mode", "ANSI_QUOTES,TIME_TRUNCATE_FRACTIONAL", flavor="mysql", version="5.7.42")
    assert newer.outcome is Outcome.REFUSES_TO_START and newer.suggestion == "sql_mode = ANSI_QUOTES"
    assert (
        judge("sql_mode", "TIME_TRUNCATE_FRACTIONAL", flavor="mysql", version="8.0.36").outcome
        is Outcome.ACCEPTS
    )


def test_mariadb_sql_modes_newer_than_the_target_are_refused() -> None:
    """MariaDB's own list: SIMULTANEOUS_ASSIGNMENT came with 10.3.5 and TIME_ROUND_FRACTIONAL with 10.4,
    so a 10.11 file's sql_mode on 10.3 loses the newer mode; 10.11.19 itself takes both."""
    value = "STRICT_TRANS_TABLES,SIMULTANEOUS_ASSIGNMENT,TIME_ROUND_FRACTIONAL"
    older = judge("sql_mode", value, flavor="mariadb", version="10.3.39")
    assert (
        older.outcome is Outcome.REFUSES_TO_START
        and "TIME_ROUND_FRACTIONAL came with MariaDB 10.4" in older.message
    )
    assert older.suggestion == "sql_mode = STRICT_TRANS_TABLES,SIMULTANEOUS_ASSIGNMENT"
    assert maria("sql_mode", value).outcome is Outcome.ACCEPTS
    assert judge("sql_mode", value, flavor="mariadb", version="10.4.30").outcome is Outcome.ACCEPTS


@pytest.mark.parametrize(
    ("name", "value", "outcome"),
    [
        # MySQL 8.0.46: "Unknown suffix '<' used for variable 'mysqlx-port'", then "Parsing options for plugin
        # 'mysqlx' failed": it starts without the X Plugin (bench/mysql_acceptance.py found the corpus file)
        ("mysqlx_port", "3<mysql-port>", Outcome.DISABLES_PLUGIN),
        ("mysqlx_connect_timeout", "1x", Outcome.DISABLES_PLUGIN),
        ("performance_schema_max_table_instances", "12x", Outcome.REFUSES_TO_START),  # exit 1
        ("mysqlx_port", "33060", Outcome.ACCEPTS),
    ],
)
def test_mysql_number_options_no_list_types_are_judged_as_numbers(
    name: str, value: str, outcome: Outcome
) -> None:
    verdict = judge(name, value, flavor="mysql", version="8.0.46")
    assert verdict.outcome is outcome and verdict.certain


def test_mariadb_plugin_boolean_read_by_its_first_digit() -> None:
    """mariadbd 10.11.19 runs innodb_doublewrite `0;`/`0 0`/`01` OFF and `1x`/`10` ON, silently (real start);
    `off;`, `yes`, `2` are ignored with a warning; a core boolean (local_infile) and MySQL read no digit."""
    for value, runs in (("0;", "OFF"), ("0 0", "OFF"), ("01", "OFF"), ("1x", "ON"), ("10", "ON")):
        said = judge("innodb_doublewrite", value, flavor="mariadb", version="10.11.19")
        assert (said.outcome, said.reason, said.value) == (Outcome.ACCEPTS, "number_bool", runs), value
        assert said.suggestion == f"innodb_doublewrite = {value[0]}"
    for value in ("off;", "yes", "2"):
        assert judge("innodb_doublewrite", value, flavor="mariadb", version="10.11.19").reason == "bad_bool"
    assert judge("local_infile", "0;", flavor="mariadb", version="10.11.19").reason == "bad_bool"
    assert judge("innodb_file_per_table", "0;", flavor="mysql", version="8.0.46").reason != "number_bool"
