"""Batches of audits (`audits.run_batch`), unchanged re-audits stored as references, and retention:
drift and history answer the same after pruning."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from sqlalchemy import select

from services.audits import submit_audit
from services.audits.batch import run_audit_batch
from services.audits.retention import audits_to_delete, prune_audits
from services.drift import server_drift
from services.history import server_history
from services.snapshots import ingest_snapshot, prepared_form, read_prepared_form
from store.db import unit_of_work
from store.models import Audit, Snapshot
from tests.fixtures.fleet_data import small_upload
from tests.fixtures.service_data import OrganizationHandle, queued_audit


def _queue(organization: OrganizationHandle, server_id: str) -> str:
    with unit_of_work() as session:
        audit, _ = submit_audit(
            session,
            organization.id,
            server_id=server_id,
            snapshot_id=None,
            callback_url=None,
            idempotency_key=None,
            request_hash=None,
        )
        return audit.id


def _stored(audit_id: str) -> dict[str, Any]:
    with unit_of_work() as session:
        audit = session.get(Audit, audit_id)
        assert audit is not None
        return {
            "status": audit.status,
            "result_of": audit.result_of,
            "stored_findings": audit.stored_findings,
            "stored_mycnf": audit.stored_mycnf,
            "findings": audit.findings,
            "diff": audit.diff,
            "files": audit.files,
            "changes": audit.changes,
        }


def test_a_batch_runs_its_audits_and_an_unchanged_reaudit_refers_to_the_first(
    organization: OrganizationHandle,
) -> None:
    """The second and third audits of an unchanged server store no copy: both name the first."""
    first = queued_audit(organization)
    report = run_audit_batch(first.audit_id)
    assert (report.succeeded, report.failed) == (1, 0)
    original = _stored(first.audit_id)
    assert original["status"] == "succeeded" and original["stored_findings"] and original["result_of"] is None

    second, third = _queue(organization, first.server_id), _queue(organization, first.server_id)
    run_audit_batch(second)
    run_audit_batch(third)
    for audit_id in (second, third):
        again = _stored(audit_id)
        assert again["status"] == "succeeded"
        assert again["result_of"] == first.audit_id  # never a chain of references
        assert again["stored_findings"] is None and again["stored_mycnf"] is None
        assert (again["findings"], again["diff"], again["files"]) == (
            original["findings"],
            original["diff"],
            original["files"],
        )
        assert again["changes"]["new"] == [] and again["changes"]["resolved"] == []


def test_a_batch_skips_finished_and_unknown_audits(organization: OrganizationHandle) -> None:
    queued = queued_audit(organization)
    assert run_audit_batch(queued.audit_id, "no-such-audit").succeeded == 1
    again = run_audit_batch(queued.audit_id)  # a re-delivered batch: already finished
    assert (again.succeeded, again.skipped) == (0, 1)


def test_a_bad_snapshot_fails_its_audit_not_the_batch(organization: OrganizationHandle) -> None:
    """A snapshot that no longer parses (stored before a parser got stricter, say) fails its audit."""
    good = queued_audit(organization)
    broken = queued_audit(organization)
    with unit_of_work() as session:
        snapshot = session.get(Snapshot, broken.snapshot_id)
        assert snapshot is not None
        snapshot.inputs = {**snapshot.inputs, "variables": "not a dump at all\n"}
        snapshot.prepared = None  # stored before prepared forms: the texts are parsed
    bad = broken.audit_id
    report = run_audit_batch(good.audit_id, bad)
    assert (report.succeeded, report.failed) == (1, 1)
    with unit_of_work() as session:
        failed = session.get(Audit, bad)
        assert failed is not None and failed.status == "failed" and failed.error


def _mangle_texts(snapshot_id: str, fingerprint_of_another_parser: bool) -> None:
    """Spoil the snapshot's stored variables text; optionally make its prepared form another parser's."""
    with unit_of_work() as session:
        snapshot = session.get(Snapshot, snapshot_id)
        assert snapshot is not None and snapshot.prepared
        snapshot.inputs = {**snapshot.inputs, "variables": "not a dump at all\n"}
        if fingerprint_of_another_parser:
            rest, dumps = read_prepared_form(snapshot.prepared) or ({}, b"")
            snapshot.prepared = prepared_form(rest, bytes(16) + dumps[16:])


def test_a_batch_reads_the_dumps_parsed_at_upload_while_this_parser_wrote_them(
    organization: OrganizationHandle,
) -> None:
    """The texts are not read again while the prepared form is current; once another parser's, they are."""
    reference = queued_audit(organization)
    run_audit_batch(reference.audit_id)
    prepared, stale = queued_audit(organization), queued_audit(organization)
    _mangle_texts(prepared.snapshot_id, fingerprint_of_another_parser=False)
    _mangle_texts(stale.snapshot_id, fingerprint_of_another_parser=True)
    report = run_audit_batch(prepared.audit_id, stale.audit_id)
    assert (report.succeeded, report.failed) == (1, 1)
    from_prepared, from_texts = _stored(prepared.audit_id), _stored(stale.audit_id)
    assert from_prepared["status"] == "succeeded"
    assert from_prepared["findings"] == _stored(reference.audit_id)["findings"]
    assert from_texts["status"] == "failed"


