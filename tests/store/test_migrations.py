"""Alembic migrations go up, all the way down, and up again on the real PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, inspect
from sqlalchemy.engine import make_url

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


def test_0011_keeps_snapshot_inputs_as_json_with_their_content_and_goes_back(scratch_database: str) -> None:
    """0011 turns snapshots.inputs from jsonb into json and back, keeping a stored snapshot's inputs."""
    from sqlalchemy import text

    upgrade(scratch_database, "0010_audits_unfinished_index")
    inputs = '{"mycnf": {"/etc/my.cnf": "[mysqld]\\n\\tx = 1\\n"}, "status": ["a\\tb"], "variables": null}'
    engine = create_engine(scratch_database)
    try:
        with engine.begin() as connection:
            connection.execute(
                text("INSERT INTO organizations (id, name, created_at) VALUES ('o', 'o', now())")
            )
            connection.execute(
                text(
                    "INSERT INTO snapshots (id, organization_id, inputs, content_hash, warnings, created_at)"
                    " VALUES ('s', 'o', CAST(:inputs AS jsonb), 'h', '[]', now())"
                ),
                {"inputs": inputs},
            )
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
