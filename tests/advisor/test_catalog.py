"""The version catalog: data-file integrity, version boundaries, and the lookup API."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import advisor.catalog as catalog_module
from advisor.catalog import Catalog, get_catalog, load_catalog, normalize_name, option_file_name
from advisor.catalog.timeline import MISSING, Boundary, Timeline, parse_version_key
from advisor.version import ServerVersion, parse_version

DATA = Path(catalog_module.__file__).with_name("variables.json")


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return get_catalog()


def V(text: str) -> ServerVersion:
    return parse_version(text)


# ---------------------------------------------------------------------------------------------- data file
def test_data_file_is_clean(cat: Catalog) -> None:
    assert cat.validate() == []


def test_data_file_size_and_lines(cat: Catalog) -> None:
    assert 150 <= len(cat) <= 300
    assert "5.0" in cat.lines("mysql") and "9.0" in cat.lines("mysql")
    assert cat.lines("percona") == cat.lines("mysql")
    assert {"10.1", "10.11", "11.4", "11.8"} <= set(cat.lines("mariadb"))
    raw = json.loads(DATA.read_text())
    assert raw["format"] == 1
    assert DATA.stat().st_size < 400_000


def test_catalog_is_loaded_once() -> None:
    assert get_catalog() is get_catalog()


def test_the_advisors_variables_are_all_described(cat: Catalog) -> None:
    wanted = [
        "innodb_buffer_pool_size",
        "innodb_buffer_pool_instances",
        "innodb_buffer_pool_chunk_size",
        "innodb_buffer_pool_dump_at_shutdown",
        "innodb_buffer_pool_load_at_startup",
        "innodb_old_blocks_time",
        "innodb_log_file_size",
        "innodb_log_files_in_group",
        "innodb_redo_log_capacity",
        "innodb_log_buffer_size",
        "innodb_io_capacity",
        "innodb_io_capacity_max",
        "innodb_flush_neighbors",
        "innodb_flush_method",
        "innodb_lru_scan_depth",
        "innodb_max_dirty_pages_pct",
        "innodb_flush_log_at_trx_commit",
        "sync_binlog",
        "innodb_doublewrite",
        "innodb_checksum_algorithm",
        "innodb_checksums",
        "sync_relay_log",
        "sync_relay_log_info",
        "relay_log_info_repository",
        "master_info_repository",
        "relay_log_recovery",
        "log_bin",
        "skip_log_bin",
        "disable_log_bin",
        "binlog_group_commit_sync_delay",
        "binlog_group_commit_sync_no_delay_count",
        "binlog_commit_wait_count",
        "binlog_commit_wait_usec",
        "transaction_isolation",
        "tx_isolation",
        "binlog_format",
        "version_malloc_library",
        "malloc_lib",
        "innodb_purge_threads",
        "innodb_max_purge_lag",
        "innodb_max_purge_lag_delay",
        "innodb_undo_log_truncate",
        "innodb_max_undo_log_size",
        "innodb_purge_batch_size",
        "sql_log_bin",
        "log_slave_updates",
        "log_replica_updates",
        "server_id",
        "gtid_mode",
        "enforce_gtid_consistency",
        "binlog_row_image",
        "relay_log",
        "key_buffer_size",
        "query_cache_size",
        "query_cache_type",
        "tmp_table_size",
        "max_heap_table_size",
        "sort_buffer_size",
        "join_buffer_size",
        "read_buffer_size",
        "read_rnd_buffer_size",
        "thread_stack",
        "binlog_cache_size",
        "max_connections",
        "innodb_additional_mem_pool_size",
        "aria_pagecache_buffer_size",
        "table_open_cache",
        "thread_cache_size",
        "innodb_thread_concurrency",
        "max_user_connections",
        "back_log",
        "innodb_file_format",
        "innodb_large_prefix",
        "innodb_file_format_max",
        "tx_read_only",
        "sync_frm",
        "innodb_support_xa",
        "innodb_locks_unsafe_for_binlog",
        "log_warnings",
        "have_query_cache",
        "innodb_use_sys_malloc",
        "default_authentication_plugin",
        "expire_logs_days",
        "skip_innodb",
        "innodb_page_cleaners",
        "innodb_log_checksums",
        "innodb_undo_logs",
        "port",
        "socket",
        "datadir",
        "bind_address",
        "character_set_server",
        "collation_server",
        "skip_name_resolve",
        "log_error",
        "slow_query_log",
        "long_query_time",
        "pid_file",
        "tmpdir",
        "max_allowed_packet",
        "open_files_limit",
        "table_definition_cache",
        "innodb_file_per_table",
        "innodb_stats_on_metadata",
        "lower_case_table_names",
        "sql_mode",
        "performance_schema",
        "general_log",
        "user",
        "basedir",
        "lc_messages_dir",
        "symbolic_links",
        "explicit_defaults_for_timestamp",
        "innodb_open_files",
        "innodb_read_io_threads",
        "innodb_write_io_threads",
        "log_slow_queries",
        "key_buffer",
    ]
    assert [name for name in wanted if name not in cat] == []


def _probe_versions(cat: Catalog) -> list[ServerVersion]:
    """Every line's first and newest release, plus every boundary written in the data file."""
    texts: set[tuple[str, str]] = set()
    for flavor in ("mysql", "mariadb"):
        for line in cat.lines(flavor):
            texts.add((flavor, f"{line}.0"))
            texts.add((flavor, line))
    raw = json.loads(DATA.read_text())["variables"]

    def walk(flavor: str, block: dict[str, object]) -> None:
        for key, value in block.items():
            boundaries = (
                list(value)
                if isinstance(value, dict)
                else [value]
                if key in ("since", "deprecated", "ignored", "removed", "stub_since", "option_since")
                else []
            )
            for boundary in boundaries:
                for part in str(boundary).split(","):
                    if part != "0":
                        texts.add((flavor, part))

    for entry in raw.values():
        for flavor in ("mysql", "mariadb", "percona"):
            if isinstance(entry.get(flavor), dict):
                walk("mariadb" if flavor == "mariadb" else flavor, entry[flavor])
    versions = []
    for flavor, text in sorted(texts):
        prefix = {"mysql": "mysql-", "mariadb": "mariadb-", "percona": "percona-"}[flavor]
        versions.append(parse_version(prefix + text))
    return versions


