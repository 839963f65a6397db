"""Names the test results hide (InnoDB, Aria...), judged from real binaries' complete lists (optioncheck.settled):
MySQL 8.4/9.x and MariaDB 11.4/12.x, where an InnoDB misspelling used to be a mere warning."""

from __future__ import annotations

import pytest

from advisor.optioncheck import Outcome, judge, settled

MYSQL_TARGETS = ["8.4.3", "9.1.0", "9.7.0", "9.7.4"]
MARIADB_TARGETS = ["11.4.2", "12.1.1", "12.3.1"]


@pytest.mark.parametrize(
    ("flavor", "version"), [("mysql", v) for v in MYSQL_TARGETS] + [("mariadb", v) for v in MARIADB_TARGETS]
)
def test_an_innodb_misspelling_is_a_certain_refusal_with_the_intended_line(flavor: str, version: str) -> None:
    """innodb_bufer_pool_size: refused ("unknown variable"), certain, corrected with the user's value."""
    verdict = judge("innodb_bufer_pool_size", "2G", flavor=flavor, version=version)
    assert verdict.outcome is Outcome.REFUSES_TO_START and verdict.reason == "misspelling"
    assert verdict.certain and verdict.suggestion == "innodb_buffer_pool_size = 2G"


@pytest.mark.parametrize("version", ["12.1.1", "12.3.1"])
def test_an_aria_misspelling_on_mariadb_12_is_corrected_from_the_11_8_binary(version: str) -> None:
    """12.3's test result lists no Aria option: the correction comes from 11.8.9's binary list."""
    verdict = judge("aria_pagecache_bufer_size", "64M", flavor="mariadb", version=version)
    assert verdict.outcome is Outcome.REFUSES_TO_START and verdict.certain
    assert verdict.suggestion == "aria_pagecache_buffer_size = 64M"


def test_loose_keeps_a_misspelling_a_warning() -> None:
    """loose- turns the unknown name into a warning and a skipped line, on 9.1 as everywhere."""
    verdict = judge("loose-innodb_bufer_pool_size", "2G", flavor="mysql", version="9.1.0")
    assert verdict.outcome is Outcome.IGNORES_WITH_WARNING and verdict.reason == "loose_misspelling"


@pytest.mark.parametrize(("flavor", "version"), [("mysql", "9.1.0"), ("mariadb", "12.3.1")])
def test_an_unknown_hidden_name_that_is_no_misspelling_stays_unsure(flavor: str, version: str) -> None:
    """innodb_frobnicate is near no option: an InnoDB option of releases no binary list covers is not ruled out."""
    verdict = judge("innodb_frobnicate", "1", flavor=flavor, version=version)
    assert verdict.outcome is Outcome.REFUSES_TO_START and not verdict.certain


def test_an_abbreviation_is_never_called_a_name_no_version_had() -> None:
    """innodb_buffer_pool_siz starts innodb_buffer_pool_size: MySQL 5.6 takes a unique prefix, so the
    misspelling rule must not make it a certain refusal there (5.6.40's test result hides InnoDB options)."""
    assert not settled.never_an_option("mysql", "innodb_buffer_pool_siz")
    assert settled.never_an_option("mysql", "innodb_bufer_pool_size")
    assert not judge("innodb_buffer_pool_siz", "1G", flavor="mysql", version="5.6.40").certain


@pytest.mark.parametrize("version", ["12.1.1", "12.3.1"])
def test_an_innodb_option_dropped_long_before_is_refused_on_mariadb_12(version: str) -> None:
    """innodb_api_enable_binlog: in the 10.0.38 and 10.1.48 binaries, in none of 10.3.39 to 11.8.9 (which
    refuse it, neither listing nor swallowing it): not an option of 12.x either."""
    assert settled.removed("mariadb", "innodb_api_enable_binlog", (12, 3, 1))
    verdict = judge("innodb_api_enable_binlog", "1", flavor="mariadb", version=version)
    assert verdict.outcome is Outcome.REFUSES_TO_START and verdict.reason == "not_in_version"
    assert verdict.certain


@pytest.mark.parametrize("version", ["8.4.3", "9.1.0", "9.7.4"])
def test_innodb_api_enable_binlog_is_still_an_option_of_mysql_8_4_and_9_7(version: str) -> None:
    """The Version Reference says removed in 8.3.0, but the Ubuntu 8.4.13 and Debian 9.7.4 binaries list it and
    `mysqld --validate-config --innodb-api-enable-binlog=1` exits 0 on 8.4.13: the server is the judge."""
    assert judge("innodb_api_enable_binlog", "1", flavor="mysql", version=version).outcome is Outcome.ACCEPTS


def test_a_swallowed_removed_option_is_not_called_removed() -> None:
    """innodb_defragment left the 11.4.7 list but the 11.4.7 and 11.8.9 binaries take it with a warning."""
    assert not settled.removed("mariadb", "innodb_defragment", (12, 3, 1))
    verdict = judge("innodb_defragment", "1", flavor="mariadb", version="11.4.7")
    assert verdict.outcome is Outcome.IGNORES_WITH_WARNING and verdict.reason == "compatibility_stub"


def test_binary_lists_on_both_sides_settle_an_innodb_option_of_other_versions() -> None:
    """innodb_log_file_size: 8.4.13 has it, 9.7.4 refuses it; on 9.7.x it is gone, on 9.1 it may still be."""
    assert settled.complete_around("mysql", (9, 1, 0)) != (None, None)
    assert not settled.unseen_between("mysql", "innodb_log_file_size", (9, 1, 0))
    assert settled.unseen_between("mysql", "innodb_native_foreign_keys", (8, 4, 3))
    assert judge("innodb_log_file_size", "1G", flavor="mysql", version="9.7.4").outcome is (
        Outcome.REFUSES_TO_START
    )
