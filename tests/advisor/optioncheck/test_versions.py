"""Option names per MySQL version (data/names.json, from the servers' own mysqld--help test results)."""

from __future__ import annotations

import re

import pytest

from advisor.advisors import config_validity
from advisor.audit import AuditInputs
from advisor.optioncheck import Outcome, judge
from advisor.optioncheck.generate_names import OUTPUT, build, render
from advisor.optioncheck.versions import history
from tests.advisor.advisors._audit import context
from tests.advisor.optioncheck.test_server_binaries import CATALOG_PENDING

MYSQL = history("mysql")


def test_the_checked_in_data_is_what_the_sources_give() -> None:
    """data/names.json is regenerated from sources/*.names (python -m advisor.optioncheck.generate_names)."""
    assert OUTPUT.read_text() == render(build())


def test_every_snapshot_names_its_source() -> None:
    """Each version's list says which repository, file and commit it was read from, and is a full list."""
    assert MYSQL is not None
    assert [snap.version for snap in MYSQL.snapshots] == sorted(snap.version for snap in MYSQL.snapshots)
    for snap in MYSQL.snapshots:  # a test result at a commit, or a package's binary (test_server_binaries)
        assert snap.complete or re.search(
            r"\S+/\S+ mysql-test/r/mysqld--help-notwin\.result @ [0-9a-f]{12}$", snap.source
        ), snap
    counts = [bits.count("1") for bits in zip(*MYSQL.listed.values(), strict=True)]
    assert min(counts) > 250, counts  # 5.5 has about 260 core options, 9.x about 460


@pytest.mark.parametrize("version", ["5.7.44", "8.0.36", "8.4.0", "9.1.0"])
def test_a_misspelling_on_a_covered_mysql_version_is_a_certain_refusal(version: str) -> None:
    """One letter off max_connections: 'unknown variable' on every MySQL the test results cover."""
    verdict = judge("max_conections", "500", flavor="mysql", version=version)
    assert verdict.outcome is Outcome.REFUSES_TO_START and verdict.reason == "misspelling"
    assert verdict.certain and verdict.suggestion == "max_connections = 500"


def test_outside_the_covered_versions_a_name_verdict_is_not_certain() -> None:
    """No test result of MySQL 5.1 here: its unknown names are not called certain."""
    assert not judge("max_conections", "500", flavor="mysql", version="5.1.73").certain
    assert not judge("frobnicate", "1", flavor="mysql", version="10.0.0").certain


def test_a_name_of_other_versions_only_is_named_so_but_never_certain() -> None:
    """query_cache_size: listed for 5.7, not for 8.0; a copy of the source may drop an option, so the
    verdict is informative only (the tuned catalog and its manual pages decide)."""
    verdict = judge("query_cache_size", "1M", flavor="mysql", version="8.0.36")
    assert verdict.reason == "not_in_version" and not verdict.certain
    assert "5.7.18" in verdict.message
    assert judge("query_cache_size", "1M", flavor="mysql", version="5.7.30").outcome is Outcome.ACCEPTS


@pytest.mark.parametrize(
    "name", ["innodb_frobnicate", "mysqlx_frobnicate", "ssl_frobnicate", "wsrep_provider"]
)
def test_names_the_test_results_hide_are_never_judged_certain(name: str) -> None:
    """InnoDB, X Plugin, TLS and Galera options are filtered out of (or absent from) the test results: where no
    real binary of the series lists them above the target (9.1.0; 8.0.3, the first 8.0 list), an unknown name
    that is no misspelling gets no certain verdict (an option of those releases alone cannot be ruled out)."""
    assert not judge(name, "1", flavor="mysql", version="9.1.0").certain
    assert not judge(name, "1", flavor="mysql", version="8.0.3").certain


@pytest.mark.parametrize("name", ["innodb_bufer_pool_size", "ssl_ciper", "innodb_log_buffer_sise"])
def test_a_misspelling_no_version_ever_had_is_certain_even_where_lists_hide_it(name: str) -> None:
    """One or two edits from a known option, in no list of any MySQL version, abbreviating none: every MySQL
    refuses it ("unknown variable"), also where the lists around the target hide plugin options."""
    for version in ("8.0.3", "9.1.0"):
        verdict = judge(name, "1", flavor="mysql", version=version)
        assert verdict.outcome is Outcome.REFUSES_TO_START and verdict.reason == "misspelling"
        assert verdict.certain, version


@pytest.mark.parametrize("name", ["innodb_bufer_pool_size", "mysqlx_portt", "ssl_ciper"])
def test_a_real_binary_of_the_series_settles_hidden_names(name: str) -> None:
    """8.0.36 lies between the 8.0.3 test result and the 8.0.46 binary's complete list: a name no list holds is
    certainly not an option there."""
    verdict = judge(name, "1", flavor="mysql", version="8.0.36")
    assert verdict.outcome is Outcome.REFUSES_TO_START and verdict.certain