def test_defaults_are_within_range_and_among_the_values(cat: Catalog) -> None:
    problems = []
    for version in _probe_versions(cat):
        for name in sorted(cat.names()):
            facts = cat.lookup(name, version)
            assert facts is not None
            if not facts.exists or facts.default is None:
                continue
            default = facts.default
            if (
                facts.unit
                in ("bytes", "count", "pages", "percent", "seconds", "milliseconds", "microseconds")
                and isinstance(default, (int, float))
                and not isinstance(default, bool)
            ):
                if facts.min is not None and default < facts.min:
                    problems.append(f"{name} @ {version}: default {default} < min {facts.min}")
                if facts.max is not None and default > facts.max and not facts.default_auto:
                    problems.append(f"{name} @ {version}: default {default} > max {facts.max}")
            if facts.values is not None and facts.unit == "enum":
                spelled = ("ON" if default else "OFF") if isinstance(default, bool) else str(default)
                if spelled.lower() not in {value.lower() for value in facts.values}:
                    problems.append(f"{name} @ {version}: default {default!r} not in {facts.values}")
            if facts.unit == "bool" and not isinstance(default, bool):
                problems.append(f"{name} @ {version}: boolean default {default!r}")
    assert problems == []


def test_every_fact_has_a_source(cat: Catalog) -> None:
    for version in (
        V("5.6.51"),
        V("8.0.36"),
        V("8.4.2"),
        V("10.6.18-MariaDB"),
        V("11.4.2-MariaDB"),
        V("8.0.32-24"),
    ):
        for name in cat.names():
            facts = cat.lookup(name, version)
            assert facts is not None
            if facts.in_flavor:
                assert facts.source and facts.source.startswith("https://"), (name, version)


# ---------------------------------------------------------------------------------------------- timelines
def test_version_keys() -> None:
    assert parse_version_key("0") == (0, 0, 0)
    assert parse_version_key("5.6.8") == (5, 6, 8)
    assert parse_version_key("10.11") == (10, 11, 0)
    for bad in ("", "x", "5", "5.6.7.8", "5.a.1"):
        with pytest.raises(ValueError):
            parse_version_key(bad)


