"""config_validity.names: near-miss option names and who reads an option group."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from advisor.advisors.config_validity.names import group_role, near_miss
from advisor.catalog import get_catalog
from advisor.inputs.optiongroups import groups_read
from advisor.version import parse_version

MYSQL80 = parse_version("8.0.36")
MARIADB = parse_version("10.11.6-MariaDB")
KNOWN = get_catalog().names_for(MYSQL80)
LONG_NAMES = sorted(name for name in KNOWN if len(name) >= 12)


def test_typos_find_their_name() -> None:
    """A letter missing, added, changed or two letters swapped all lead back to the name."""
    for typo in (
        "innodb_bufer_pool_size",
        "innodb_bufferr_pool_size",
        "innodb_buffer_pool_sizw",
        "innodb_buffer_pool_szie",
    ):
        assert near_miss(typo, KNOWN, accepts_prefixes=False) == "innodb_buffer_pool_size", typo


def test_unrelated_names_are_not_typos() -> None:
    """Plugin and Galera options InnoTune does not list are not near misses of anything it knows."""
    for name in ("rpl_semi_sync_source_enabled", "wsrep_provider_options", "validate_password_policy"):
        assert near_miss(name, KNOWN, accepts_prefixes=False) is None, name


def test_prefixes_are_abbreviations_where_accepted() -> None:
    """`max_connection` is a typo on MySQL 5.7+ but a valid unique prefix where prefixes are taken."""
    assert near_miss("max_connection", KNOWN, accepts_prefixes=False) == "max_connections"
    assert near_miss("max_connection", KNOWN, accepts_prefixes=True) is None


@given(st.sampled_from(LONG_NAMES), st.data())
def test_one_deleted_letter_is_always_caught(name: str, data: st.DataObject) -> None:
    """Dropping any one letter of a known name gives a near miss of some known name."""
    position = data.draw(st.integers(min_value=0, max_value=len(name) - 1))
    typo = name[:position] + name[position + 1 :]
    if typo not in KNOWN:
        assert near_miss(typo, KNOWN, accepts_prefixes=False) is not None


def test_group_roles() -> None:
    """Server groups, other versions' groups, mysqld_safe, clients, tools, and groups nobody reads."""
    mysql, mariadb = groups_read(MYSQL80), groups_read(MARIADB)
    assert group_role("mysqld", mysql, mariadb=False) == "server"
    assert group_role("mysqld-8.0", mysql, mariadb=False) == "server"
    assert group_role("mysqld-5.7", mysql, mariadb=False) == "other_version"
    assert group_role("mysqld_safe", mysql, mariadb=False) == "mysqld_safe"
    assert group_role("client", mysql, mariadb=False) == "client"
    assert group_role("mariadb", mysql, mariadb=False) == "unknown"
    assert group_role("mariadb", mariadb, mariadb=True) == "server"
    assert group_role("mysqld3307", mysql, mariadb=False) is None  # mysqld_multi instance
    assert group_role("mysqld.1", mysql, mariadb=False) is None  # mysql-test
    assert group_role("xtrabackup", mysql, mariadb=False) is None
