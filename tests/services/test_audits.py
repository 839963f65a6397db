"""Audits: submission against the latest snapshot, idempotency keys, one-shot analyze, listing."""

from __future__ import annotations

import pytest

from services.audits import analyze, audit_as_dict, get_audit, list_audits, submit_audit
from services.errors import Conflict, InvalidInput, NotFound
from services.servers import ServerFields, create_server
from services.snapshots import get_snapshot, ingest_snapshot
from store.db import unit_of_work
from tests.corpus import corpus_file
from tests.fixtures.service_data import SANDBOX_MYCNF, OrganizationHandle, sysbench_upload


def _server_with_snapshots(organization: OrganizationHandle, count: int = 1) -> tuple[str, list[str]]:
    with unit_of_work() as session:
        server = create_server(session, organization.id, ServerFields(name="db", role="primary"))
        snapshots = [
            ingest_snapshot(session, organization.id, server.id, sysbench_upload()).id for _ in range(count)
        ]
        return server.id, snapshots


def _submit(organization: OrganizationHandle, server_id: str, **options: object):  # type: ignore[no-untyped-def]
    arguments: dict[str, object] = {
        "snapshot_id": None,
        "callback_url": None,
        "idempotency_key": None,
        "request_hash": None,
    }
    arguments.update(options)
    with unit_of_work() as session:
        audit, created = submit_audit(session, organization.id, server_id=server_id, **arguments)  # type: ignore[arg-type]
        return audit.id, created, audit.snapshot_id, audit.status, dict(audit.parameters)


def test_submit_queues_an_audit_of_the_latest_snapshot(organization: OrganizationHandle) -> None:
    """Without a snapshot id the latest snapshot is audited; the audit is queued with the server's facts."""
    server_id, snapshots = _server_with_snapshots(organization, count=2)
    audit_id, created, snapshot_id, status, parameters = _submit(organization, server_id)
    assert created and status == "queued" and snapshot_id == snapshots[-1]
    assert parameters == {
        "server_version": None,
        "role": "primary",
        "profile": "production",
        "hardware": None,
    }
    audit_id2, _, snapshot_id2, _, _ = _submit(organization, server_id, snapshot_id=snapshots[0])
    assert snapshot_id2 == snapshots[0] and audit_id2 != audit_id


def test_submit_without_any_snapshot_is_invalid(organization: OrganizationHandle) -> None:
    """A server with nothing uploaded cannot be audited yet."""
    with unit_of_work() as session:
        server_id = create_server(session, organization.id, ServerFields(name="empty")).id
    with pytest.raises(InvalidInput, match="no snapshot"):
        _submit(organization, server_id)


def test_idempotency_key_replays_and_conflicts(organization: OrganizationHandle) -> None:
    """The same key and body return the first audit; the same key with another body is a Conflict."""
    server_id, _ = _server_with_snapshots(organization)
    first = _submit(organization, server_id, idempotency_key="retry-1", request_hash="a" * 64)
    again = _submit(organization, server_id, idempotency_key="retry-1", request_hash="a" * 64)
    assert first[1] is True and again[1] is False and again[0] == first[0]
    with pytest.raises(Conflict):
        _submit(organization, server_id, idempotency_key="retry-1", request_hash="b" * 64)


def test_idempotency_keys_are_per_organisation(
    organization: OrganizationHandle, other_organization: OrganizationHandle
) -> None:
    """Two organisations using the same key get their own audits."""
    server_id, _ = _server_with_snapshots(organization)
    other_server_id, _ = _server_with_snapshots(other_organization)
    mine = _submit(organization, server_id, idempotency_key="same")
    theirs = _submit(other_organization, other_server_id, idempotency_key="same")
    assert mine[1] and theirs[1] and mine[0] != theirs[0]


def test_scoping(organization: OrganizationHandle, other_organization: OrganizationHandle) -> None:
    """Another organisation's server, snapshot and audit are NotFound."""
    server_id, snapshots = _server_with_snapshots(organization)
    audit_id = _submit(organization, server_id)[0]
    other_server, _ = _server_with_snapshots(other_organization)
    with pytest.raises(NotFound):
        _submit(other_organization, server_id)
    with pytest.raises(NotFound):
        _submit(other_organization, other_server, snapshot_id=snapshots[0])
    with unit_of_work() as session, pytest.raises(NotFound):
        get_audit(session, other_organization.id, audit_id)


