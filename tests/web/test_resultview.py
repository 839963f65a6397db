"""The result page's preparation: findings grouped by severity and advisor, diff lines linked to the
finding that changed them — on a real audit of the sysbench corpus."""

from __future__ import annotations

from typing import Any

from advisor.audit import AuditInputs, run_audit
from api.web.resultview import SEVERITY_ORDER, apply_sql_script, diff_view, group_findings
from tests.corpus import corpus_file
from tests.web.corpus_form import SANDBOX_MYCNF, STATUS_FIRST, STATUS_SECOND, VARIABLES


def _sandbox_audit() -> dict[str, Any]:
    result = run_audit(
        AuditInputs(
            mycnf={"/etc/mysql/my.cnf": corpus_file(SANDBOX_MYCNF).read_text()},
            variables=corpus_file(VARIABLES).read_text(),
            status=(corpus_file(STATUS_FIRST).read_text(), corpus_file(STATUS_SECOND).read_text()),
            memory="24G",
            storage="ssd",
            role="primary",
        )
    )
    return result.to_dict()


def test_findings_are_grouped_most_urgent_first_then_by_advisor() -> None:
    """Every finding appears once, under its severity (in urgency order) and its advisor (sorted)."""
    findings = _sandbox_audit()["findings"]
    groups = group_findings(findings)
    order = [SEVERITY_ORDER.index(group.severity) for group in groups]
    assert order == sorted(order)
    placed = [
        (index, group.severity, advisor.advisor)
        for group in groups
        for advisor in group.advisors
        for index, _ in advisor.findings
    ]
    assert sorted(index for index, _, _ in placed) == list(range(len(findings)))
    assert all(
        findings[index]["severity"] == sev and findings[index]["advisor"] == adv for index, sev, adv in placed
    )
    for group in groups:
        names = [advisor.advisor for advisor in group.advisors]
        assert names == sorted(names)


def test_every_changed_line_links_to_the_finding_about_its_option() -> None:
    """Each added or removed line of the sandbox diff names a finding, and that finding is about the
    option on the line (or is the rule the differ's note names)."""
    audit = _sandbox_audit()
    findings = audit["findings"]
    view = diff_view(audit["diff"], findings)
    changed = [row for row in view.rows if row.kind in ("add", "del")]
    assert changed and all(row.finding is not None for row in changed)
    for row in changed:
        assert row.finding is not None
        finding = findings[row.finding]
        text = row.text[1:].replace("-", "_")
        assert finding["variable"] in text or f"innotune {finding['rule']}:" in row.text[1:], row.text
    pool = next(i for i, f in enumerate(findings) if f["variable"] == "innodb_buffer_pool_size")
    assert view.first_line_of[pool] == next(r.anchor for r in changed if "innodb_buffer_pool_size" in r.text)
    assert [row.kind for row in view.rows[:3]] == ["file", "file", "hunk"]


def test_the_live_apply_script_has_every_statement_under_its_rule() -> None:
    """One `-- rule` comment and statement per finding that can be applied live, in findings order."""
    findings = _sandbox_audit()["findings"]
    live = [f for f in findings if f["apply_sql"]]
    assert live
    expected = "".join(f"-- {f['rule']}\n{f['apply_sql']}\n" for f in live)
    assert apply_sql_script(findings) == expected
    assert apply_sql_script([]) == ""
