"""The human-readable audit report: findings grouped by advisor, then the diff."""

from __future__ import annotations

from itertools import groupby

from advisor.audit import AuditResult
from advisor.findings import Finding

_COLOURS = {"critical": "\033[1;31m", "warning": "\033[33m", "notice": "\033[36m", "info": "\033[2m"}
_RESET = "\033[0m"


def _paint(text: str, severity: str, colour: bool) -> str:
    return f"{_COLOURS[severity]}{text}{_RESET}" if colour else text


def _finding_lines(finding: Finding, colour: bool) -> list[str]:
    severity = finding.severity.value
    lines = [f"  {_paint(severity.upper(), severity, colour)} {finding.rule}: {finding.title}"]
    lines.append(f"    {finding.rationale}")
    if finding.variable and finding.recommended is not None:
        change = f"{finding.variable}: {finding.current or '(unset)'} -> {finding.recommended}"
        restart = " (restart required)" if finding.restart_required else ""
        lines.append(f"    change: {change}{restart}")
    if finding.apply_sql:
        lines.append(f"    live: {finding.apply_sql}")
    lines += [f"    evidence: {e.label} = {e.value} [{e.source}]" for e in finding.evidence]
    lines += [f"    note: {note}" for note in finding.notes]
    lines += [f"    see: {ref}" for ref in finding.references]
    return lines


def render_text(result: AuditResult, *, colour: bool = False) -> str:
    """Findings grouped by advisor (most urgent first inside each group), the diff at the end."""
    counts = {s: sum(1 for f in result.findings if f.severity.value == s) for s in _COLOURS}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "no findings"
    lines = [f"InnoTune audit of {result.flavor} {result.version}: {summary}", ""]
    lines += [f"input warning: {w.describe()}" for w in result.warnings]
    ordered = sorted(result.findings, key=lambda f: (f.advisor, f.severity.rank, f.rule))
    for advisor, findings in groupby(ordered, key=lambda f: f.advisor):
        lines.append(f"[{advisor}]")
        for finding in findings:
            lines += _finding_lines(finding, colour)
        lines.append("")
    if result.diff:
        lines += ["Proposed my.cnf changes:", "", result.diff.rstrip("\n"), ""]
    return "\n".join(lines) + "\n"