def test_single_boundary_is_plain_comparison() -> None:
    boundary = Boundary.parse("5.6.8")
    assert boundary.holds((5, 6, 8)) and boundary.holds((5, 7, 0)) and boundary.holds((8, 0, 36))
    assert not boundary.holds((5, 6, 7)) and not boundary.holds((5, 5, 62))
    assert Boundary.parse("0").holds((3, 23, 0))


def test_multi_line_boundary_follows_backports() -> None:
    boundary = Boundary.parse("10.6.16,10.11.6")
    assert boundary.holds((10, 6, 16)) and not boundary.holds((10, 6, 15))
    assert boundary.holds((10, 11, 6)) and not boundary.holds((10, 11, 5))
    assert not boundary.holds((10, 8, 8))  # a line between the two that never got the change
    assert not boundary.holds((10, 5, 30))
    assert boundary.holds((11, 4, 0))  # lines released later inherit it


def test_timeline_values() -> None:
    timeline = Timeline.parse({"0": 1, "5.6.8": 2, "8.4.0": 3})
    assert [timeline.at(key) for key in [(5, 5, 0), (5, 6, 8), (8, 0, 36), (8, 4, 0)]] == [1, 2, 2, 3]
    late = Timeline.parse({"5.7.5": True})
    assert late.at((5, 7, 4)) is MISSING
    assert late.changed_at((5, 7, 9)) == Boundary.parse("5.7.5")


# ---------------------------------------------------------------------------------------------- boundaries
def test_innodb_redo_log_capacity_arrives_in_8_0_30(cat: Catalog) -> None:
    assert not cat.knows("innodb_redo_log_capacity", V("8.0.29"))
    assert cat.knows("innodb_redo_log_capacity", V("8.0.30"))
    assert cat.knows("innodb_redo_log_capacity", V("8.0.30-22"))  # Percona Server
    assert cat.knows("innodb_redo_log_capacity", V("9.1.0"))
    assert not cat.knows("innodb_redo_log_capacity", V("10.11.6-MariaDB"))
    assert cat.default("innodb_redo_log_capacity", V("8.0.36")) == 100 * 1024 * 1024
    assert cat.is_dynamic("innodb_redo_log_capacity", V("8.0.36")) is True
    facts = cat.lookup("innodb_log_file_size", V("8.0.30"))
    assert facts is not None and facts.exists and facts.deprecated
    assert facts.successor == "innodb_redo_log_capacity"
    assert not cat.lookup("innodb_log_file_size", V("8.0.29")).deprecated  # type: ignore[union-attr]


def test_query_cache_is_gone_in_8_0(cat: Catalog) -> None:
    assert cat.knows("query_cache_size", V("5.7.44-log"))
    assert cat.lookup("query_cache_size", V("5.7.44")).deprecated  # type: ignore[union-attr]
    assert cat.knows("query_cache_size", V("8.0.2"))
    assert not cat.knows("query_cache_size", V("8.0.3"))
    assert not cat.accepts("query_cache_type", V("8.0.36"))
    assert not cat.knows("have_query_cache", V("8.0.36"))
    assert cat.knows("query_cache_size", V("10.11.6-MariaDB"))
    assert cat.default("query_cache_size", V("5.6.7")) == 0
    assert cat.default("query_cache_size", V("5.6.8")) == 1024 * 1024
    assert cat.default("query_cache_type", V("10.1.6-MariaDB")) == "ON"
    assert cat.default("query_cache_type", V("10.1.7-MariaDB")) == "OFF"


