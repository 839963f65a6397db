"""Alembic migrations go up, all the way down, and up again on the real PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, inspect
from sqlalchemy.engine import Connection, make_url

from migrations.commands import downgrade, upgrade
from store.base import Base
from tests.fixtures.real_services import RUN_ID, _admin_execute


@pytest.fixture
def scratch_database(postgres_admin_url: str) -> Iterator[str]:
    name = f"innotune_migr_{RUN_ID}"
    _admin_execute(postgres_admin_url, f'CREATE DATABASE "{name}"')
    try:
        yield make_url(postgres_admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        _admin_execute(postgres_admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_downgrade_upgrade(scratch_database: str) -> None:
    """head → base → head leaves exactly the models' tables, and base leaves none of them."""
    import store.models  # noqa: F401  (registers the tables)

    model_tables = set(Base.metadata.tables)
    upgrade(scratch_database)
    assert _tables(scratch_database) == model_tables | {"alembic_version"}
    downgrade(scratch_database, "base")
    assert _tables(scratch_database) & model_tables == set()
    upgrade(scratch_database)
    assert _tables(scratch_database) == model_tables | {"alembic_version"}


def test_models_match_the_migrations(migrated_postgres_url: str) -> None:
    """Autogenerate finds nothing to do: the migrations describe the models exactly."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    import store.models  # noqa: F401

    engine = create_engine(migrated_postgres_url)
    try:
        with engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    finally:
        engine.dispose()
    assert diff == []


def _audit_indexes(url: str) -> dict[str, str]:
    """name → definition of the audits table's indexes, as PostgreSQL prints them."""
    from sqlalchemy import text

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'audits'")
            ).all()
    finally:
        engine.dispose()
    return {name: definition for name, definition in rows}


def test_0010_indexes_only_unfinished_audits_for_the_sweeper_and_goes_back(scratch_database: str) -> None:
    """0010 replaces the index over every status with one over queued and running audits; its
    downgrade puts the old index back."""
    upgrade(scratch_database)
    indexes = _audit_indexes(scratch_database)
    assert "ix_audits_status_updated" not in indexes
    partial = indexes["ix_audits_unfinished_updated"]
    assert "(status, updated_at)" in partial and "WHERE" in partial and "'running'" in partial
    downgrade(scratch_database, "0009_server_role_source")
    indexes = _audit_indexes(scratch_database)
    assert "ix_audits_unfinished_updated" not in indexes
    assert "WHERE" not in indexes["ix_audits_status_updated"]
    upgrade(scratch_database)
    assert "ix_audits_unfinished_updated" in _audit_indexes(scratch_database)


def _inputs_type(url: str) -> str:
    from sqlalchemy import text

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return str(
                connection.execute(
                    text(
                        "SELECT data_type FROM information_schema.columns"
                        " WHERE table_name = 'snapshots' AND column_name = 'inputs'"
                    )
                ).scalar_one()
            )
    finally:
        engine.dispose()


def _organization_and_snapshot(connection: Connection, inputs: str) -> None:
    """Organisation 'o' with snapshot 's' holding `inputs` (JSON text), written as raw SQL: the models
    follow the newest migration, these tests stand at older ones."""
    from sqlalchemy import text

    connection.execute(text("INSERT INTO organizations (id, name, created_at) VALUES ('o', 'o', now())"))
    connection.execute(
        text(
            "INSERT INTO snapshots (id, organization_id, inputs, content_hash, warnings, created_at)"
            " VALUES ('s', 'o', CAST(:inputs AS jsonb), 'h', '[]', now())"
        ),
        {"inputs": inputs},
    )


def test_0011_keeps_snapshot_inputs_as_json_with_their_content_and_goes_back(scratch_database: str) -> None:
    """0011 turns snapshots.inputs from jsonb into json and back, keeping a stored snapshot's inputs."""
    from sqlalchemy import text

    upgrade(scratch_database, "0010_audits_unfinished_index")
    inputs = '{"mycnf": {"/etc/my.cnf": "[mysqld]\\n\\tx = 1\\n"}, "status": ["a\\tb"], "variables": null}'
    engine = create_engine(scratch_database)
    try:
        with engine.begin() as connection:
            _organization_and_snapshot(connection, inputs)
        assert _inputs_type(scratch_database) == "jsonb"
        upgrade(scratch_database)
        assert _inputs_type(scratch_database) == "json"
        with engine.connect() as connection:
            stored = connection.execute(text("SELECT inputs FROM snapshots WHERE id = 's'")).scalar_one()
        assert stored == {
            "mycnf": {"/etc/my.cnf": "[mysqld]\n\tx = 1\n"},
            "status": ["a\tb"],
            "variables": None,
        }
        downgrade(scratch_database, "0010_audits_unfinished_index")
        assert _inputs_type(scratch_database) == "jsonb"
        with engine.connect() as connection:
            assert (
                connection.execute(text("SELECT inputs FROM snapshots WHERE id = 's'")).scalar_one() == stored
            )
    finally:
        engine.dispose()


def test_0012_counts_an_existing_runs_finished_audits_and_goes_back(scratch_database: str) -> None:
    """0012 adds succeeded/failed to fleet_runs, filled from the run's audits; down drops them."""
    from sqlalchemy import text

    upgrade(scratch_database, "0011_snapshot_inputs_json")
    engine = create_engine(scratch_database)
    try:
        with engine.begin() as connection:
            _organization_and_snapshot(connection, "{}")
            connection.execute(
                text(
                    "INSERT INTO fleets (id, organization_id, name, schedule_interval_seconds, default_role,"
                    " default_profile, next_run_at, created_at)"
                    " VALUES ('f', 'o', 'f', 3600, 'standalone', 'production', now(), now())"
                )
            )
            for run in ("r1", "r2"):
                connection.execute(
                    text(
                        "INSERT INTO fleet_runs (id, organization_id, fleet_id, started_at, total, forced,"
                        " skipped_unchanged, skipped_no_snapshot, skipped_in_flight)"
                        " VALUES (:id, 'o', 'f', now(), 5, true, 0, 0, 0)"
                    ),
                    {"id": run},
                )
            statuses = ["succeeded", "succeeded", "failed", "running", "queued"]
            for number, status in enumerate(statuses):
                connection.execute(
                    text(
                        "INSERT INTO audits (id, organization_id, snapshot_id, fleet_run_id, status,"
                        " attempts, parameters, created_at, updated_at)"
                        " VALUES (:id, 'o', 's', 'r1', :status, 1, '{}', now(), now())"
                    ),
                    {"id": f"a{number}", "status": status},
                )
        upgrade(scratch_database, "0012_fleet_run_finished_counts")
        with engine.connect() as connection:
            counts = dict(
                connection.execute(
                    text("SELECT id, ARRAY[succeeded, failed] FROM fleet_runs ORDER BY id")
                ).all()
            )
        assert counts == {"r1": [2, 1], "r2": [0, 0]}
        downgrade(scratch_database, "0011_snapshot_inputs_json")
        columns = {column["name"] for column in inspect(engine).get_columns("fleet_runs")}
        assert "succeeded" not in columns and "failed" not in columns
    finally:
        engine.dispose()
