"""advisor.maximum_prefix: what a `maximum-` line in force does to a recommendation above it."""

from __future__ import annotations

from advisor.audit import AuditInputs
from advisor.findings import Finding, Severity
from advisor.maximum_prefix import maximum_sets_value, respect_set_caps
from advisor.version import parse_version
from tests.advisor.advisors._audit import context

MARIADB = parse_version("10.11.19-MariaDB")


def _raise_sort_buffer() -> Finding:
    return Finding(
        advisor="memory",
        rule="memory.example",
        severity=Severity.NOTICE,
        title="raise it",
        rationale="Because.",
        evidence=(),
        variable="sort_buffer_size",
        current="1M",
        recommended="4M",
        restart_required=False,
        apply_sql="SET GLOBAL sort_buffer_size = 4194304;",
        references=(),
        applies_to="all",
        change="set",
        current_value=1 << 20,
        recommended_value=4 << 20,
    )


def test_a_server_variable_cap_turns_the_live_sql_into_a_restart_and_names_the_line() -> None:
    """`maximum-sort_buffer_size = 2M`: SET GLOBAL would be truncated to 2M (mariadbd 10.11.19, warning
    1292), so a 4M recommendation offers no SQL, needs the restart, and names the capping line."""
    ctx = context(
        AuditInputs(mycnf={"my.cnf": "[mysqld]\nmaximum-sort_buffer_size = 2M\n"}, server_version=MARIADB.raw)
    )
    (capped,) = respect_set_caps(ctx, [_raise_sort_buffer()])
    assert capped.apply_sql is None and capped.restart_required is True
    assert "maximum-sort_buffer_size = 2M (my.cnf:2) caps SET" in capped.rationale


def test_a_value_within_the_cap_is_left_alone() -> None:
    """A cap above the recommended value changes nothing."""
    ctx = context(
        AuditInputs(mycnf={"my.cnf": "[mysqld]\nmaximum-sort_buffer_size = 8M\n"}, server_version=MARIADB.raw)
    )
    finding = _raise_sort_buffer()
    assert respect_set_caps(ctx, [finding]) == [finding]


def test_only_plugin_options_take_their_value_from_maximum() -> None:
    """InnoDB's options do (a plugin's), the server's own sort_buffer_size does not, MySQL is not claimed."""
    assert maximum_sets_value(MARIADB, "innodb_buffer_pool_size")
    assert maximum_sets_value(MARIADB, "innodb-io-capacity")
    assert not maximum_sets_value(MARIADB, "sort_buffer_size")
    assert not maximum_sets_value(parse_version("8.0.36"), "innodb_buffer_pool_size")
