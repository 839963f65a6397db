"""Run Alembic migrations programmatically (used by `innotune migrate`, the tests and the benchmarks).

It lives beside the migrations it runs: `store` stays below them (the migrations import the models).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

SCRIPT_LOCATION = Path(__file__).resolve().parent


def alembic_config(database_url: str) -> Config:
    """An Alembic config pointing at our migrations package and the given database."""
    config = Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    config.attributes["configure_logging"] = False
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str = "base") -> None:
    command.downgrade(alembic_config(database_url), revision)