def test_tx_isolation(cat: Catalog) -> None:
    for text in ("5.6.51", "5.7.44"):
        facts = cat.lookup("tx_isolation", V(text))
        assert facts is not None and facts.exists
        assert not facts.option_file_ok  # the option is transaction-isolation
        assert facts.option_name == "transaction_isolation"
    assert cat.lookup("tx_isolation", V("5.7.20")).deprecated  # type: ignore[union-attr]
    assert cat.knows("tx_isolation", V("8.0.2"))
    gone = cat.lookup("tx_isolation", V("8.0.3"))
    assert gone is not None and not gone.exists and gone.removed and gone.removed_in == "8.0.3"
    assert gone.successor == "transaction_isolation"
    assert cat.option_file_name("tx_isolation", V("8.0.36")) == "transaction_isolation"
    # transaction_isolation: a variable from 5.7.20, an option always
    early = cat.lookup("transaction_isolation", V("5.6.51"))
    assert early is not None and not early.exists and early.option_file_ok
    assert cat.knows("transaction_isolation", V("5.7.20")) and not cat.knows(
        "transaction_isolation", V("5.7.19")
    )
    # MariaDB keeps tx_isolation; 11.1 renames it and keeps the old name as a deprecated alias
    assert cat.knows("tx_isolation", V("10.11.6-MariaDB"))
    assert not cat.lookup("tx_isolation", V("10.11.6-MariaDB")).deprecated  # type: ignore[union-attr]
    assert not cat.knows("transaction_isolation", V("10.11.6-MariaDB"))
    assert cat.accepts("transaction_isolation", V("10.11.6-MariaDB"))
    assert cat.knows("transaction_isolation", V("11.4.2-MariaDB"))
    later = cat.lookup("tx_isolation", V("11.4.2-MariaDB"))
    assert (
        later is not None and later.exists and later.deprecated and later.successor == "transaction_isolation"
    )
    assert cat.lookup("tx_isolation", V("8.0.36")).values == (  # type: ignore[union-attr]
        "READ-UNCOMMITTED",
        "READ-COMMITTED",
        "REPEATABLE-READ",
        "SERIALIZABLE",
    )


def test_innodb_buffer_pool_instances_on_mariadb(cat: Catalog) -> None:
    before = cat.lookup("innodb_buffer_pool_instances", V("10.4.32-MariaDB"))
    assert before is not None and before.exists and not before.ignored and not before.deprecated
    ignored = cat.lookup("innodb_buffer_pool_instances", V("10.5.23-MariaDB"))
    assert ignored is not None and ignored.exists and ignored.ignored and ignored.deprecated
    for text in ("10.6.18-MariaDB", "10.11.6-MariaDB", "11.4.2-MariaDB"):
        stub = cat.lookup("innodb_buffer_pool_instances", V(text))
        assert stub is not None
        assert not stub.exists and stub.removed and stub.removed_in == "10.6.0"
        assert stub.option_file_ok and stub.ignored  # accepted with a warning, ignored
        assert stub.option_name is None  # nothing to write in a my.cnf
    assert cat.knows("innodb_buffer_pool_instances", V("8.0.36"))
    assert not cat.knows("innodb_buffer_pool_instances", V("5.5.3"))
    assert cat.default("innodb_buffer_pool_instances", V("5.5.30")) == 1
    assert cat.default("innodb_buffer_pool_instances", V("5.6.40")) == 8
    assert cat.lookup("innodb_buffer_pool_instances", V("5.6.40")).default_auto  # type: ignore[union-attr]


def test_innodb_log_files_in_group(cat: Catalog) -> None:
    assert cat.default("innodb_log_files_in_group", V("5.7.44")) == 2
    assert cat.lookup("innodb_log_files_in_group", V("8.0.30")).deprecated  # type: ignore[union-attr]
    assert cat.knows("innodb_log_files_in_group", V("8.4.2"))
    assert cat.default("innodb_log_files_in_group", V("10.4.32-MariaDB")) == 2
    mid = cat.lookup("innodb_log_files_in_group", V("10.5.2-MariaDB"))
    assert mid is not None and mid.exists and mid.ignored and mid.default == 1
    late = cat.lookup("innodb_log_files_in_group", V("10.6.0-MariaDB"))
    assert late is not None and not late.exists and late.option_file_ok and late.ignored


@pytest.mark.parametrize(
    ("version", "size"),
    [
        ("5.1.73", 5),
        ("5.5.62", 5),
        ("5.6.7", 5),
        ("5.6.8", 48),
        ("5.7.44", 48),
        ("8.0.36", 48),
        ("8.4.2", 48),
        ("9.1.0", 48),
        ("8.0.32-24", 48),
        ("5.5.68-MariaDB", 5),
        ("10.1.48-MariaDB", 48),
        ("10.4.32-MariaDB", 48),
        ("10.5.0-MariaDB", 96),
        ("10.11.6-MariaDB", 96),
        ("11.4.2-MariaDB", 96),
    ],
)
def test_innodb_log_file_size_default(cat: Catalog, version: str, size: int) -> None:
    assert cat.default("innodb_log_file_size", V(version)) == size * 1024 * 1024