def test_a_snapshot_without_a_current_prepared_form_gets_one_from_its_first_batch(
    organization: OrganizationHandle,
) -> None:
    """Stored before prepared forms (or by another parser): the batch parses its texts once and writes the
    form this parser reads, so the next re-audit does not parse them again; the results are the same."""
    reference = queued_audit(organization)
    run_audit_batch(reference.audit_id)
    stale = queued_audit(organization)
    with unit_of_work() as session:
        snapshot = session.get(Snapshot, stale.snapshot_id)
        assert snapshot is not None
        current = snapshot.prepared
        snapshot.prepared = None
    assert run_audit_batch(stale.audit_id).succeeded == 1
    with unit_of_work() as session:
        snapshot = session.get(Snapshot, stale.snapshot_id)
        assert snapshot is not None and snapshot.prepared == current
    assert _stored(stale.audit_id)["findings"] == _stored(reference.audit_id)["findings"]


def _row(
    audit_id: str, status: str = "succeeded", changed: bool = False, result_of: str | None = None
) -> Any:
    changes = {"new": ["rule|x"] if changed else [], "resolved": []}
    return SimpleNamespace(id=audit_id, status=status, changes=changes, result_of=result_of)


def test_retention_keeps_the_newest_changes_unfinished_and_referenced_audits() -> None:
    """Newest first: keep 2; a change of findings, a running audit and a referenced copy stay too."""
    audits = [
        _row("a9", result_of="a3"),
        _row("a8", result_of="a3"),
        _row("a7", status="running"),
        _row("a6", result_of="a3"),
        _row("a5", changed=True),
        _row("a4", status="failed"),
        _row("a3"),  # the copy a9 and a8 refer to
        _row("a2"),
        SimpleNamespace(id="a1", status="succeeded", changes=None, result_of=None),  # the first audit
    ]
    assert audits_to_delete(audits, keep=2) == ["a6", "a4", "a2"]


def test_drift_and_history_answer_the_same_after_pruning(organization: OrganizationHandle) -> None:
    """Six audits (unchanged, then a typo appears, then unchanged): pruning to 2 keeps drift's two
    audits and every change of findings in the history."""
    first = queued_audit(organization)
    server_id = first.server_id
    run_audit_batch(first.audit_id)
    for _ in range(3):
        run_audit_batch(_queue(organization, server_id))
    with unit_of_work() as session:
        ingest_snapshot(session, organization.id, server_id, small_upload())
    changed = _queue(organization, server_id)
    run_audit_batch(changed)
    latest = _queue(organization, server_id)
    run_audit_batch(latest)

    with unit_of_work() as session:
        drift_before = server_drift(session, organization.id, server_id)
        _, history_before = server_history(session, organization.id, server_id)
        ids_before = [audit.id for audit in history_before]
    assert len(ids_before) == 6

    report = prune_audits(2)
    assert report.deleted >= 3

    with unit_of_work() as session:
        assert server_drift(session, organization.id, server_id) == drift_before
        _, history_after = server_history(session, organization.id, server_id)
        assert [audit.id for audit in history_after] == [latest, changed, first.audit_id]
        assert all(audit.findings for audit in history_after)  # references still read their copy
        left = session.scalars(select(Audit.id).where(Audit.server_id == server_id)).all()
    assert sorted(left) == sorted([latest, changed, first.audit_id])


def test_the_result_hash_is_the_one_json_dumps_gave_so_stored_hashes_still_match() -> None:
    """The result hash (msgspec) is SHA-256 of the canonical JSON json.dumps wrote before: an unchanged
    re-audit still refers to an audit stored before the change, escapes and non-ASCII text included."""
    import hashlib
    import json

    from advisor.audit import AuditInputs, run_audit
    from services.audits.results import result_hash
    from store.models import RESULT_ATTRIBUTES

    upload = small_upload('[mysqld]\n# été \u2028 "quoted" \\ back\ninnodb_bufer_pool_size = 128M\n')
    result = run_audit(AuditInputs(mycnf=upload.mycnf, variables=upload.variables)).to_dict()
    assert result["findings"] and "été" in result["mycnf"]
    canonical = json.dumps(
        {name: result.get(name) for name in RESULT_ATTRIBUTES},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    )
    assert result_hash(result) == hashlib.sha256(canonical.encode("utf-8")).hexdigest()