@pytest.mark.parametrize("name", ["wsrep_provider", "pxc_strict_mode", "ndb_connectstring"])
def test_other_builds_options_stay_unsure_beside_a_release_binary(name: str) -> None:
    """A release binary never lists Galera/PXC or NDB Cluster options: those builds are MySQL too."""
    assert not judge(name, "1", flavor="mysql", version="8.0.36").certain


def _typo_findings(version: str) -> list[tuple[str | None, str | None, str | None]]:
    ctx = context(AuditInputs(mycnf={"my.cnf": "[mysqld]\nmax_conections = 500\n"}, server_version=version))
    return [
        (proposal.variable, proposal.change, proposal.recommended)
        for item in config_validity.RULES
        for proposal in item.check(ctx)
    ]


def test_a_mysql_typo_is_commented_out_and_the_intended_option_written() -> None:
    """MySQL 8.0 refuses max_conections: the line goes, max_connections = 500 is written in its place."""
    findings = _typo_findings("8.0.36")
    assert ("max_conections", "comment_out", None) in findings
    assert ("max_connections", None, "500") in findings


def test_percona_server_keeps_the_older_near_miss_check() -> None:
    """Percona Server adds options of its own, so the MySQL lists do not judge its names."""
    assert ("max_conections", "comment_out", None) not in _typo_findings("percona:8.0.36")


def test_option_before_variable_agrees_with_the_catalog() -> None:
    """transaction_isolation and log_slow_admin_statements: options in 5.5's list, system variables only
    from 5.7.20 and 5.6.11 — the catalog records the earlier option version (option_since), so a 5.5 file
    using them is not called refused (it caught log_slow_admin_statements, refused before 5.6.11)."""
    assert MYSQL is not None
    assert MYSQL.option_before_variable["transaction_isolation"] == {
        "option_seen": "5.5.29",
        "variable_since": "5.7.20",
    }
    assert MYSQL.option_before_variable["log_slow_admin_statements"]["option_seen"] == "5.5.29"
    verdict = judge("transaction_isolation", "READ-COMMITTED", flavor="mysql", version="5.5.29")
    assert verdict.outcome is Outcome.ACCEPTS
    text = "[mysqld]\nlog_slow_admin_statements = 1\ntransaction_isolation = READ-COMMITTED\n"
    ctx = context(AuditInputs(mycnf={"my.cnf": text}, server_version="5.5.62"))
    assert [p.variable for p in config_validity.refused_option.check(ctx)] == []


# Names the catalog accepts that a test result does not list, each looked at: left as the catalog has
# them, since calling a working line refused is the worse mistake.
UNLISTED_BUT_ACCEPTED = {
    "plugin_load_add": "not in the 5.5.29 list; the 5.5 manual is silent, so the catalog's acceptance stands",
    "storage_engine": "a 5.5/5.6 system variable with no option of its own (absent from both lists); unverified",
}


def _listed_or_special(name: str, listed: set[str], prefix_of: str | None) -> bool:
    """skip-/disable-/enable- forms are my_getopt's spellings of the option after the prefix (or of a
    plugin's, which the lists hide); `key_buffer` is taken as a unique prefix of key_buffer_size."""
    for prefix in ("skip_", "disable_", "enable_"):
        if name.startswith(prefix) and (
            name[len(prefix) :] in listed or (MYSQL is not None and MYSQL.blind(name[len(prefix) :]))
        ):
            return True
    return name in listed or prefix_of in listed or name in UNLISTED_BUT_ACCEPTED


def test_the_tuned_catalog_agrees_with_every_mysql_test_result() -> None:
    """At each snapshot's version, the catalog accepts in an option file exactly the listed names it knows
    (leaving aside names the results hide): a listed name the catalog refuses, or a name the catalog accepts
    that the server's own list lacks, is a wrong lifecycle fact (it caught `language`, said removed in 8.0.0
    though 8.0.41 still has it, and `skip_host_cache`, gone in 8.3.0)."""
    from advisor.catalog import get_catalog
    from advisor.version import parse_version

    assert MYSQL is not None
    catalog = get_catalog()
    wrong: list[str] = []
    for index, snap in enumerate(MYSQL.snapshots):
        version = parse_version("mysql-" + ".".join(map(str, snap.version)))
        listed = {name for name, bits in MYSQL.listed.items() if bits[index] == "1"}
        pending = CATALOG_PENDING.get(("mysql", ".".join(map(str, snap.version))), set())
        for name in sorted(catalog.names() - pending):
            facts = catalog.lookup(name, version)
            if facts is None or not facts.in_flavor or facts.kind == "mysqld_safe" or MYSQL.blind(name):
                continue
            if name in listed and not facts.option_file_ok:
                wrong.append(f"{version}: {name} is listed but the catalog refuses it")
            if (
                facts.option_file_ok
                and not facts.ignored
                and not _listed_or_special(name, listed, facts.prefix_of)
            ):
                wrong.append(f"{version}: the catalog accepts {name}, the server's list lacks it")
    assert wrong == []


