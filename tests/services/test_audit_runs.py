"""Running audits: the task body is idempotent, failures are short messages, the sweeper re-sends."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select, text, update

from services.audits import jobs as runner
from services.audits.runs import RunDecision, execute_audit, mark_running
from services.audits.sweep import find_stuck_audits, sweep_stuck_audits
from store.db import unit_of_work
from store.ids import utcnow
from store.models import Audit
from tests.fixtures.service_data import OrganizationHandle, queued_audit


def _load(audit_id: str) -> Audit:
    with unit_of_work() as session:
        audit = session.get(Audit, audit_id)
        assert audit is not None
        session.expunge(audit)
        return audit


def test_execute_audit_stores_results(organization: OrganizationHandle) -> None:
    """Running the sysbench snapshot stores findings, diff, my.cnf, worst severity and the version."""
    queued = queued_audit(organization)
    with unit_of_work() as session:
        execute_audit(session, queued.audit_id)
    audit = _load(queued.audit_id)
    assert audit.status == "succeeded" and audit.error is None
    assert audit.findings and {"rule", "severity", "title"} <= set(audit.findings[0])
    assert audit.worst_severity == audit.findings[0]["severity"]
    assert (audit.flavor, audit.version) == ("mariadb", "10.11.19-MariaDB-0+deb12u1")
    assert audit.diff is not None and audit.diff.startswith("---")
    assert audit.mycnf is not None and "[REDACTED]" not in audit.mycnf  # secrets stay in the user's file
    assert "a line holding a secret is kept out of this copy" in audit.mycnf
    assert audit.started_at is not None and audit.finished_at is not None and audit.advisor_version


def test_execute_audit_twice_replaces_never_duplicates(organization: OrganizationHandle) -> None:
    """A second run leaves the same findings, once, on the same single audit row."""
    queued = queued_audit(organization)
    with unit_of_work() as session:
        execute_audit(session, queued.audit_id)
    first = _load(queued.audit_id)
    with unit_of_work() as session:
        execute_audit(session, queued.audit_id)
    second = _load(queued.audit_id)
    assert first.findings == second.findings and len(second.findings or []) == len(first.findings or [])
    assert (first.diff, first.mycnf, first.worst_severity) == (
        second.diff,
        second.mycnf,
        second.worst_severity,
    )
    with unit_of_work() as session:
        count = session.scalar(select(func.count()).where(Audit.organization_id == organization.id))
    assert count == 1


def test_bad_stored_input_fails_with_file_and_line(organization: OrganizationHandle) -> None:
    """If a stored input no longer parses, the audit fails with the parser's `file:line: message`."""
    queued = queued_audit(organization)
    with unit_of_work() as session:
        session.execute(
            text(
                "UPDATE snapshots SET inputs = "
                "jsonb_set(inputs::jsonb, '{mycnf}', '{\"my.cnf\": \"x = 1\\n\"}')::json WHERE id = :id"
            ),
            {"id": queued.snapshot_id},
        )
        execute_audit(session, queued.audit_id)
    audit = _load(queued.audit_id)
    assert audit.status == "failed" and audit.findings is None
    assert audit.error is not None and audit.error.startswith("my.cnf:1: ")


def test_an_exception_fails_the_audit_with_one_line(
    organization: OrganizationHandle, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash inside the run marks the audit failed with `Type: first line`, never a traceback."""
    queued = queued_audit(organization)

    def explode(session: object, audit_id: str) -> None:
        raise RuntimeError("disk on fire\nTraceback (most recent call last):\n  more")

    monkeypatch.setattr(runner, "execute_audit", explode)
    assert runner.run_audit_job(queued.audit_id) is False  # no callback URL: nothing due
    audit = _load(queued.audit_id)
    assert (audit.status, audit.error, audit.attempts) == ("failed", "RuntimeError: disk on fire", 1)


def test_mark_running_decisions(organization: OrganizationHandle) -> None:
    """Queued → run (one more attempt); finished → skip; out of attempts → failed, callback due."""
    queued = queued_audit(organization)
    with unit_of_work() as session:
        assert mark_running(session, queued.audit_id, max_attempts=2) is RunDecision.RUN
    assert (_load(queued.audit_id).status, _load(queued.audit_id).attempts) == ("running", 1)
    with unit_of_work() as session:
        assert mark_running(session, queued.audit_id, max_attempts=2) is RunDecision.RUN
        assert mark_running(session, queued.audit_id, max_attempts=2) is RunDecision.GAVE_UP
    audit = _load(queued.audit_id)
    assert audit.status == "failed" and audit.error is not None and "gave up after 2 attempts" in audit.error
    with unit_of_work() as session:
        assert mark_running(session, queued.audit_id, max_attempts=5) is RunDecision.SKIP
        assert mark_running(session, "no-such-audit", max_attempts=5) is RunDecision.SKIP


def _age(audit_id: str, seconds: float) -> None:
    with unit_of_work() as session:
        session.execute(
            update(Audit).where(Audit.id == audit_id).values(updated_at=utcnow() - timedelta(seconds=seconds))
        )


def test_sweeper_resends_a_stuck_audit_once_per_period(organization: OrganizationHandle) -> None:
    """An audit queued for ten minutes is re-sent; right after, it is not re-sent again."""
    stuck, fresh = queued_audit(organization), queued_audit(organization)
    _age(stuck.audit_id, 600)
    with unit_of_work() as session:
        assert stuck.audit_id in find_stuck_audits(session, older_than_seconds=60)
        assert fresh.audit_id not in find_stuck_audits(session, older_than_seconds=60)
        outcome = sweep_stuck_audits(session, older_than_seconds=60, max_attempts=3)
    assert stuck.audit_id in outcome.resend and fresh.audit_id not in outcome.resend
    with unit_of_work() as session:
        again = sweep_stuck_audits(session, older_than_seconds=60, max_attempts=3)
    assert stuck.audit_id not in again.resend
    assert _load(stuck.audit_id).status == "queued"


def test_sweeper_gives_up_after_the_attempts(organization: OrganizationHandle) -> None:
    """A running audit whose attempts are used up is failed by the sweeper, not re-sent."""
    queued = queued_audit(organization)
    with unit_of_work() as session:
        for _ in range(3):
            mark_running(session, queued.audit_id, max_attempts=3)
    _age(queued.audit_id, 600)
    with unit_of_work() as session:
        outcome = sweep_stuck_audits(session, older_than_seconds=60, max_attempts=3)
    assert queued.audit_id in outcome.gave_up and queued.audit_id not in outcome.resend
    audit = _load(queued.audit_id)
    assert audit.status == "failed" and audit.error is not None and "3 attempts" in audit.error