def test_innodb_log_file_size_is_dynamic_only_on_recent_mariadb(cat: Catalog) -> None:
    assert cat.is_dynamic("innodb_log_file_size", V("8.0.36")) is False
    assert cat.is_dynamic("innodb_log_file_size", V("10.8.8-MariaDB")) is False
    assert cat.is_dynamic("innodb_log_file_size", V("10.9.0-MariaDB")) is True
    assert cat.is_dynamic("innodb_log_file_size", V("10.11.6-MariaDB")) is True


def test_innodb_buffer_pool_size_dynamic_from(cat: Catalog) -> None:
    assert cat.is_dynamic("innodb_buffer_pool_size", V("5.7.4")) is False
    assert cat.is_dynamic("innodb_buffer_pool_size", V("5.7.5")) is True
    assert cat.is_dynamic("innodb_buffer_pool_size", V("10.2.1-MariaDB")) is False
    assert cat.is_dynamic("innodb_buffer_pool_size", V("10.2.2-MariaDB")) is True
    assert cat.default("innodb_buffer_pool_size", V("8.4.2")) == 128 * 1024 * 1024
    assert cat.default("innodb_buffer_pool_size", V("10.11.6-MariaDB")) == 128 * 1024 * 1024


def test_removals_in_the_8_x_series(cat: Catalog) -> None:
    assert cat.knows("expire_logs_days", V("8.1.0")) and cat.lookup("expire_logs_days", V("8.1.0")).deprecated  # type: ignore[union-attr]
    assert not cat.knows("expire_logs_days", V("8.2.0"))
    assert cat.suggest("expire_logs_days", V("8.4.2"))[0] == "binlog_expire_logs_seconds"
    assert cat.knows("expire_logs_days", V("11.4.2-MariaDB"))
    assert cat.knows("default_authentication_plugin", V("8.3.0"))
    assert not cat.knows("default_authentication_plugin", V("8.4.0"))
    assert cat.knows("master_info_repository", V("8.2.0")) and not cat.knows(
        "master_info_repository", V("8.3.0")
    )
    assert not cat.accepts("relay_log_info_repository", V("9.0.0"))
    assert cat.default("relay_log_info_repository", V("5.7.44")) == "FILE"
    assert cat.default("relay_log_info_repository", V("8.0.36")) == "TABLE"


def test_mysql_compatibility_options_on_mariadb(cat: Catalog) -> None:
    for name in ("master_info_repository", "relay_log_info_repository", "default_authentication_plugin"):
        facts = cat.lookup(name, V("10.11.6-MariaDB"))
        assert facts is not None
        assert facts.kind == "option" and facts.option_file_ok and facts.ignored, name


def test_mariadb_only_and_mysql_only_names(cat: Catalog) -> None:
    gtid = cat.lookup("gtid_mode", V("10.11.6-MariaDB"))
    assert gtid is not None and not gtid.exists and not gtid.in_flavor and not gtid.option_file_ok
    assert gtid.note is not None and "MariaDB" in gtid.note
    assert cat.knows("gtid_mode", V("5.7.44")) and not cat.knows("gtid_mode", V("5.6.4"))
    assert (
        cat.is_dynamic("gtid_mode", V("5.6.30")) is False and cat.is_dynamic("gtid_mode", V("5.7.6")) is True
    )
    assert cat.knows("binlog_commit_wait_count", V("10.11.6-MariaDB"))
    assert not cat.knows("binlog_commit_wait_count", V("8.0.36"))
    assert cat.knows("binlog_group_commit_sync_delay", V("5.7.5"))
    assert not cat.knows("binlog_group_commit_sync_delay", V("5.7.4"))
    assert not cat.knows("binlog_group_commit_sync_delay", V("10.11.6-MariaDB"))
    assert cat.knows("version_malloc_library", V("10.11.6-MariaDB"))
    assert not cat.accepts("version_malloc_library", V("10.11.6-MariaDB"))  # read-only, not an option
    assert cat.lookup("aria_pagecache_buffer_size", V("8.0.36")).in_flavor is False  # type: ignore[union-attr]


