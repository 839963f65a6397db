"""Servers over time: each server's latest worst severity, one server's audits, and what changed
between two audits (findings, option files, live variables)."""

from __future__ import annotations

import pytest

from services.audits.jobs import run_audit_job
from services.errors import NotFound
from services.history import (
    compare_audits,
    compare_findings,
    option_file_changes,
    server_history,
    servers_overview,
    severity_counts,
    variable_changes,
)
from services.servers import ServerFields, create_server
from store.db import unit_of_work
from tests.corpus import corpus_file
from tests.fixtures.service_data import (
    SANDBOX_MYCNF,
    VARIABLES,
    OrganizationHandle,
    queued_audit,
    sysbench_upload,
)


def _finding(
    rule: str, variable: str | None, severity: str = "warning", recommended: str | None = None
) -> dict[str, str | None]:
    return {
        "rule": rule,
        "variable": variable,
        "severity": severity,
        "current": "1",
        "recommended": recommended,
    }


def test_findings_are_matched_by_rule_and_variable() -> None:
    """New, resolved and moved findings are told apart; a finding whose fields stayed is unchanged."""
    older = [
        _finding("buffer_pool.undersized", "innodb_buffer_pool_size", recommended="16G"),
        _finding("redo_log.undersized", "innodb_log_file_size", recommended="2G"),
        _finding("connections.idle", None, "info"),
    ]
    newer = [
        _finding("buffer_pool.undersized", "innodb_buffer_pool_size", recommended="32G"),
        _finding("connections.idle", None, "info"),
        _finding("flushing.io_capacity", "innodb_io_capacity", "notice", "2000"),
    ]
    changes = compare_findings(older, newer)
    assert [f["rule"] for f in changes.appeared] == ["flushing.io_capacity"]
    assert [f["rule"] for f in changes.resolved] == ["redo_log.undersized"]
    assert [(c.after["rule"], c.fields) for c in changes.changed] == [
        ("buffer_pool.undersized", ("recommended",))
    ]
    assert changes.unchanged == 1
    assert compare_findings(None, None).unchanged == 0


def test_a_recommendation_in_the_file_but_not_running_is_not_resolved() -> None:
    """The newer file holds the recommended 2G redo log but the server still runs 96M: the finding is
    listed as not yet live, never resolved; a finding the file fixed in another way stays resolved."""
    older = [
        _finding("redo_log.undersized", "innodb_log_file_size", recommended="2G"),
        _finding("config_validity.possible_typo", "innodb_buffer_pool_size"),
    ]
    drift = {
        "innodb_log_file_size": {
            "name": "innodb_log_file_size",
            "file_value": "2048M",
            "live_value": "100663296",
        },
        "innodb_buffer_pool_size": {
            "name": "innodb_buffer_pool_size",
            "file_value": "banana",
            "live_value": "1",
        },
    }
    changes = compare_findings(older, [], drift)
    assert [f["rule"] for f in changes.not_yet_live] == ["redo_log.undersized"]
    assert [f["rule"] for f in changes.resolved] == ["config_validity.possible_typo"]


def test_option_file_changes_diff_each_path() -> None:
    """A changed line shows as -/+ under its path; an added file comes from /dev/null; equal files say nothing."""
    sandbox = corpus_file(SANDBOX_MYCNF).read_text()
    tuned = sandbox.replace("innodb_buffer_pool_size    = 16M", "innodb_buffer_pool_size    = 1G")
    diff = option_file_changes(
        {"/etc/my.cnf": sandbox}, {"/etc/my.cnf": tuned, "/etc/extra.cnf": "[mysqld]\n"}
    )
    assert "--- a/etc/my.cnf\n+++ b/etc/my.cnf\n" in diff
    assert "-innodb_buffer_pool_size    = 16M\n+innodb_buffer_pool_size    = 1G\n" in diff
    assert "--- /dev/null\n+++ b/etc/extra.cnf\n" in diff
    assert option_file_changes({"/etc/my.cnf": sandbox}, {"/etc/my.cnf": sandbox}) == ""


def test_variable_changes_list_the_values_that_moved() -> None:
    """Two real dumps differing in one value give that value; a missing dump gives nothing."""
    dump = corpus_file(VARIABLES).read_text()
    changed = dump.replace("max_connections\t151\n", "max_connections\t500\n")
    assert changed != dump
    assert variable_changes(dump, changed) == [("max_connections", "151", "500")]
    assert variable_changes(dump, None) == []


@pytest.mark.service
def test_overview_history_and_comparison_of_real_audits(
    organization: OrganizationHandle, other_organization: OrganizationHandle
) -> None:
    """Two audits run of one server: the overview shows the newest's worst severity, the history both
    newest first, the comparison both in order; another organisation sees none of it."""
    first = queued_audit(organization)
    run_audit_job(first.audit_id)
    with unit_of_work() as session:
        from services.audits import submit_audit
        from services.snapshots import ingest_snapshot

        tuned = (
            corpus_file(SANDBOX_MYCNF)
            .read_text()
            .replace("innodb_buffer_pool_size    = 16M", "innodb_buffer_pool_size    = 8G")
        )
        ingest_snapshot(
            session, organization.id, first.server_id, sysbench_upload(mycnf={"/etc/mysql/my.cnf": tuned})
        )
        second, _ = submit_audit(
            session,
            organization.id,
            server_id=first.server_id,
            snapshot_id=None,
            callback_url=None,
            idempotency_key=None,
            request_hash=None,
        )
        second_id = second.id
        create_server(session, organization.id, ServerFields(name="never-audited"))
    run_audit_job(second_id)

    with unit_of_work() as session:
        overview, truncated = servers_overview(session, organization.id)
        server, audits = server_history(session, organization.id, first.server_id)
        comparison = compare_audits(session, organization.id, first.server_id, second_id, first.audit_id)
        latest = {item.server.name: item.latest for item in overview}
        assert not truncated and set(latest) == {server.name, "never-audited"}
        assert latest["never-audited"] is None
        newest = latest[server.name]
        assert newest is not None and newest.audit_id == second_id
        assert newest.worst_severity == audits[0].worst_severity
        assert [audit.id for audit in audits] == [second_id, first.audit_id]
        assert sum(severity_counts(audits[0].findings).values()) == len(audits[0].findings or [])
        assert (comparison.older.id, comparison.newer.id) == (first.audit_id, second_id)
        assert "+innodb_buffer_pool_size    = 8G" in comparison.option_files_diff
        with pytest.raises(NotFound):
            server_history(session, other_organization.id, first.server_id)
        with pytest.raises(NotFound):
            compare_audits(session, other_organization.id, first.server_id, second_id, first.audit_id)
        assert servers_overview(session, other_organization.id) == ([], False)
