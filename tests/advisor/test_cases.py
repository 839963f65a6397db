"""Run every advisor example case through the whole audit and check what fires and what stays quiet."""

from __future__ import annotations

import pytest

from advisor.audit import run_audit
from tests.advisor.case_files import Case, load_cases

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_case(case: Case) -> None:
    """The rules a case names under `fires` find something; those under `quiet` do not."""
    result = run_audit(case.inputs)
    fired = {finding.rule for finding in result.findings}
    for rule_id in case.fires:
        assert rule_id in fired, f"{case.id}: expected {rule_id} to fire; fired {sorted(fired)}"
    for rule_id in case.quiet:
        assert rule_id not in fired, f"{case.id}: expected {rule_id} to stay quiet"
    by_variable = {f.variable: f.recommended for f in result.findings if f.variable and f.recommended}
    for variable, value in case.recommended.items():
        assert by_variable.get(variable) == value, f"{case.id}: {variable} -> {by_variable.get(variable)}"
    if case.clean:
        loud = [f"{f.rule} ({f.severity.value})" for f in result.findings if f.severity.rank <= 1]
        assert not loud, f"{case.id}: a clean config drew {loud}"
    by_rule = {f.rule: f.severity.value for f in result.findings}
    for rule_id, severity in case.severity.items():
        assert by_rule.get(rule_id) == severity, f"{case.id}: {rule_id} severity {by_rule.get(rule_id)}"
    for rule_id, texts in case.mentions.items():
        said = " ".join(
            f"{f.rationale} {' '.join(f'{e.value} {e.source}' for e in f.evidence)} {' '.join(f.notes)}"
            for f in result.findings
            if f.rule == rule_id
        )
        missing = [text for text in texts if text not in said]
        assert not missing, f"{case.id}: {rule_id} does not mention {missing}: {said}"
    lines = {line.strip() for file in result.files for line in file.recommended.splitlines()}
    missing_lines = [line for line in case.mycnf_has if line not in lines]
    assert not missing_lines, f"{case.id}: the recommended files lack {missing_lines}"
    kept = [line for line in case.mycnf_lacks if line in lines]
    assert not kept, f"{case.id}: the recommended files still hold {kept}"
    live = {f.variable: f.apply_sql for f in result.findings if f.variable and f.change == "set"}
    for variable, sql in case.apply_sql.items():
        assert live.get(variable) == sql, f"{case.id}: {variable} live SQL {live.get(variable)!r}"