def test_callback_url_must_be_http(organization: OrganizationHandle) -> None:
    """A callback URL that is not http(s) is refused."""
    server_id, _ = _server_with_snapshots(organization)
    for url in ("ftp://example.com/x", "not a url", "http://"):
        with pytest.raises(InvalidInput, match="callback_url"):
            _submit(organization, server_id, callback_url=url)


def test_analyze_stores_a_serverless_snapshot_and_a_queued_audit(organization: OrganizationHandle) -> None:
    """A one-shot audit has no server; its parameters are kept; its option file is redacted."""
    upload = sysbench_upload(mycnf={"my.cnf": corpus_file(SANDBOX_MYCNF).read_text()})
    parameters = {"role": "replica", "memory": "16G", "cpus": 4, "storage": "ssd"}
    with unit_of_work() as session:
        audit, created = analyze(
            session,
            organization.id,
            upload,
            parameters,
            callback_url=None,
            idempotency_key="k",
            request_hash="h",
        )
        assert created and audit.server_id is None and audit.status == "queued"
        assert audit.parameters == parameters
        audit_id, snapshot_id = audit.id, audit.snapshot_id
    with unit_of_work() as session:
        snapshot = get_snapshot(session, organization.id, snapshot_id)
        assert snapshot.server_id is None
        assert "password = [REDACTED]" in snapshot.inputs["mycnf"]["my.cnf"]
        replay, created = analyze(
            session,
            organization.id,
            upload,
            parameters,
            callback_url=None,
            idempotency_key="k",
            request_hash="h",
        )
        assert not created and replay.id == audit_id


@pytest.mark.parametrize(
    ("parameters", "extra", "words"),
    [
        ({"colour": "red"}, {}, "unknown parameter"),
        ({"role": "boss"}, {}, "role"),
        ({"cpus": "four"}, {}, "cpus"),
        ({"memory": "lots"}, {}, "not a size"),
        (
            {"storage": "ssd"},
            {"hardware": '{"memory": "16G", "cpus": "many"}'},
            "hardware.json:1: `cpus`: expected",
        ),
    ],
)
def test_analyze_refuses_bad_parameters(
    organization: OrganizationHandle, parameters: dict[str, object], extra: dict[str, object], words: str
) -> None:
    """Unknown or malformed parameters are InvalidInput saying what is wrong."""
    with unit_of_work() as session, pytest.raises(InvalidInput) as caught:
        analyze(
            session,
            organization.id,
            sysbench_upload(**extra),
            parameters,
            callback_url=None,
            idempotency_key=None,
            request_hash=None,
        )
    assert words in caught.value.detail


def test_list_filters_and_pages(organization: OrganizationHandle) -> None:
    """Listing pages through the organisation's audits oldest first and filters by server and status."""
    server_id, _ = _server_with_snapshots(organization)
    ids = [_submit(organization, server_id)[0] for _ in range(5)]
    with unit_of_work() as session:
        page1 = list_audits(
            session, organization.id, server_id=None, status=None, severity=None, cursor=None, limit=3
        )
        page2 = list_audits(
            session,
            organization.id,
            server_id=None,
            status=None,
            severity=None,
            cursor=page1.next_cursor,
            limit=3,
        )
        assert [a.id for a in page1.items + page2.items] == ids and page2.next_cursor is None
        queued = list_audits(
            session,
            organization.id,
            server_id=server_id,
            status="queued",
            severity=None,
            cursor=None,
            limit=50,
        )
        assert len(queued.items) == 5
        done = list_audits(
            session, organization.id, server_id=None, status="succeeded", severity=None, cursor=None, limit=50
        )
        assert done.items == []
        with pytest.raises(InvalidInput):
            list_audits(
                session, organization.id, server_id=None, status="done", severity=None, cursor=None, limit=5
            )


def test_audit_as_dict_shape(organization: OrganizationHandle) -> None:
    """A queued audit's resource has the contract's fields and links."""
    server_id, _ = _server_with_snapshots(organization)
    audit_id = _submit(organization, server_id)[0]
    with unit_of_work() as session:
        resource = audit_as_dict(get_audit(session, organization.id, audit_id))
    expected = {"id", "status", "server_id", "snapshot_id", "created_at", "started_at", "finished_at"}
    expected |= {"duration_ms", "worst_severity", "server", "findings", "warnings", "error", "links"}
    assert expected <= set(resource)
    assert resource["status"] == "queued" and resource["duration_ms"] is None and resource["findings"] == []
    assert resource["links"]["self"] == f"/v1/audits/{audit_id}"
    assert resource["created_at"].endswith("+00:00")
