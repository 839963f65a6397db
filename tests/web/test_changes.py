"""The changes table's words, in Python: plurals, what "now" says for a refused file line, live or
restart, drift rows that point to a finding recommending another value, and the CSV/Markdown exports."""

from __future__ import annotations

import csv
import io

from api.problems import validation_field, validation_message
from api.web.changes import apply_text, audit_markdown, change_rows, changes_csv, drift_rows, now_text, plural

POOL = {
    "rule": "buffer_pool.undersized",
    "severity": "warning",
    "title": "The buffer pool is too small | for this server",
    "variable": "innodb_buffer_pool_size",
    "current": "128M",
    "recommended": "16G",
    "apply_sql": "SET GLOBAL innodb_buffer_pool_size = 17179869184;",
    "restart_required": False,
}
REFUSED = {
    "rule": "config_validity.unknown_option",
    "severity": "warning",
    "title": "innodb_bufer_pool_size is not an option",
    "variable": "innodb_bufer_pool_size",
    "current": None,
    "recommended": None,
    "option_file": "/etc/mysql/my.cnf",
    "option_line": 3,
    "restart_required": True,
}


def test_plurals_and_what_now_says() -> None:
    """`1 warning`, `3 warnings`; an option set in the file but not in effect is never "not set"."""
    assert (plural(1, "warning"), plural(3, "warning"), plural(0, "finding")) == (
        "1 warning",
        "3 warnings",
        "0 findings",
    )
    assert now_text(POOL) == "128M"
    assert now_text(REFUSED) == "in /etc/mysql/my.cnf:3, not in effect"
    assert now_text({"current": None}) == "not set"


def test_live_or_restart_and_the_filter() -> None:
    """SQL means live; a restart flag means restart; a finding without a value whose variable is in
    the file but not running needs what the drift needs; the filter keeps one severity."""
    binlog = {"rule": "replication.binlog_off_on_primary", "severity": "warning", "variable": "log_bin"}
    drift = [{"name": "log_bin", "file_value": "mysql-bin", "live_value": "OFF", "apply_sql": None}]
    assert apply_text(POOL) == "live" and apply_text(REFUSED) == "restart"
    assert [row.apply for row in change_rows([binlog], drift=drift)] == ["restart"]
    assert [row.index for row in change_rows([POOL, {**REFUSED, "severity": "notice"}], "notice")] == [1]


def test_drift_of_a_variable_not_known_to_be_static_does_not_say_restart() -> None:
    """restart_required None (a name outside the catalog) reads "unknown whether a restart is needed" in the
    changes table and the Markdown export; an entry without the key (older audits) still reads restart."""
    variable = {"rule": "x.y", "severity": "notice", "variable": "log_slow_slave_statements"}
    unknown = {"name": "log_slow_slave_statements", "file_value": "0", "live_value": "ON", "apply_sql": None}
    unknown_entry = {**unknown, "restart_required": None}
    assert [row.apply for row in change_rows([variable], drift=[unknown_entry])] == [
        "unknown whether a restart is needed"
    ]
    assert [row.apply for row in change_rows([variable], drift=[unknown])] == ["restart"]
    markdown = audit_markdown({"findings": [], "drift": [unknown_entry]}, "t")
    assert "unknown whether a restart is needed" in markdown


def test_drift_rows_point_to_a_finding_that_recommends_another_value() -> None:
    """The file's 16M is not what we recommend: the row names 16G and the finding, not the SQL for 16M."""
    pending = {
        "name": "innodb_buffer_pool_size",
        "file_value": "16M",
        "live_value": "134217728",
        "apply_sql": "SET …",
    }
    other = {"name": "port", "file_value": "3307", "live_value": "3306", "apply_sql": None}
    rows = drift_rows([other, pending], [POOL])
    assert [(row.entry["name"], row.finding, row.recommended) for row in rows] == [
        ("innodb_buffer_pool_size", 0, "16G"),
        ("port", None, None),
    ]


def test_exports_hold_every_finding() -> None:
    """CSV: a header and a row per finding; Markdown: the table (pipes escaped), drift and findings."""
    table = list(csv.DictReader(io.StringIO(changes_csv([POOL, REFUSED]))))
    assert [(row["variable"], row["now"], row["recommended"], row["apply"]) for row in table] == [
        ("innodb_buffer_pool_size", "128M", "16G", "live"),
        ("innodb_bufer_pool_size", "in /etc/mysql/my.cnf:3, not in effect", "", "restart"),
    ]
    drift = [{"name": "log_bin", "file_value": "mysql-bin", "live_value": "OFF", "file": "my.cnf", "line": 3}]
    markdown = audit_markdown({"id": "a1", "findings": [POOL], "drift": drift, "diff": "+x\n"}, "Audit a1")
    assert "| warning | `innodb_buffer_pool_size` | `128M` → `16G` | live |" in markdown
    assert "too small \\| for this server" in markdown
    assert "| `log_bin` | `mysql-bin` (my.cnf:3) | `OFF` | restart |" in markdown
    assert "```diff\n+x\n```" in markdown


def test_validation_messages_name_the_field_without_framework_words() -> None:
    """422 details: `hardware.cpus: …`, never `body.hardware.cpus: Value error, …`."""
    error = {"loc": ("body", "hardware", "cpus"), "msg": "Value error, expected a whole number of CPUs"}
    assert validation_field(error) == "hardware.cpus"
    assert validation_message(error) == "expected a whole number of CPUs"
    assert validation_field({"loc": ("query", "order"), "msg": "x"}) == "order"