def test_percona_is_mysql_plus_its_own(cat: Catalog) -> None:
    percona, mysql = V("8.0.32-24"), V("8.0.32")
    for name in ("innodb_redo_log_capacity", "innodb_buffer_pool_size", "gtid_mode"):
        assert cat.lookup(name, percona).default == cat.lookup(name, mysql).default  # type: ignore[union-attr]
    assert cat.knows("userstat", percona) and not cat.knows("userstat", mysql)
    assert cat.knows("thread_pool_size", percona) and not cat.knows("thread_pool_size", mysql)
    assert cat.knows("log_slow_verbosity", percona)
    assert cat.knows("userstat", V("10.11.6-MariaDB"))
    assert cat.names_for(mysql) < cat.names_for(percona)


def test_renamed_replication_variables(cat: Catalog) -> None:
    assert cat.default("log_slave_updates", V("5.7.44")) is False
    assert cat.default("log_slave_updates", V("8.0.3")) is True
    assert not cat.knows("log_replica_updates", V("8.0.25"))
    assert cat.knows("log_replica_updates", V("8.0.26"))
    assert cat.lookup("log_slave_updates", V("8.0.26")).deprecated  # type: ignore[union-attr]
    assert cat.default("server_id", V("8.0.2")) == 0 and cat.default("server_id", V("8.0.3")) == 1
    assert not cat.knows("log_replica_updates", V("10.11.6-MariaDB"))


def test_durability_defaults(cat: Catalog) -> None:
    assert cat.default("sync_binlog", V("5.7.6")) == 0 and cat.default("sync_binlog", V("5.7.7")) == 1
    assert cat.default("sync_binlog", V("10.11.6-MariaDB")) == 0
    assert cat.default("innodb_flush_log_at_trx_commit", V("8.0.36")) == "1"
    assert cat.lookup("innodb_flush_log_at_trx_commit", V("10.11.6-MariaDB")).max == 3  # type: ignore[union-attr]
    assert cat.default("innodb_checksum_algorithm", V("5.6.51")) == "innodb"
    assert cat.default("innodb_checksum_algorithm", V("8.0.36")) == "crc32"
    assert cat.default("innodb_checksum_algorithm", V("10.11.6-MariaDB")) == "full_crc32"
    assert not cat.knows("innodb_checksums", V("8.0.0")) and cat.knows("innodb_checksums", V("5.7.44"))
    assert cat.default("innodb_flush_method", V("8.0.36")) == "fsync"
    assert cat.default("innodb_flush_method", V("8.4.0")) == "O_DIRECT"
    assert cat.default("innodb_flush_method", V("10.6.0-MariaDB")) == "O_DIRECT"
    assert cat.lookup("innodb_doublewrite", V("8.0.30")).unit == "enum"  # type: ignore[union-attr]
    assert cat.lookup("innodb_doublewrite", V("8.0.29")).unit == "bool"  # type: ignore[union-attr]


def test_multi_line_change_in_the_data(cat: Catalog) -> None:
    expected = {
        "10.5.25": 300,
        "10.6.15": 300,
        "10.6.16": 1000,
        "10.8.8": 300,
        "10.11.5": 300,
        "10.11.6": 1000,
        "10.11.10": 127,
        "11.2.4": 1000,
        "11.4.4": 127,
        "11.8.2": 127,
    }
    got = {text: cat.default("innodb_purge_batch_size", V(f"mariadb-{text}")) for text in expected}
    assert got == expected


def test_version_without_patch_sees_the_lines_latest_facts(cat: Catalog) -> None:
    line = V("mariadb-10.11")
    chunk = cat.lookup("innodb_buffer_pool_chunk_size", line)
    assert chunk is not None and chunk.exists and chunk.ignored and chunk.default == 0
    assert cat.default("innodb_purge_batch_size", line) == 127
    assert cat.knows("innodb_redo_log_capacity", V("8.0"))


