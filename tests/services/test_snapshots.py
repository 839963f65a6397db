"""Snapshots: limits, validation errors naming file and line, redaction before storage, learning."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from services.errors import InvalidInput, NotFound, TooLarge
from services.servers import ServerFields, create_server, get_server
from services.snapshots import LIMITS, get_snapshot, ingest_snapshot, list_snapshots
from store.db import unit_of_work
from tests.corpus import corpus_file
from tests.fixtures.service_data import SANDBOX_MYCNF, OrganizationHandle, sysbench_upload


def _server(organization: OrganizationHandle, **fields: object) -> str:
    with unit_of_work() as session:
        return create_server(session, organization.id, ServerFields(name="db", **fields)).id  # type: ignore[arg-type]


def test_password_is_redacted_before_it_is_stored(organization: OrganizationHandle) -> None:
    """The row read back from PostgreSQL has `[REDACTED]` where the sandbox my.cnf had its password."""
    server_id = _server(organization)
    original = corpus_file(SANDBOX_MYCNF).read_text()
    assert "password = msandbox" in original
    with unit_of_work() as session:
        snapshot_id = ingest_snapshot(session, organization.id, server_id, sysbench_upload()).id
    with unit_of_work() as session:
        (raw,) = session.execute(
            text("SELECT inputs::text FROM snapshots WHERE id = :id"), {"id": snapshot_id}
        ).one()
    assert "password = msandbox" not in raw and "password = [REDACTED]" in raw
    with unit_of_work() as session:
        stored = get_snapshot(session, organization.id, snapshot_id).inputs["mycnf"]["/etc/mysql/my.cnf"]
    assert stored == original.replace("password = msandbox", "password = [REDACTED]")


def test_misspelt_secret_options_are_redacted_before_they_are_stored(
    organization: OrganizationHandle,
) -> None:
    """`pasword = ...` and `wsrep_sst_auht = user:...` mean a password: the row read back from PostgreSQL
    holds neither value (the server refuses those lines, but the user typed a real secret)."""
    server_id = _server(organization)
    typed = (
        "[mysqld]\ninnodb_buffer_pool_size = 1G\npasword = hunter2x\nwsrep_sst_auht = sst:s3cretpw\n"
        "old_passwords = 0\n[client]\nmaster_pasword = 'cl13nt'\n"
    )
    upload = sysbench_upload(mycnf={"/etc/mysql/my.cnf": typed})
    with unit_of_work() as session:
        snapshot_id = ingest_snapshot(session, organization.id, server_id, upload).id
    with unit_of_work() as session:
        (raw,) = session.execute(
            text("SELECT inputs::text FROM snapshots WHERE id = :id"), {"id": snapshot_id}
        ).one()
    assert not [secret for secret in ("hunter2x", "s3cretpw", "cl13nt") if secret in raw]
    with unit_of_work() as session:
        stored = get_snapshot(session, organization.id, snapshot_id).inputs["mycnf"]["/etc/mysql/my.cnf"]
    assert stored == (
        "[mysqld]\ninnodb_buffer_pool_size = 1G\npasword = [REDACTED]\nwsrep_sst_auht = sst:[REDACTED]\n"
        "old_passwords = 0\n[client]\nmaster_pasword = '[REDACTED]'\n"
    )


def test_error_names_file_and_line_and_never_quotes_a_secret(organization: OrganizationHandle) -> None:
    """A bad line is reported as file and line; a password on it is redacted in the message too."""
    server_id = _server(organization)
    bad = "[mysqld]\ninnodb_buffer_pool_size = 1G\nnot an option: password hunter2\n"
    with unit_of_work() as session, pytest.raises(InvalidInput) as caught:
        ingest_snapshot(session, organization.id, server_id, sysbench_upload(mycnf={"conf.d/bad.cnf": bad}))
    assert (caught.value.file, caught.value.line) == ("conf.d/bad.cnf", 3)
    assert caught.value.detail.startswith("conf.d/bad.cnf:3: ")
    assert "hunter2" not in caught.value.detail


def test_bad_variables_dump_names_its_file(organization: OrganizationHandle) -> None:
    """An InnoDB status upload given as variables is refused naming the variables file."""
    server_id = _server(organization)
    upload = sysbench_upload(variables="this is not a variables dump\n", variables_name="vars.txt")
    with unit_of_work() as session, pytest.raises(InvalidInput) as caught:
        ingest_snapshot(session, organization.id, server_id, upload)
    assert caught.value.file == "vars.txt"


def test_limits_are_413(organization: OrganizationHandle) -> None:
    """Over 2 MiB in one file, or over 16 files, is TooLarge; exactly 2 MiB of ASCII is fine for the limit."""
    server_id = _server(organization)
    comment_line = "# " + "x" * 97 + "\n"
    at_limit = "[mysqld]\n" + comment_line * ((LIMITS.max_file_bytes - 9) // 100)
    at_limit += "#" * (LIMITS.max_file_bytes - len(at_limit.encode()))
    assert len(at_limit.encode()) == LIMITS.max_file_bytes
    with unit_of_work() as session:
        ingest_snapshot(session, organization.id, server_id, sysbench_upload(mycnf={"big.cnf": at_limit}))
        with pytest.raises(TooLarge) as caught:
            ingest_snapshot(
                session, organization.id, server_id, sysbench_upload(mycnf={"big.cnf": at_limit + "é"})
            )
        assert "big.cnf" in caught.value.detail
        many = {f"conf.d/{i}.cnf": "[mysqld]\n" for i in range(14)}  # + variables, status, innodb status
        with pytest.raises(TooLarge):
            ingest_snapshot(session, organization.id, server_id, sysbench_upload(mycnf=many))
        with pytest.raises(InvalidInput):
            ingest_snapshot(session, organization.id, server_id, sysbench_upload(status=["a", "b", "c"]))


def test_version_and_flavor_are_learned_onto_a_bare_server(organization: OrganizationHandle) -> None:
    """The dump's MariaDB 10.11 becomes the server's flavor and version when it had none."""
    server_id = _server(organization)
    with unit_of_work() as session:
        snapshot = ingest_snapshot(session, organization.id, server_id, sysbench_upload())
        assert snapshot.server_version == "10.11.19-MariaDB-0+deb12u1"
    with unit_of_work() as session:
        server = get_server(session, organization.id, server_id)
        assert (server.flavor, server.version) == ("mariadb", "10.11.19-MariaDB-0+deb12u1")


def test_option_file_alone_uses_the_servers_version(organization: OrganizationHandle) -> None:
    """Without a variables dump the server's declared version reads the file; without one it is refused."""
    bare = _server(organization)
    mycnf = {"my.cnf": corpus_file(SANDBOX_MYCNF).read_text()}
    upload = sysbench_upload(mycnf=mycnf, variables=None, status=[], innodb_status=None)
    with unit_of_work() as session, pytest.raises(InvalidInput) as caught:
        ingest_snapshot(session, organization.id, bare, upload)
    assert "version is unknown" in caught.value.detail
    with unit_of_work() as session:
        versioned = create_server(
            session, organization.id, ServerFields(name="v", version="10.4.32-MariaDB")
        ).id
        snapshot = ingest_snapshot(session, organization.id, versioned, upload)
        assert snapshot.server_version == "10.4.32-MariaDB"


