"""The database engine and session factory, built once per process from the settings."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import msgspec
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

from conf.settings import get_settings


def _sqlite_file(url: str) -> Path | None:
    prefix = "sqlite:///"
    if url.startswith(prefix) and url != "sqlite:///:memory:":
        return Path(url[len(prefix) :])
    return None


def build_engine(url: str) -> Engine:
    """Create an engine; SQLite gets its directory created, WAL and foreign keys switched on."""
    if (path := _sqlite_file(url)) is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):  # type: ignore[no-untyped-def]
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

        return engine
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=10,
        max_overflow=10,
        # msgspec's JSON codec for json/jsonb columns: a fleet batch writes ~20 KB of findings, files
        # and drift per audit and reads ~100 KB of snapshot inputs, and json.dumps/loads were half the
        # Python cost of storing it. Same text for JSON values (bytes go to psycopg as they are).
        json_serializer=msgspec.json.encode,
        json_deserializer=msgspec.json.decode,
    )


@lru_cache(maxsize=1)
def get_engine() -> Engine:
    """The process's engine for the configured DATABASE_URL."""
    return build_engine(get_settings().database_url)


@lru_cache(maxsize=1)
def get_sessionmaker() -> sessionmaker[Session]:
    return sessionmaker(bind=get_engine(), expire_on_commit=False)


@contextmanager
def unit_of_work() -> Iterator[Session]:
    """A session that commits when the block ends cleanly and rolls back otherwise."""
    session = get_sessionmaker()()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def ping_database(engine: Engine | None = None) -> None:
    """Raise when the database cannot answer a trivial query."""
    with (engine or get_engine()).connect() as connection:
        connection.execute(text("SELECT 1"))


def dispose_engine() -> None:
    """Close the process's pooled connections and forget the engine (after a fork or a settings change)."""
    if get_engine.cache_info().currsize:
        get_engine().dispose()
    get_engine.cache_clear()
    get_sessionmaker.cache_clear()