def test_mysqld_safe_options(cat: Catalog) -> None:
    facts = cat.lookup("malloc_lib", V("5.7.44"))
    assert facts is not None and facts.kind == "mysqld_safe" and facts.option_group == "mysqld_safe"
    assert cat.lookup("malloc_lib", V("10.11.6-MariaDB")).option_group == "mysqld_safe"  # type: ignore[union-attr]


def test_unique_prefix_aliases(cat: Catalog) -> None:
    assert cat.accepts("key_buffer", V("5.6.51"))
    assert cat.option_file_name("key_buffer", V("5.6.51")) == "key_buffer_size"
    assert not cat.accepts("key_buffer", V("5.7.44"))
    assert cat.option_file_name("key_buffer", V("5.7.44")) is None
    assert cat.accepts("key_buffer", V("10.11.6-MariaDB"))
    assert cat.suggest("key_buffer", V("8.0.36"))[0] == "key_buffer_size"


def test_old_option_names(cat: Catalog) -> None:
    assert cat.accepts("log_slow_queries", V("5.5.62")) and not cat.accepts("log_slow_queries", V("5.6.1"))
    assert cat.suggest("log_slow_queries", V("8.0.36"))[0] == "slow_query_log"
    assert not cat.accepts("innodb_additional_mem_pool_size", V("5.7.4"))
    assert cat.accepts("innodb_additional_mem_pool_size", V("5.6.51"))
    assert not cat.accepts("skip_innodb", V("5.7.44")) and cat.accepts("skip_innodb", V("10.11.6-MariaDB"))
    # innodb_file_format: removed in 10.3.1, back as an inert read-only variable in 10.4.3 (MDEV-18399),
    # removed again in 10.6 but still swallowed in option files
    assert not cat.accepts("innodb_file_format", V("10.3.5-MariaDB"))
    back = cat.lookup("innodb_file_format", V("10.4.3-MariaDB"))
    assert back is not None and back.exists and back.ignored and back.dynamic is False
    assert back.removed_in == "10.6.0"
    stub = cat.lookup("innodb_file_format", V("10.11.6-MariaDB"))
    assert stub is not None and not stub.exists and stub.option_file_ok and stub.removed_in == "10.6.0"
    assert cat.lookup("innodb_file_format", V("10.3.5-MariaDB")).removed_in == "10.3.1"  # type: ignore[union-attr]
    assert cat.knows("innodb_log_write_ahead_size", V("10.7.8-MariaDB"))
    assert not cat.knows("innodb_log_write_ahead_size", V("10.9.8-MariaDB"))
    assert cat.knows("innodb_log_write_ahead_size", V("10.11.19-MariaDB"))
    assert not cat.accepts("innodb_file_format_max", V("10.11.6-MariaDB"))
    assert cat.accepts("innodb_thread_concurrency", V("10.11.6-MariaDB"))
    assert not cat.knows("innodb_thread_concurrency", V("10.11.6-MariaDB"))
    assert cat.lookup("innodb_thread_concurrency", V("10.5.5-MariaDB")).ignored  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------------- API
def test_names_are_normalised(cat: Catalog) -> None:
    version = V("8.0.36")
    for spelling in ("innodb-buffer-pool-size", "--Innodb_Buffer_Pool_Size", " INNODB_BUFFER_POOL_SIZE "):
        facts = cat.lookup(spelling, version)
        assert facts is not None and facts.name == "innodb_buffer_pool_size"
    assert normalize_name("--Max-Allowed-Packet") == "max_allowed_packet"
    assert "innodb-buffer-pool-size" in cat


def test_unknown_names(cat: Catalog) -> None:
    version = V("8.0.36")
    assert cat.lookup("no_such_variable", version) is None
    assert not cat.knows("no_such_variable", version)
    assert not cat.accepts("no_such_variable", version)
    assert cat.default("no_such_variable", version) is None
    assert cat.is_dynamic("no_such_variable", version) is None
    assert cat.option_file_name("no_such_variable", version) is None


def test_lookup_keeps_the_callers_version(cat: Catalog) -> None:
    first = cat.lookup("sync_binlog", V("8.0.36-log"))
    second = cat.lookup("sync_binlog", V("8.0.36"))
    assert first is not None and second is not None
    assert first.version.raw == "8.0.36-log" and second.version.raw == "8.0.36"


