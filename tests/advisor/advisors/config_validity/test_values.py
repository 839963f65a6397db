"""config_validity.values: how the server reads an option value, checked against what mariadbd and my_getopt do."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from advisor.advisors.config_validity.values import check_value
from advisor.catalog import get_catalog
from advisor.findings import Severity
from advisor.version import parse_version

MYSQL80 = parse_version("8.0.36")
MYSQL8013 = parse_version("8.0.13")
MARIADB106 = parse_version("10.6.16-MariaDB")


def _check(version_text: str, name: str, value: str | None) -> Severity | None:
    version = parse_version(version_text)
    facts = get_catalog().lookup(name, version)
    assert facts is not None
    problem = check_value(version, value, name, facts)
    return None if problem is None else problem[0]


def test_sizes_the_server_reads() -> None:
    """K/M/G in either case, a trailing B after the suffix and plain bytes are fine; T from 8.0.14 only."""
    for value in ("134217728", "128M", "128m", "1G", "64GB", "1T"):
        assert _check("8.0.36", "innodb_buffer_pool_size", value) is None, value
    assert _check("8.0.13", "innodb_buffer_pool_size", "1T") is Severity.CRITICAL
    assert _check("10.6.16-MariaDB", "innodb_buffer_pool_size", "1T") is None


def test_unreadable_numbers_stop_the_server() -> None:
    """A decimal point in an integer option, an unknown suffix, a word or a bare numeric option."""
    assert _check("10.6.16-MariaDB", "innodb_buffer_pool_size", "1.5G") is Severity.CRITICAL
    assert _check("10.6.16-MariaDB", "wait_timeout", "10x") is Severity.CRITICAL
    assert _check("8.0.36", "max_connections", "lots") is Severity.CRITICAL
    assert _check("8.0.36", "max_connections", None) is Severity.CRITICAL
    assert _check("8.0.36", "max_connections", "99999999999999999999999") is Severity.CRITICAL
    assert _check("10.6.16-MariaDB", "max_connections", "-5") is Severity.CRITICAL


def test_fractions_where_the_server_takes_them() -> None:
    """long_query_time is a double everywhere; expire_logs_days only from MariaDB 10.6.1."""
    assert _check("8.0.36", "long_query_time", "0.5") is None
    assert _check("10.6.1-MariaDB", "expire_logs_days", "0.5") is None
    assert _check("10.5.23-MariaDB", "expire_logs_days", "0.5") is Severity.CRITICAL


def test_out_of_range_is_clamped_not_refused() -> None:
    """mariadbd 10.11.19: 'unsigned value 200000 adjusted to 100000' — not a refusal: a notice when what runs
    is within twice or half what was written, else a warning (5 for innodb_flush_log_at_trx_commit runs 2)."""
    assert _check("10.6.16-MariaDB", "max_connections", "200000") is Severity.NOTICE
    assert _check("10.11.19-MariaDB", "innodb_log_buffer_size", "1M") is Severity.NOTICE
    assert _check("10.6.16-MariaDB", "max_connections", "300000") is Severity.WARNING
    assert _check("8.0.36", "max_connections", "100000") is None
    assert _check("10.6.16-MariaDB", "innodb_flush_log_at_trx_commit", "5") is Severity.WARNING


def test_booleans_and_enums() -> None:
    """Only ON/OFF/1/0/TRUE/FALSE are booleans (5.5.10+); enums take a value, its index or a unique prefix."""
    assert _check("8.0.36", "innodb_file_per_table", "yes") is Severity.WARNING
    assert _check("5.5.9", "innodb_file_per_table", "yes") is None
    assert _check("8.0.36", "innodb_file_per_table", "TRUE") is None
    assert _check("8.0.36", "log_bin", "/var/log/mysql/mysql-bin.log") is None  # the option names the files
    assert _check("10.6.16-MariaDB", "binlog_format", "ROWS") is Severity.CRITICAL
    for value in ("row", "MIX", "1"):
        assert _check("10.6.16-MariaDB", "binlog_format", value) is None, value
    assert _check("10.6.16-MariaDB", "innodb_checksum_algorithm", "none") is Severity.CRITICAL


@given(st.text(max_size=30))
def test_any_text_gives_an_answer(text: str) -> None:
    """Whatever a file says, the check answers (None or a severity with a reason) and never raises."""
    for name in ("innodb_buffer_pool_size", "binlog_format", "innodb_file_per_table", "long_query_time"):
        facts = get_catalog().lookup(name, MYSQL80)
        assert facts is not None
        problem = check_value(MYSQL80, text, name, facts)
        assert problem is None or (isinstance(problem[0], Severity) and problem[1])


@given(st.integers(min_value=1, max_value=100_000))
def test_numbers_in_range_are_fine(number: int) -> None:
    """Every whole number within max_connections' range reads as written, with or without a K suffix."""
    facts = get_catalog().lookup("max_connections", MYSQL80)
    assert facts is not None
    assert check_value(MYSQL80, str(number), "max_connections", facts) is None
    if number * 1024 <= 100_000:
        assert check_value(MYSQL80, f"{number}K", "max_connections", facts) is None


def test_values_without_digits_read_like_strtoll() -> None:
    """No digits read as 0 and the first letter is the suffix: mariadbd 10.11.19 takes `port = PORT` (0 with
    the P suffix) and clamps an empty max_connections to its minimum; MySQL before 8.0.14 knows no P."""
    assert _check("10.6.16-MariaDB", "port", "PORT") is None
    assert _check("5.7.44", "port", "PORT") is Severity.CRITICAL
    assert _check("10.6.16-MariaDB", "max_connections", "") is Severity.WARNING
    assert _check("8.0.36", "max_connections", "+500") is None
