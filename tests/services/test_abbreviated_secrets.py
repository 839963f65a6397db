"""A secret under an abbreviated name (`passw`, `file_key_management_filek`) never reaches PostgreSQL.

The mariadb client logs in with `[client] passw = ...` and mariadbd reads `file_key_management_filek`
as the file key: the snapshot row keeps the line with `[REDACTED]`, and the audit row (findings,
diff, recommended my.cnf) holds neither value.
"""

from __future__ import annotations

import pytest
from sqlalchemy import text

from services.audits import submit_audit
from services.audits.runs import execute_audit
from services.servers import ServerFields, create_server
from services.snapshots import ingest_snapshot
from store.db import unit_of_work
from tests.fixtures.service_data import OrganizationHandle, sysbench_upload

pytestmark = pytest.mark.service

SECRETS = ("Hunter2Client", "Hunter2Dump", "S3cretA", "SstPw9")
MYCNF = (
    "[client]\npassw = Hunter2Client\n"
    "[mysqldump]\nloose-passwo = 'Hunter2Dump'\n"
    "[mysqld]\ninnodb_buffer_pool_size = 128M\n"
    "file_key_management_filek = S3cretA\n"  # key plugin not loaded: refused, commented out
    "wsrep-sst-a = sst:SstPw9\n"
)


def _row(sql: str, row_id: str) -> str:
    with unit_of_work() as session:
        (raw,) = session.execute(text(sql), {"id": row_id}).one()
    assert isinstance(raw, str)
    return raw


def test_abbreviated_secrets_are_in_neither_the_snapshot_nor_the_audit_row(
    organization: OrganizationHandle,
) -> None:
    with unit_of_work() as session:
        server = create_server(session, organization.id, ServerFields(name="db-abbreviated"))
        upload = sysbench_upload(mycnf={"/etc/mysql/my.cnf": MYCNF})
        snapshot_id = ingest_snapshot(session, organization.id, server.id, upload).id
        audit, _ = submit_audit(
            session,
            organization.id,
            server_id=server.id,
            snapshot_id=None,
            callback_url=None,
            idempotency_key=None,
            request_hash=None,
        )
        audit_id = audit.id
    with unit_of_work() as session:
        execute_audit(session, audit_id)

    snapshot = _row("SELECT inputs::text FROM snapshots WHERE id = :id", snapshot_id)
    assert not [secret for secret in SECRETS if secret in snapshot]
    for line in (
        "passw = [REDACTED]",
        "loose-passwo = '[REDACTED]'",
        "file_key_management_filek = [REDACTED]",
        "wsrep-sst-a = sst:[REDACTED]",
    ):
        assert line in snapshot

    stored = _row("SELECT row_to_json(audits)::text FROM audits WHERE id = :id", audit_id)
    assert '"status":"succeeded"' in stored
    assert not [secret for secret in SECRETS if secret in stored]
    assert "file_key_management_filek" in stored  # the refused line is still reported, by name
    mycnf = _row("SELECT mycnf FROM audits WHERE id = :id", audit_id)
    assert "[REDACTED]" not in mycnf and "a line holding a secret is kept out of this copy" in mycnf