def test_names_for(cat: Catalog) -> None:
    names = cat.names_for(V("8.0.36"))
    assert "innodb_redo_log_capacity" in names and "query_cache_size" not in names
    assert "aria_pagecache_buffer_size" not in names
    maria = cat.names_for(V("10.11.6-MariaDB"))
    assert "aria_pagecache_buffer_size" in maria and "innodb_buffer_pool_instances" not in maria
    assert "innodb_buffer_pool_instances" in cat.accepted_names_for(V("10.11.6-MariaDB"))
    assert cat.names_for(V("8.0.36")) is cat.names_for(V("8.0.36-log"))


def test_suggest(cat: Catalog) -> None:
    assert cat.suggest("innodb_bufer_pool_size", V("8.0.36"))[0] == "innodb_buffer_pool_size"
    assert cat.suggest("tx_isolation", V("8.0.36"))[0] == "transaction_isolation"
    assert cat.suggest("innodb_log_file_sise", V("10.11.6-MariaDB"))[0] == "innodb_log_file_size"
    assert cat.suggest("zzzz", V("8.0.36")) == []
    assert len(cat.suggest("innodb_io_capacit", V("8.0.36"), limit=1)) == 1


def test_option_file_name(cat: Catalog) -> None:
    assert option_file_name("innodb_buffer_pool_size", V("8.0.36")) == "innodb_buffer_pool_size"
    assert option_file_name("innodb-log-file-size", V("10.11.6-MariaDB")) == "innodb_log_file_size"
    assert option_file_name("tx_isolation", V("5.7.44")) == "transaction_isolation"
    assert option_file_name("transaction_isolation", V("5.6.51")) == "transaction_isolation"
    assert option_file_name("log_bin", V("8.0.36")) == "log_bin"
    assert option_file_name("sql_log_bin", V("8.0.36")) is None
    assert option_file_name("version_malloc_library", V("10.11.6-MariaDB")) is None
    assert option_file_name("innodb_buffer_pool_instances", V("10.11.6-MariaDB")) is None
    assert option_file_name("query_cache_size", V("8.0.36")) is None
    assert option_file_name("gtid_mode", V("10.11.6-MariaDB")) is None


def test_scope_and_units(cat: Catalog) -> None:
    version = V("8.0.36")
    assert cat.lookup("sort_buffer_size", version).scope == "both"  # type: ignore[union-attr]
    assert cat.lookup("innodb_buffer_pool_size", version).scope == "global"  # type: ignore[union-attr]
    assert cat.lookup("sql_log_bin", version).scope == "session"  # type: ignore[union-attr]
    assert cat.lookup("innodb_buffer_pool_size", version).unit == "bytes"  # type: ignore[union-attr]
    assert cat.lookup("binlog_group_commit_sync_delay", version).unit == "microseconds"  # type: ignore[union-attr]
    assert cat.lookup("innodb_old_blocks_time", version).unit == "milliseconds"  # type: ignore[union-attr]
    assert cat.lookup("binlog_format", version).values == ("MIXED", "STATEMENT", "ROW")  # type: ignore[union-attr]


def test_catalog_rejects_other_formats(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        Catalog({"format": 99, "variables": {}})
    with pytest.raises(ValueError):
        Catalog({"format": 1})
    path = tmp_path / "tiny.json"
    path.write_text(
        json.dumps(
            {
                "format": 1,
                "lines": {},
                "variables": {
                    "x_size": {
                        "unit": "bytes",
                        "scope": "global",
                        "mysql": {"since": "8.0.1", "default": 1, "source": "https://x"},
                    },
                    "Bad": {"unit": "furlongs", "mysql": {"since": "eight", "bogus": 1}},
                },
            }
        )
    )
    tiny = load_catalog(os.fspath(path))
    assert tiny.knows("x_size", V("8.0.1")) and not tiny.knows("x_size", V("8.0.0"))
    problems = tiny.validate()
    assert any("furlongs" in problem for problem in problems)
    assert any("bogus" in problem for problem in problems)
    assert any("eight" in problem for problem in problems)
    assert any("lower case" in problem for problem in problems)