def test_same_upload_same_content_hash_and_listing(organization: OrganizationHandle) -> None:
    """Uploading the same texts twice gives the same content hash; both are listed oldest first."""
    server_id = _server(organization)
    with unit_of_work() as session:
        first = ingest_snapshot(session, organization.id, server_id, sysbench_upload())
        second = ingest_snapshot(session, organization.id, server_id, sysbench_upload())
        assert first.content_hash == second.content_hash and first.id != second.id
        page = list_snapshots(session, organization.id, server_id, cursor=None, limit=10)
        assert [s.id for s in page.items] == [first.id, second.id]


def test_another_organisations_snapshot_is_not_found(
    organization: OrganizationHandle, other_organization: OrganizationHandle
) -> None:
    """A snapshot, and the snapshot list of a server, are NotFound from another organisation."""
    server_id = _server(organization)
    with unit_of_work() as session:
        snapshot_id = ingest_snapshot(session, organization.id, server_id, sysbench_upload()).id
    with unit_of_work() as session:
        with pytest.raises(NotFound):
            get_snapshot(session, other_organization.id, snapshot_id)
        with pytest.raises(NotFound):
            list_snapshots(session, other_organization.id, server_id, cursor=None, limit=10)
        with pytest.raises(NotFound):
            ingest_snapshot(session, other_organization.id, server_id, sysbench_upload())
