"""Option names read off real server binaries of Debian/Ubuntu packages (fetch_server_help): MariaDB 10.0,
10.1, 10.3, 10.5, 10.6, 11.4, 11.8 and MySQL 5.7, 8.0, 8.4, 9.7 — every option, plugins' included, nothing
filtered."""

from __future__ import annotations

import re

import pytest

from advisor.advisors import config_validity
from advisor.audit import AuditInputs
from advisor.optioncheck import Outcome, judge
from advisor.optioncheck.versions import history
from tests.advisor.advisors._audit import context

MARIADB = history("mariadb")
MYSQL = history("mysql")
BINARIES = {
    "mariadb": ["10.0.38", "10.1.48", "10.3.39", "10.5.23", "10.6.23", "11.4.7", "11.8.9"],
    "mysql": ["5.7.42", "8.0.46", "8.4.13", "9.7.4"],
}


def _snapshot(flavor: str, version: str) -> int:
    names = history(flavor)
    assert names is not None
    return [".".join(map(str, snap.version)) for snap in names.snapshots].index(version)


@pytest.mark.parametrize(("flavor", "version"), [(f, v) for f, vs in BINARIES.items() for v in vs])
def test_each_binary_list_names_its_package_and_checksum(flavor: str, version: str) -> None:
    """Provenance: archive, suite, package and version, pool file, SHA256; a full list (hundreds of names)."""
    names = history(flavor)
    assert names is not None
    index = _snapshot(flavor, version)
    snap = names.snapshots[index]
    assert snap.complete
    assert re.search(
        r"^(Debian|Ubuntu) archive, \S+.*: \S+-server-core\S* \S+ \(amd64\) pool/\S+\.deb", snap.source
    )
    assert sum(bits[index] == "1" for bits in names.listed.values()) > 500


@pytest.mark.parametrize("version", ["10.3.39", "10.5.23", "10.6.16", "10.6.23"])
def test_a_typo_on_an_lts_mariadb_is_a_certain_refusal(version: str) -> None:
    """The failure issue 17 opened with, on 10.3-10.6: an InnoDB typo (a plugin option the test results
    would hide) is certain once real binaries' lists surround the target."""
    verdict = judge("innodb_buffer_pool_sise", "2G", flavor="mariadb", version=version)
    assert verdict.outcome is Outcome.REFUSES_TO_START and verdict.reason == "misspelling"
    assert verdict.certain and verdict.suggestion == "innodb_buffer_pool_size = 2G"


def test_a_typo_on_mariadb_106_is_commented_out_and_the_intended_option_written() -> None:
    """The recommended file loses the misspelt line and gains the option it meant, with the user's value."""
    text = "[mysqld]\ninnodb_buffer_pool_sise = 2G\n"
    ctx = context(AuditInputs(mycnf={"my.cnf": text}, server_version="10.6.23-MariaDB"))
    found = [(p.variable, p.change, p.recommended, p.severity.value) for rule in config_validity.RULES
             for p in rule.check(ctx)]  # fmt: skip
    assert ("innodb_buffer_pool_sise", "comment_out", None, "critical") in found
    assert any(item[:3] == ("innodb_buffer_pool_size", None, "2G") for item in found), found


def test_a_name_of_106_gone_in_1011_is_accepted_for_106_only() -> None:
    """wsrep_strict_ddl: in the 10.6.23 binary's list, replaced by wsrep_mode and absent from 10.11.19's."""
    assert judge("wsrep_strict_ddl", "ON", flavor="mariadb", version="10.6.23").outcome is Outcome.ACCEPTS
    on_1011 = judge("wsrep_strict_ddl", "ON", flavor="mariadb", version="10.11.19")
    assert on_1011.outcome is Outcome.REFUSES_TO_START and on_1011.certain


def test_a_1011_option_on_106_is_refused_with_certainty_but_not_on_a_version_without_a_list() -> None:
    """log_slow_query_time (10.11.0): neither 10.5.23 nor 10.6.23 lists it, so 10.6 refuses it; 10.4 has no
    list of its own and 10.3/10.5 lack it too, but an option of other versions is not called certain there."""
    on_106 = judge("log_slow_query_time", "2", flavor="mariadb", version="10.6.23")
    assert on_106.reason == "not_in_version" and on_106.certain
    assert "10.11.19" in on_106.message
    on_104 = judge("log_slow_query_time", "2", flavor="mariadb", version="10.4.34")
    assert on_104.reason == "not_in_version" and not on_104.certain
    assert "no list of 10.4 itself" in on_104.basis


def test_1043_is_judged_from_the_lists_around_it() -> None:
    """10.4: a typo neither 10.3.39 nor 10.5.23 knows is certain; innodb_lru_flush_size (in 10.5.23's list
    only) is accepted, since 10.4 may have it."""
    assert judge("max_conections", "5", flavor="mariadb", version="10.4.34").certain
    assert (
        judge("innodb_lru_flush_size", "32", flavor="mariadb", version="10.4.34").outcome is Outcome.ACCEPTS
    )