def test_a_typo_is_corrected_only_to_an_option_of_the_target_version() -> None:
    """replica_parallel_workers appeared in 8.0.26: on 5.7 the misspelt name is refused with no correction,
    on 8.0 it is corrected; slave_parallel_workers is 5.7's spelling."""
    assert judge("replica_paralel_workers", "4", flavor="mysql", version="5.7.30").suggestion is None
    assert judge("replica_paralel_workers", "4", flavor="mysql", version="8.0.36").suggestion == (
        "replica_parallel_workers = 4"
    )
    assert judge("slave_paralel_workers", "4", flavor="mysql", version="5.7.30").suggestion == (
        "slave_parallel_workers = 4"
    )


@pytest.mark.parametrize(
    "version", ["10.0.20", "10.2.44", "10.6.16", "10.11.6", "11.4.2", "11.8.1", "12.3.1"]
)
def test_mariadb_name_verdicts_are_certain_from_10_0_to_12_3(version: str) -> None:
    """10.11 read off the real server, 10.0-11.8 off packaged binaries, 12.3 from MariaDB's own mysqld--help
    result: a misspelling between them is a certain refusal; 5.5 (before every list here) is not."""
    verdict = judge("max_conections", "500", flavor="mariadb", version=version)
    assert verdict.reason == "misspelling" and verdict.certain
    assert not judge("max_conections", "500", flavor="mariadb", version="5.5.68").certain


def test_mariadb_12_options_are_known_and_removed_ones_named() -> None:
    """binlog_storage_engine (12.3.1) is accepted on 12.3; big_tables, gone from 12.3's list, is named as
    an option of other versions, never as a certain refusal (the list may have filtered its help)."""
    assert (
        judge("binlog_storage_engine", "innodb", flavor="mariadb", version="12.3.1").outcome
        is Outcome.ACCEPTS
    )
    verdict = judge("big_tables", "1", flavor="mariadb", version="12.3.1")
    assert verdict.reason == "not_in_version" and not verdict.certain


def test_mariadb_10_11_verdicts_still_come_from_the_real_server_alone() -> None:
    """On 10.11 a 12.x-only name is what mariadbd 10.11.19 says: unknown (exit 7), with certainty."""
    verdict = judge("binlog_storage_engine", "innodb", flavor="mariadb", version="10.11.19")
    assert verdict.outcome is Outcome.REFUSES_TO_START and verdict.certain


def test_mysql_55_and_56_resolve_abbreviations_among_their_own_options() -> None:
    """5.6 takes max_allowed for max_allowed_packet (a notice asks for the full name); binlog_row_val
    abbreviates nothing 5.6 has (binlog_row_value_options is 8.0's), so 5.6 refuses it as unknown."""
    verdict = judge("max_allowed", "64M", flavor="mysql", version="5.6.51")
    assert verdict.reason == "unique_prefix" and verdict.certain
    assert verdict.suggestion == "max_allowed_packet = 64M"
    unknown = judge("binlog_row_val", "x", flavor="mysql", version="5.6.51")
    assert unknown.reason == "unknown_name" and unknown.certain


def test_an_ambiguous_prefix_before_57_is_not_certain() -> None:
    """table_open: one option in 5.5 (table_open_cache), two in 5.6; the lists around 5.5.62 are 5.5.29's
    and 5.6.40's, so whether 5.5.62 refuses it is not called certain."""
    verdict = judge("table_open", "64", flavor="mysql", version="5.5.62")
    assert verdict.reason == "ambiguous_prefix" and not verdict.certain


def test_a_unique_prefix_of_a_swallowed_removed_option_is_swallowed_too() -> None:
    """mariadbd 10.11.19 reads innodb_buffer_pool_instance as the removed innodb_buffer_pool_instances (a
    warning, rc 0); with getopt-prefix-matching off it refuses the line (exit 7)."""
    verdict = judge("innodb_buffer_pool_instance", "8", flavor="mariadb", version="10.11.19")
    assert verdict.outcome is Outcome.IGNORES_WITH_WARNING and verdict.reason == "compatibility_stub"
    refused = judge(
        "innodb_buffer_pool_instance", "8", flavor="mariadb", version="10.11.19", prefix_matching=False
    )
    assert refused.outcome is Outcome.REFUSES_TO_START
