"""The answer at a glance: one row per finding — severity, variable, now → recommended, live or
restart, the finding — the severity filter over them, and the same rows exported as CSV and Markdown.

The JSON export is the audit as the API reads it (findings, drift, diff), so a script gets one shape
whichever way it fetched the audit.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from advisor.findings import Severity

SEVERITY_WORDS = tuple(Severity)


def plural(count: int, word: str) -> str:
    """`1 warning`, `3 warnings`, `0 findings`."""
    return f"{count} {word}{'' if count == 1 else 's'}"


@dataclass(frozen=True)
class ChangeRow:
    """One finding in the changes table (index: its anchor on the page)."""

    index: int
    severity: str
    variable: str | None
    now: str
    recommended: str | None
    apply: str
    title: str
    rule: str


def now_text(finding: Mapping[str, Any]) -> str:
    """What the server has now: the value in effect, else the file line the finding is about (an option
    set in the file that the server refuses or ignores is no value in effect, yet not "not set")."""
    current = finding.get("current")
    if current is not None:
        return str(current)
    if finding.get("option_file") and finding.get("option_line"):
        return f"in {finding['option_file']}:{finding['option_line']}, not in effect"
    return "not set"


def apply_text(finding: Mapping[str, Any], drift: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """`live` (SET GLOBAL without a restart), `restart`, or an en dash when nothing changes. A finding
    with no new value whose variable is in the file but not running yet needs what the drift needs."""
    if finding.get("apply_sql"):
        return "live"
    if finding.get("restart_required"):
        return "restart"
    entry = (drift or {}).get(str(finding.get("variable")))
    if entry is not None and finding.get("recommended") is None:
        return "live" if entry.get("apply_sql") else "–" if entry.get("reason") else drift_restart_text(entry)
    return "–"


def drift_restart_text(entry: Mapping[str, Any]) -> str:
    """`restart` for a drift entry without SQL or reason, unless whether one is needed is not known (a
    variable outside the catalog: `restart_required` is None)."""
    if "restart_required" in entry and entry["restart_required"] is None:
        return "unknown whether a restart is needed"
    return "restart"


def change_rows(
    findings: Sequence[Mapping[str, Any]],
    severity: str | None = None,
    drift: Sequence[Mapping[str, Any]] = (),
) -> list[ChangeRow]:
    """Every finding (or those of one severity), most urgent first as the audit sorted them."""
    by_name = {str(entry.get("name")): entry for entry in drift}
    return [
        ChangeRow(
            index=index,
            severity=str(finding.get("severity")),
            variable=finding.get("variable"),
            now=now_text(finding),
            recommended=finding.get("recommended"),
            apply=apply_text(finding, by_name),
            title=str(finding.get("title")),
            rule=str(finding.get("rule")),
        )
        for index, finding in enumerate(findings)
        if severity is None or finding.get("severity") == severity
    ]


@dataclass(frozen=True)
class DriftRow:
    """A setting in the file but not running: how to apply it, or the finding that advises otherwise."""

    entry: Mapping[str, Any]
    #: the finding recommending another value than the file's (then the file's SQL is no advice).
    finding: int | None
    recommended: str | None


def drift_rows(drift: Sequence[Mapping[str, Any]], findings: Sequence[Mapping[str, Any]]) -> list[DriftRow]:
    """The drift, the variables some finding is about first; where a finding recommends a value other
    than the file's, the row points to it instead of offering SQL that applies the file's value."""
    about: dict[str, tuple[int, str | None]] = {}
    for index, finding in enumerate(findings):
        if finding.get("variable"):
            about.setdefault(str(finding["variable"]), (index, finding.get("recommended")))
    rows = []
    for entry in drift:
        index, recommended = about.get(str(entry.get("name")), (-1, None))
        advises_other = recommended is not None and recommended != entry.get("file_value")
        rows.append(DriftRow(entry, index if index >= 0 else None, recommended if advises_other else None))
    return sorted(rows, key=lambda row: row.finding is None)


def severity_filter(value: str | None) -> str | None:
    """The filter asked for in `?severity=`: a severity word, else None (all)."""
    return value if value in SEVERITY_WORDS else None


def severity_counts(findings: Sequence[Mapping[str, Any]]) -> list[tuple[str, int]]:
    """(severity, count) for each severity the audit has, most urgent first."""
    counted = [(word, sum(1 for f in findings if f.get("severity") == word)) for word in SEVERITY_WORDS]
    return [(word, count) for word, count in counted if count]


CSV_COLUMNS = ("severity", "variable", "now", "recommended", "apply", "rule", "finding")


def changes_csv(findings: Sequence[Mapping[str, Any]]) -> str:
    """The changes table as CSV, one row per finding, with a header."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in change_rows(findings):
        writer.writerow(
            (row.severity, row.variable or "", row.now, row.recommended or "", row.apply, row.rule, row.title)
        )
    return out.getvalue()


