"""The plugins and engines the option files give the server (advisor.derived.engines)."""

from __future__ import annotations

import pytest

from advisor.audit import AuditInputs
from advisor.context import AuditContext
from advisor.derived.engines import (
    engine_available,
    innodb_disabled_by,
    innodb_stays_off,
    loaded_plugins,
    plugin_words,
)
from advisor.engine import build_context, parse_inputs


def _context(mycnf: str, version: str = "10.11.19-MariaDB") -> AuditContext:
    inputs = AuditInputs(mycnf={"/etc/mysql/my.cnf": mycnf}, server_version=version)
    return build_context(parse_inputs(inputs), inputs)


def test_plugin_words_read_every_form() -> None:
    """`;`-separated items, `name=library`, with or without `.so`, any case."""
    assert plugin_words("FILE_KEY_MANAGEMENT=file_key_management.so; server_audit ;ha_rocksdb.so") == {
        "file_key_management", "server_audit", "ha_rocksdb",
    }  # fmt: skip


def test_plugin_load_replaces_and_plugin_load_add_accumulates() -> None:
    """mariadbd: plugin_load drops the libraries named before it; plugin-load-add lines add up; groups the
    server does not read load nothing."""
    ctx = _context(
        "[mysqld]\nplugin_load_add = server_audit\nplugin-load = sql_errlog\n[mariadb]\nplugin-load-add = "
        "ha_archive.so\n[client]\nplugin_load_add = disks\n"
    )
    assert loaded_plugins(ctx) == {"sql_errlog", "ha_archive"}


@pytest.mark.parametrize(
    ("lines", "off"),
    [
        ("skip-innodb", True), ("disable-innodb", True), ("innodb = OFF", True), ("loose-skip-innodb", True),
        ("innodb = 0", True), ("skip-innodb\ninnodb = ON", False), ("enable-innodb", False), ("", False),
    ],
)  # fmt: skip
def test_innodb_switch_last_line_wins(lines: str, off: bool) -> None:
    """Each of these disables InnoDB on mariadbd 10.11.19 (a private instance: 'Plugin InnoDB is disabled')."""
    assert (innodb_disabled_by(_context(f"[mysqld]\n{lines}\n")) is not None) is off


@pytest.mark.parametrize(
    ("lines", "starts"),
    [
        ("default_storage_engine = Aria", True),
        ("default_storage_engine = MyISAM\ndefault_tmp_storage_engine = MyISAM", True),
        ("default_storage_engine = MyISAM\ndefault_tmp_storage_engine = InnoDB", False),
        ("default_storage_engine = BLACKHOLE", False),
        ("plugin_load_add = ha_blackhole\ndefault_storage_engine = BLACKHOLE", True),
        ("", False),
    ],
)
def test_innodb_stays_off_only_where_the_server_starts(lines: str, starts: bool) -> None:
    """The combinations started (or not) on a private mariadbd 10.11.19 with skip-innodb."""
    ctx = _context(f"[mysqld]\nskip-innodb\n{lines}\n")
    assert innodb_stays_off(ctx) is starts


def test_engines_of_loaded_libraries_are_available() -> None:
    """ha_rocksdb provides RocksDB, ha_federatedx FEDERATED; unloaded engines are not available."""
    ctx = _context("[mysqld]\nplugin_load_add = ha_rocksdb;ha_federatedx\n")
    assert engine_available(ctx, "RocksDB") and engine_available(ctx, "federated")
    assert not engine_available(ctx, "Spider") and engine_available(ctx, "heap")
