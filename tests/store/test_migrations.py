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
