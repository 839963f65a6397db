"""Comparing audits: findings matched by (rule, variable), option-file lines changed, live-vs-file drift,
and the comparison each audit stores with its predecessor."""

from __future__ import annotations

from typing import Any

from services.audit_facts import finding_keys, watched_settings
from services.drift import compare_audits, compare_option_files
from store.models import Audit
from tests.corpus import corpus_file
from tests.fixtures.service_data import VARIABLES


def _finding(rule: str, variable: str | None, severity: str = "warning") -> dict[str, Any]:
    return {
        "rule": rule,
        "variable": variable,
        "severity": severity,
        "title": rule,
        "current": None,
        "recommended": None,
    }


def _audit(audit_id: str, findings: list[dict[str, Any]], drift: list[dict[str, Any]] | None = None) -> Audit:
    return Audit(id=audit_id, server_id="s", findings=findings, drift=drift or [], worst_severity="warning")


def test_findings_are_matched_by_rule_and_variable() -> None:
    """A finding of the same rule about another variable is new; a changed severity is unchanged, noted."""
    before = _audit(
        "a", [_finding("pool.small", "innodb_buffer_pool_size"), _finding("conn.many", "max_connections")]
    )
    after = _audit(
        "b",
        [
            _finding("pool.small", "innodb_buffer_pool_size", "critical"),
            _finding("conn.many", "thread_cache_size"),
        ],
    )
    findings = compare_audits(before, after)["findings"]
    assert [(f["rule"], f["variable"]) for f in findings["new"]] == [("conn.many", "thread_cache_size")]
    assert [(f["rule"], f["variable"]) for f in findings["resolved"]] == [("conn.many", "max_connections")]
    assert [(f["severity_before"], f["severity"]) for f in findings["unchanged"]] == [("warning", "critical")]
    assert finding_keys(after.findings or []) == [
        "conn.many|thread_cache_size",
        "pool.small|innodb_buffer_pool_size",
    ]


def test_option_file_changes_are_numbered_in_their_own_file() -> None:
    """An inserted line shifts later ones: removed lines carry old numbers, added lines new ones; a file
    only on one side is wholly removed or added; identical files are not listed."""
    old = "[mysqld]\na = 1\nb = 2\n"
    new = "[mysqld]\n# tuned\na = 1\nb = 3\n"
    changed = compare_option_files(
        {"/etc/my.cnf": old, "/etc/same.cnf": "x"},
        {"/etc/my.cnf": new, "/etc/same.cnf": "x", "/etc/new.cnf": "[client]\n"},
    )
    assert [entry["path"] for entry in changed] == ["/etc/my.cnf", "/etc/new.cnf"]
    assert changed[0]["removed"] == [{"line": 3, "text": "b = 2"}]
    assert changed[0]["added"] == [{"line": 2, "text": "# tuned"}, {"line": 4, "text": "b = 3"}]
    assert changed[1]["added"] == [{"line": 1, "text": "[client]"}] and changed[1]["removed"] == []


def test_drift_names_new_and_resolved() -> None:
    """Live-vs-file drift of the later audit is listed, with what appeared and what went since."""
    drifted = {
        "name": "max_connections",
        "file_value": "500",
        "live_value": "151",
        "file": "my.cnf",
        "line": 3,
    }
    gone = {**drifted, "name": "sync_binlog"}
    comparison = compare_audits(_audit("a", [], [gone]), _audit("b", [], [drifted]))
    assert comparison["drift"] == {
        "live_vs_file": [drifted],
        "new": ["max_connections"],
        "resolved": ["sync_binlog"],
    }
    assert comparison["mycnf"] == {"changed": False, "files": []}


def test_a_first_audit_has_everything_new() -> None:
    """Without a previous audit every finding is new and nothing is resolved."""
    comparison = compare_audits(None, _audit("b", [_finding("pool.small", "innodb_buffer_pool_size")]))
    assert comparison["previous_audit_id"] is None
    assert len(comparison["findings"]["new"]) == 1 and comparison["findings"]["resolved"] == []


def test_watched_settings_come_from_the_live_variables() -> None:
    """The watched variables are read from the real MariaDB 10.11 dump; no dump, no values."""
    settings = watched_settings(corpus_file(VARIABLES).read_text(), "variables.tsv")
    assert settings["max_connections"] == "151"
    assert settings["innodb_buffer_pool_size"] == "134217728"
    assert settings["version"] == "10.11.19-MariaDB-0+deb12u1"
    assert watched_settings(None, "variables") == {}


def test_a_finding_whose_recommendation_is_in_the_file_but_not_live_is_not_resolved() -> None:
    """The re-audit of our recommended file with the server unchanged: the pool finding moves to
    `not_yet_live` (the file says 16G, the server runs 128M), never to `resolved`."""
    pool = {**_finding("buffer_pool.undersized", "innodb_buffer_pool_size"), "recommended": "16G"}
    pending = {"name": "innodb_buffer_pool_size", "file_value": "16G", "live_value": "134217728"}
    comparison = compare_audits(_audit("a", [pool]), _audit("b", [], [pending]))
    assert comparison["findings"]["resolved"] == []
    assert [f["rule"] for f in comparison["findings"]["not_yet_live"]] == ["buffer_pool.undersized"]