def test_removed_options_a_binary_still_swallows_are_ignored_not_refused() -> None:
    """10.6.23 takes innodb_log_files_in_group with "'...' was removed. It does nothing now" and starts:
    found by feeding the name to the binary, so the line is called ignored, never refused."""
    verdict = judge("innodb_log_files_in_group", "2", flavor="mariadb", version="10.6.23")
    assert verdict.outcome is Outcome.IGNORES_WITH_WARNING and verdict.reason == "compatibility_stub"


def test_a_build_dependent_option_is_never_called_refused() -> None:
    """innodb_numa_interleave exists only in builds with NUMA: the Debian 10.5 build lacks it, 10.11's has it."""
    verdict = judge("innodb_numa_interleave", "ON", flavor="mariadb", version="10.5.23")
    assert verdict.outcome is Outcome.ACCEPTS or not verdict.certain


def test_mysql_innodb_typos_are_certain_where_binary_lists_surround_the_target() -> None:
    """MySQL's test results hide InnoDB options; the 5.7.42, 8.0.46, 8.4.13 and 9.7.4 binaries' lists do not."""
    for version in ("8.0.46", "5.7.42", "8.0.43", "8.4.3", "9.7.4"):
        verdict = judge("innodb_buffer_pool_sise", "1G", flavor="mysql", version=version)
        assert verdict.certain and verdict.suggestion == "innodb_buffer_pool_size = 1G", version


# Where the tuned catalog and a binary disagree, pending a catalog fix (the removal release is not known yet):
# mysqld 8.4.13 lacks --language (8.0.46 has it; the catalog says removed in 9.5.0). (mysqld 9.7.4 refuses
# innodb_log_file_size, innodb_log_files_in_group and innodb_undo_tablespaces: the catalog has them removed
# in 9.7.0, the first 9.7 release, the exact one not being on record.)
CATALOG_PENDING = {
    ("mysql", "8.4.13"): {"language"},
}


# Names a build may leave out (see generate_names.BLIND): the catalog is right to accept them.
BUILD_DEPENDENT = {"innodb_numa_interleave"}


@pytest.mark.parametrize(("flavor", "version"), [(f, v) for f, vs in BINARIES.items() for v in vs])
def test_the_tuned_catalog_agrees_with_every_binary(flavor: str, version: str) -> None:
    """At each binary's version the catalog accepts in an option file exactly the names the binary takes
    (listed, or swallowed with a warning). It caught innodb_checksums (still in 10.3.39), innodb_file_format
    and innodb_large_prefix (back in 10.3.39), slave_parallel_workers (in 10.3.39), innodb_default_row_format
    (in 10.1.48) and log_slow_admin_statements (an option in 10.0.38)."""
    from advisor.catalog import get_catalog
    from advisor.version import parse_version

    names = history(flavor)
    assert names is not None
    index = _snapshot(flavor, version)
    snap = names.snapshots[index]
    listed = {name for name, bits in names.listed.items() if bits[index] == "1"}
    target = parse_version(f"{flavor}-{version}")
    wrong = []
    for name in sorted(get_catalog().names()):
        facts = get_catalog().lookup(name, target)
        if facts is None or not facts.in_flavor or facts.kind == "mysqld_safe" or name in BUILD_DEPENDENT:
            continue
        special = any(
            name.startswith(p) and name[len(p) :] in listed for p in ("skip_", "disable_", "enable_")
        )
        taken = name in listed or special or facts.prefix_of in listed or name in snap.swallowed
        if name in listed and not facts.option_file_ok:
            wrong.append(f"{name}: listed, the catalog refuses it")
        if facts.option_file_ok and not taken:
            wrong.append(f"{name}: the catalog accepts it, the binary does not take it")
    pending = CATALOG_PENDING.get((flavor, version), set())
    assert wrong == [
        f"{name}: the catalog accepts it, the binary does not take it" for name in sorted(pending)
    ]


def test_an_abbreviation_after_prefix_matching_is_turned_off_is_refused() -> None:
    """MariaDB's skip-getopt-prefix-matching: from the next line on only full names match (mariadbd 10.11.19
    exits 7 on `max_connection=500` after it, and accepts it before it)."""
    before = judge("max_connection", "500", flavor="mariadb", version="10.11.19")
    assert before.outcome is Outcome.ACCEPTS and before.reason == "unique_prefix"
    after = judge("max_connection", "500", flavor="mariadb", version="10.11.19", prefix_matching=False)
    assert after.outcome is Outcome.REFUSES_TO_START and after.reason == "refused_prefix" and after.certain
    assert after.suggestion == "max_connections = 500" and "getopt-prefix-matching" in after.message


