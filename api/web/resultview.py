"""What the result page shows, prepared in Python: findings grouped by severity and advisor, and the
unified diff as coloured rows, each changed line linked to the finding that made it."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from advisor.catalog import normalize_name
from advisor.findings import Severity

SEVERITY_ORDER = tuple(Severity)
# The differ notes the rule on the lines it adds or comments out: `# innotune buffer_pool.undersized: …`.
_RULE_NOTE = re.compile(r"innotune ([a-z0-9_]+(?:\.[a-z0-9_]+)+):")
_OPTION_PREFIXES = ("loose_", "skip_", "enable_", "disable_")


def finding_anchor(index: int) -> str:
    return f"finding-{index}"


@dataclass(frozen=True)
class AdvisorGroup:
    advisor: str
    findings: list[tuple[int, Mapping[str, Any]]]


@dataclass(frozen=True)
class SeverityGroup:
    severity: str
    advisors: list[AdvisorGroup]

    @property
    def count(self) -> int:
        return sum(len(group.findings) for group in self.advisors)


def group_findings(findings: Sequence[Mapping[str, Any]]) -> list[SeverityGroup]:
    """Most urgent first, then by advisor; each finding keeps its index (its anchor on the page)."""
    groups: list[SeverityGroup] = []
    for severity in SEVERITY_ORDER:
        by_advisor: dict[str, list[tuple[int, Mapping[str, Any]]]] = {}
        for index, finding in enumerate(findings):
            if finding.get("severity") == severity:
                by_advisor.setdefault(str(finding.get("advisor")), []).append((index, finding))
        if by_advisor:
            advisors = [AdvisorGroup(name, items) for name, items in sorted(by_advisor.items())]
            groups.append(SeverityGroup(severity, advisors))
    return groups


@dataclass
class DiffRow:
    """One line of the diff: its kind (file, hunk, add, del, context), text and the finding it is for."""

    kind: str
    text: str
    number: int
    finding: int | None = None
    rule: str | None = None

    @property
    def anchor(self) -> str:
        return f"diff-line-{self.number}"


@dataclass
class DiffView:
    rows: list[DiffRow] = field(default_factory=list)
    #: finding index → the anchor of its first changed line.
    first_line_of: dict[int, str] = field(default_factory=dict)


def _option_name(content: str) -> str | None:
    """The option a my.cnf line sets (also when commented out), normalised; None for other lines."""
    text = content.strip().lstrip("#;").strip()
    if not text or text.startswith("["):
        return None
    name = normalize_name(text.split("=", 1)[0])
    return name if re.fullmatch(r"[a-z0-9_.]+", name) else None


def _finding_for(content: str, by_rule: Mapping[str, int], by_variable: Mapping[str, int]) -> int | None:
    note = _RULE_NOTE.search(content)
    if note is not None and note.group(1) in by_rule:
        return by_rule[note.group(1)]
    name = _option_name(content)
    if name is None:
        return None
    candidates = [name] + [
        name.removeprefix(prefix) for prefix in _OPTION_PREFIXES if name.startswith(prefix)
    ]
    return next((by_variable[candidate] for candidate in candidates if candidate in by_variable), None)


def _indexes(findings: Sequence[Mapping[str, Any]]) -> tuple[dict[str, int], dict[str, int]]:
    """rule → first finding, variable → the finding that changes it (the first with a recommendation)."""
    by_rule: dict[str, int] = {}
    by_variable: dict[str, int] = {}
    for index, finding in enumerate(findings):
        by_rule.setdefault(str(finding.get("rule")), index)
        variable = finding.get("variable")
        if variable and finding.get("recommended") is not None:
            by_variable.setdefault(normalize_name(str(variable)), index)
    for index, finding in enumerate(findings):  # findings about a variable without a new value
        variable = finding.get("variable")
        if variable:
            by_variable.setdefault(normalize_name(str(variable)), index)
    return by_rule, by_variable


def _kind(line: str) -> str:
    if line.startswith(("--- ", "+++ ")):
        return "file"
    if line.startswith("@@"):
        return "hunk"
    if line.startswith("+"):
        return "add"
    if line.startswith("-"):
        return "del"
    return "context"


def diff_view(diff: str | None, findings: Sequence[Mapping[str, Any]], first_number: int = 1) -> DiffView:
    """The diff's rows; added and removed lines carry the index of the finding that changed them.
    Rows are numbered from `first_number` (their anchors), so several diffs on one page stay apart."""
    view = DiffView()
    if not diff:
        return view
    by_rule, by_variable = _indexes(findings)
    for number, line in enumerate(diff.splitlines(), start=first_number):
        row = DiffRow(_kind(line), line, number)
        if row.kind in ("add", "del"):
            row.finding = _finding_for(line[1:], by_rule, by_variable)
            if row.finding is not None:
                row.rule = str(findings[row.finding].get("rule"))
                view.first_line_of.setdefault(row.finding, row.anchor)
        view.rows.append(row)
    return view


def apply_sql_script(findings: Sequence[Mapping[str, Any]]) -> str:
    """Every live-apply statement, most urgent first, each under a comment naming its rule."""
    lines = [
        f"-- {finding.get('rule')}\n{finding['apply_sql']}"
        for finding in findings
        if finding.get("apply_sql")
    ]
    return "\n".join(lines) + ("\n" if lines else "")
