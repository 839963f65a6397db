"""The recommended file never overcommits its own memory budget: for every case file whose audit finds
no memory.overcommitted, the audit of the file we hand back (with the same status, hardware and other
inputs) finds none beyond a notice. Advisors that each fit memory alone (the pool grown into the room
left, max_connections raised into it, a temporary table limit raised) must not add up to more.

A notice is the budget's own design: the pool is sized for the connections seen (Max_used_connections ×
1.5), not for every one allowed, and memory.overcommitted says so at notice severity when only
max_connections, never reached, goes beyond the limit."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from advisor.audit import run_audit
from advisor.findings import Severity
from tests.advisor.case_files import Case, load_cases

OVERCOMMITTED = "memory.overcommitted"
CASES = [
    case for case in load_cases() if case.inputs.memory or case.inputs.memory_limit or case.inputs.hardware
]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_the_recommended_file_fits_the_budget_the_original_fit(case: Case) -> None:
    first = run_audit(case.inputs)
    if any(finding.rule == OVERCOMMITTED for finding in first.findings):
        return  # the advice may not cure an overcommit in one step; it must not make one
    changed = [f for f in first.findings if f.variable and f.change == "set"]
    if not changed or not first.files:
        return
    files = {file.path: file.recommended for file in first.files}
    again = run_audit(replace(case.inputs, mycnf=files))
    found = [
        f.rationale for f in again.findings if f.rule == OVERCOMMITTED and f.severity is not Severity.NOTICE
    ]
    assert not found, (
        f"{case.id}: applying {[(f.variable, f.recommended) for f in changed]} overcommits: {found}"
    )