def test_the_audit_follows_the_order_of_the_prefix_matching_switch() -> None:
    """Only the abbreviation after the switch is critical; the one before it gets the notice."""
    text = "[mysqld]\nmax_connection = 500\nskip-getopt-prefix-matching\ntable_open = 400\n"
    ctx = context(AuditInputs(mycnf={"my.cnf": text}, server_version="10.11.19-MariaDB"))
    found = {(p.variable, p.severity.value) for rule in config_validity.RULES for p in rule.check(ctx)}
    assert ("max_connections", "notice") in found
    assert ("table_open", "critical") in found or ("table_open_cache", "critical") in found, found


def test_mysql_values_as_the_mysql_binaries_parse_them() -> None:
    """Differences the 5.7.42 and 8.0.46 binaries showed (bench/results/option_oracle-mysql-*.json): a
    negative number for an unsigned option is adjusted, not refused; an empty number is refused; loose-
    does not forgive a bad value; an InnoDB number with a bad suffix is read as my_getopt reads it."""
    negative = judge("max_connections", "-5", flavor="mysql", version="5.7.42")
    assert negative.outcome is Outcome.CLAMPS
    assert (
        judge("max_connections", "-5", flavor="mariadb", version="10.11").outcome is Outcome.REFUSES_TO_START
    )
    assert (
        judge("key_cache_block_size", "", flavor="mysql", version="8.0.46").outcome
        is Outcome.REFUSES_TO_START
    )
    loose = judge("loose-binlog_expire_logs_seconds", "no_such_value", flavor="mysql", version="8.0.46")
    assert loose.outcome is Outcome.REFUSES_TO_START
    suffix = judge("innodb_log_file_size", "1.5G", flavor="mysql", version="8.0.46")
    assert suffix.outcome is Outcome.REFUSES_TO_START and suffix.certain


def test_mariadb_before_106_parses_as_its_binaries_do() -> None:
    """10.0.38-10.5.23 read -5 for an unsigned option as 2^64-5 and adjust it to the maximum (10.6.23 and
    10.11 refuse it); a bad InnoDB value there stops the server (the core then calls the line unknown),
    where 10.6+ only disables InnoDB."""
    assert judge("max_connections", "-5", flavor="mariadb", version="10.5.23").outcome is Outcome.CLAMPS
    assert (
        judge("max_connections", "-5", flavor="mariadb", version="10.6.23").outcome
        is Outcome.REFUSES_TO_START
    )
    old = judge("innodb_lock_wait_timeout", "abc", flavor="mariadb", version="10.3.39")
    assert old.outcome is Outcome.REFUSES_TO_START
    new = judge("innodb_lock_wait_timeout", "abc", flavor="mariadb", version="10.6.23")
    assert new.outcome is Outcome.DISABLES_PLUGIN


# mariadbd 10.11.19 (this machine): each warns "'<name>' was removed. It does nothing now", exits 0 on
# `--verbose --help`, and a file holding all of them starts (the DBA review's cases 11 and 12)
REMOVED_INNODB_1011 = (
    "innodb_lock_schedule_algorithm", "innodb_idle_flush_pct", "innodb_sync_array_size",
    "innodb_commit_concurrency", "innodb_log_compressed_pages", "innodb_stats_sample_pages",
    "innodb_log_optimize_ddl", "innodb_scrub_log", "innodb_scrub_log_speed",
    "innodb_adaptive_max_sleep_delay", "innodb_replication_delay",
    "innodb_background_scrub_data_check_interval", "innodb_background_scrub_data_compressed",
    "innodb_background_scrub_data_interval", "innodb_background_scrub_data_uncompressed",
    "innodb_file_format", "innodb_log_files_in_group", "innodb_thread_concurrency",
)  # fmt: skip


@pytest.mark.parametrize("version", ["10.11.19", "11.4.5", "11.8.9"])
def test_every_removed_innodb_option_the_binaries_swallow_is_a_notice_not_a_refusal(version: str) -> None:
    """The 10.11 list was probed with MySQL's names only, so options MariaDB removed itself were 'refused'
    (critical, exit 1). Now each is judged ignored, and the audit comments it out as a notice."""
    for name in REMOVED_INNODB_1011:
        verdict = judge(name, "1", flavor="mariadb", version=version)
        assert (verdict.outcome, verdict.reason) == (Outcome.IGNORES_WITH_WARNING, "compatibility_stub"), name
    text = "[mysqld]\n" + "".join(f"{name} = 1\n" for name in REMOVED_INNODB_1011)
    ctx = context(AuditInputs(mycnf={"my.cnf": text}, server_version=f"{version}-MariaDB"))
    found = {(p.variable, p.change, (p.severity or rule.severity).value) for rule in config_validity.RULES
             for p in rule.check(ctx)}  # fmt: skip
    assert found == {(name, "comment_out", "notice") for name in REMOVED_INNODB_1011}