def _cell(text: object) -> str:
    """A Markdown table cell: pipes escaped, one line."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _drift_lines(drift: Sequence[Mapping[str, Any]]) -> list[str]:
    if not drift:
        return []
    lines = [
        "",
        "## In the file, not yet live: restart or run the SQL",
        "",
        "| Variable | In the file | Running | Apply |",
        "|---|---|---|---|",
    ]
    for entry in drift:
        how = entry.get("reason") or (
            f"`{entry['apply_sql']}`" if entry.get("apply_sql") else drift_restart_text(entry)
        )
        where = f" ({entry.get('file')}:{entry.get('line')})" if entry.get("file") else ""
        lines.append(
            f"| `{_cell(entry.get('name'))}` | `{_cell(entry.get('file_value'))}`{_cell(where)} "
            f"| `{_cell(entry.get('live_value'))}` | {_cell(how)} |"
        )
    return lines


def _finding_lines(findings: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = ["", "## Findings"]
    for finding in findings:
        lines += [
            "",
            f"### {finding.get('severity')}: {finding.get('title')}",
            "",
            f"`{finding.get('rule')}`",
        ]
        lines += ["", str(finding.get("rationale") or "")]
        for item in finding.get("evidence") or ():
            lines.append(f"- {item.get('label')}: {item.get('value')} ({item.get('source')})")
        if finding.get("apply_sql"):
            lines += ["", "```sql", str(finding["apply_sql"]), "```"]
        for url in finding.get("references") or ():
            lines.append(f"- <{url}>")
    return lines


def audit_markdown(view: Mapping[str, Any], title: str) -> str:
    """The result page as Markdown: the changes table, the drift, the findings, the diff."""
    findings: Sequence[Mapping[str, Any]] = view.get("findings") or []
    server = view.get("server") or {}
    lines = [f"# {title}", ""]
    if server.get("version"):
        lines.append(f"Server: {server.get('flavor')} {server.get('version')}  ")
    lines.append(f"Audit: {view.get('id')}, finished {view.get('finished_at')}  ")
    counts = ", ".join(plural(count, word) for word, count in severity_counts(findings)) or "none"
    lines += [f"Findings: {counts}", "", "## Changes", ""]
    lines += [
        "| Severity | Variable | Now → recommended | Live or restart | Finding |",
        "|---|---|---|---|---|",
    ]
    for row in change_rows(findings):
        change = f"`{_cell(row.now)}` → `{_cell(row.recommended)}`" if row.recommended else _cell(row.now)
        variable = f"`{row.variable}`" if row.variable else "–"
        lines.append(f"| {row.severity} | {variable} | {change} | {row.apply} | {_cell(row.title)} |")
    lines += _drift_lines(view.get("drift") or [])
    lines += _finding_lines(findings)
    if view.get("diff"):
        lines += ["", "## Diff of the option files", "", "```diff", str(view["diff"]).rstrip("\n"), "```"]
    return "\n".join(lines) + "\n"


def audit_export(view: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON export: the audit as the API reads it, with its drift and combined diff."""
    keep = (
        "id", "status", "server_id", "snapshot_id", "created_at", "finished_at", "worst_severity",
        "server", "findings", "drift", "warnings", "figures", "diff",
    )  # fmt: skip
    return {name: view.get(name) for name in keep}
