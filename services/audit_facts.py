"""What a succeeded audit keeps beside its findings for fleet views and comparisons: its finding
keys, its drift, how it differs from the server's previous audit; and the live settings a snapshot
keeps of the watched variables.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from advisor.errors import InputError
from advisor.inputs.statusvars import parse_variables
from advisor.units import parse_size
from store.models import Audit
from store.repositories.audits import PreviousAudit

#: variables whose live values a fleet summary compares across servers (the majority and who departs).
WATCHED_VARIABLES = (
    "version",
    "innodb_buffer_pool_size",
    "innodb_buffer_pool_instances",
    "innodb_log_file_size",
    "innodb_redo_log_capacity",
    "innodb_flush_log_at_trx_commit",
    "innodb_flush_method",
    "innodb_io_capacity",
    "innodb_file_per_table",
    "innodb_doublewrite",
    "max_connections",
    "table_open_cache",
    "thread_cache_size",
    "tmp_table_size",
    "max_heap_table_size",
    "sync_binlog",
    "log_bin",
    "binlog_format",
    "gtid_mode",
    "transaction_isolation",
    "tx_isolation",
    "sql_mode",
    "character_set_server",
    "performance_schema",
    "slow_query_log",
    "long_query_time",
)
KEY_SEPARATOR = "|"


def finding_key(finding: Mapping[str, Any]) -> str:
    """`rule|variable`: what makes two audits' findings "the same finding"."""
    return f"{finding.get('rule')}{KEY_SEPARATOR}{finding.get('variable') or ''}"


def drift_by_name(drift: Iterable[Mapping[str, Any]] | None) -> dict[str, Mapping[str, Any]]:
    """The settings an audit found in the file but running another value (not yet live), by name."""
    return {str(entry.get("name")): entry for entry in drift or ()}


def _same(left: object, right: object) -> bool:
    if left is None or right is None:
        return False
    sizes = parse_size(str(left)), parse_size(str(right))
    if None not in sizes:
        return sizes[0] == sizes[1]
    return str(left).strip().lower() == str(right).strip().lower()


def not_yet_live(finding: Mapping[str, Any], drifting: Mapping[str, Mapping[str, Any]]) -> bool:
    """A finding gone from a re-audit only because the file now holds the value it recommended, while
    the server still runs another: not resolved, just not applied (restart or run the SQL)."""
    entry = drifting.get(str(finding.get("variable")))
    return entry is not None and _same(finding.get("recommended"), entry.get("file_value"))


def finding_keys(findings: Iterable[Mapping[str, Any]]) -> list[str]:
    return sorted({finding_key(finding) for finding in findings})


def watched_settings(variables_text: str | None, name: str) -> dict[str, str]:
    """Live values of the watched variables from a SHOW GLOBAL VARIABLES dump ({} without one)."""
    if not variables_text:
        return {}
    try:
        dump = parse_variables(variables_text, name)
    except InputError:  # the audit itself reports bad input; a summary just lacks the values
        return {}
    return {variable: value for variable in WATCHED_VARIABLES if (value := dump.get(variable)) is not None}


def audit_facts(
    result: Mapping[str, Any], content_hash: str, previous: PreviousAudit | None
) -> dict[str, Any]:
    """What a succeeded audit keeps beside its findings for fleet views and comparisons, without
    loading findings: the drift, the finding keys, and how it differs from the previous audit."""
    keys = finding_keys(result.get("findings") or [])
    facts: dict[str, Any] = {"drift": list(result.get("drift") or []), "finding_keys": keys, "changes": None}
    if previous is not None:
        before, after = set(previous.finding_keys or []), set(keys)
        facts["changes"] = {
            "previous_audit_id": previous.id,
            "new": sorted(after - before),
            "resolved": sorted(before - after),
            "unchanged": len(after & before),
            "snapshot_changed": content_hash != previous.content_hash,
        }
    return facts


def clear_audit_facts(audit: Audit) -> None:
    audit.drift = audit.finding_keys = audit.changes = None
