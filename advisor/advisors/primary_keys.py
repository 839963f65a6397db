"""Primary keys: InnoDB tables without one (hidden row id), random UUID-like keys, and the server guard
that refuses new keyless tables — from the schema facts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.findings import Evidence, Severity
from advisor.model import Role
from advisor.patterns import lazy
from advisor.references import MARIADB_INNODB_VARIABLES, MYSQL_REPLICA_OPTIONS, MYSQL_SERVER_VARIABLES
from advisor.rules import Proposal, Versions, rule
from advisor.units import format_size

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.schema import TableFacts

CLUSTERED_INDEX = "https://dev.mysql.com/doc/refman/8.0/en/innodb-index-types.html"
PERCONA_NO_PK = (
    "https://www.percona.com/blog/2013/10/18/innodb-scalability-issues-tables-without-primary-keys/"
)
JCOLE_NO_PK = "https://blog.jcole.us/2013/05/02/how-does-innodb-behave-without-a-primary-key/"
GIPK = "https://dev.mysql.com/doc/refman/8.0/en/create-table-gipks.html"
ROWS_SEARCH = f"{MYSQL_REPLICA_OPTIONS}#sysvar_replica_rows_search_algorithms"
UUID_TO_BIN = "https://dev.mysql.com/doc/refman/8.0/en/miscellaneous-functions.html#function_uuid-to-bin"
MARIADB_UUID = "https://mariadb.com/kb/en/uuid-data-type/"
REQUIRE_PK = f"{MYSQL_SERVER_VARIABLES}#sysvar_sql_require_primary_key"
FORCE_PK = f"{MARIADB_INNODB_VARIABLES}#innodb_force_primary_key"

# A single-column key of 36 characters (text UUID), 32 (UUID without dashes) or 16 bytes (binary UUID).
_UUID_LIKE: Final = lazy(r"\s*(?:(?:var)?char\s*\(\s*3[26]\s*\)|(?:var)?binary\s*\(\s*16\s*\))", re.I)
_SCHEMA_SOURCE = "schema facts"


def _size(table: TableFacts) -> str:
    rows = f"{table.rows:,} rows" if table.rows is not None else "rows unknown"
    return f"{rows}, {format_size(table.total_bytes)}" if table.total_bytes else rows


def _listed(ctx: AuditContext, tables: tuple[TableFacts, ...] | list[TableFacts]) -> tuple[str, str]:
    """`a.b (1,000 rows, 16M), ...` for the first N tables, and `(and 3 more)`."""
    limit = ctx.thresholds.primary_keys.max_tables_listed
    names = ", ".join(f"{t.schema}.{t.table} ({_size(t)})" for t in tables[:limit])
    more = f" (and {len(tables) - limit} more)" if len(tables) > limit else ""
    return names, more


@rule(
    "primary_keys.missing",
    Severity.NOTICE,
    [CLUSTERED_INDEX, PERCONA_NO_PK, JCOLE_NO_PK, ROWS_SEARCH, GIPK],
    needs=("schema",),
)
def missing(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: InnoDB tables with neither a primary key nor a unique key on NOT NULL columns,
    largest (by rows) first, up to ten named with the total.

    Why it matters: InnoDB then clusters the rows on a hidden 6-byte row id (DB_ROW_ID) drawn from a
    single counter shared by every such table in the server; MySQL hands it out under the data-dictionary
    mutex, so inserts into any of these tables contend with each other. Row-based replication is worse
    off: a replica finds the row of each UPDATE or DELETE event without a key, so one statement touching
    many rows becomes a scan per row and replication lag grows by hours. Group Replication and online
    schema-change tools need a key as well.

    What we recommend: give each table a primary key — an existing NOT NULL unique column set, or an
    AUTO_INCREMENT BIGINT UNSIGNED surrogate (on MySQL 8.0.23+ it can be an INVISIBLE column, so
    `SELECT *` output stays the same).

    Caveats: warning on a replication primary or replica, notice on a standalone server; the ranking
    uses row counts because insert activity per table is not in the inputs; InnoDB row counts are
    estimates.
    """
    if ctx.schema is None:
        return
    keyless = ctx.schema.tables_without_key()
    if not keyless:
        return
    names, more = _listed(ctx, keyless)
    total_rows = sum(t.rows or 0 for t in keyless)
    replicated = ctx.role in (Role.PRIMARY, Role.REPLICA)
    yield Proposal(
        title=f"{len(keyless)} InnoDB table(s) without a primary key",
        rationale=f"{names}{more}: {total_rows:,} rows in all are clustered on InnoDB's hidden row id, one "
        "server-wide counter that every insert into these tables must take in turn; "
        + (
            f"on this {ctx.role} each row-based UPDATE or DELETE is applied on replicas by searching the table "
            "without a key, which is how replicas fall hours behind."
            if replicated
            else "any replica added later would apply their row changes by searching without a key."
        )
        + " Add a primary key (an AUTO_INCREMENT BIGINT UNSIGNED column if nothing in the data is unique).",
        evidence=tuple(
            Evidence(f"{t.schema}.{t.table}", _size(t), _SCHEMA_SOURCE)
            for t in keyless[: ctx.thresholds.primary_keys.max_tables_listed]
        ),
        severity=Severity.WARNING if replicated else None,
    )


@rule(
    "primary_keys.random_key",
    Severity.NOTICE,
    [CLUSTERED_INDEX, UUID_TO_BIN, MARIADB_UUID],
    needs=("schema",),
)
def random_key(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: large InnoDB tables (100,000 rows or more) whose single-column primary key is
    UUID-like: CHAR/VARCHAR(36) or (32), or (VAR)BINARY(16).

    Why it matters: InnoDB stores rows in primary-key order; random keys (UUID version 4) land anywhere,
    so every insert touches a random leaf page, pages split and end up half full, and the working set
    stops fitting in the buffer pool. The key is also copied into every secondary index: 36 characters
    make them several times larger than an 8-byte integer would.

    What we recommend: time-ordered keys — UUID_TO_BIN(UUID(), 1) in a BINARY(16) on MySQL 8.0 (the
    swap flag puts the time part of a version-1 UUID first), version-7 UUIDs from the application, or an
    AUTO_INCREMENT surrogate primary key with the UUID kept as a secondary unique key. MariaDB 10.7+ has
    a UUID data type that stores version-1 UUIDs in time order.

    Caveats: the type only suggests a UUID; keys that are already time-ordered (version 1 swapped,
    version 7, ULID) do not have the problem.
    """
    if ctx.schema is None:
        return
    floor = ctx.thresholds.primary_keys.random_key_min_rows
    found = [
        t
        for t in ctx.schema.tables
        if t.is_innodb
        and t.primary_key_type
        and _UUID_LIKE().fullmatch(t.primary_key_type)
        and (t.rows or 0) >= floor
    ]
    if not found:
        return
    found.sort(key=lambda t: -(t.rows or 0))
    names, more = _listed(ctx, found)
    hint = (
        " (UUID_TO_BIN(UUID(), 1) into BINARY(16))"
        if ctx.version.is_mysql_family and ctx.version.at_least(8)
        else ""
    )
    yield Proposal(
        title=f"{len(found)} large table(s) keyed on UUID-like values",
        rationale=f"{names}{more}. If the keys are random UUIDs every insert lands on a random page of the "
        "clustered index: page splits, half-empty pages and a working set that outgrows the buffer pool. "
        f"Prefer time-ordered keys{hint} or an AUTO_INCREMENT primary key with the UUID as a unique key.",
        evidence=tuple(
            Evidence(f"{t.schema}.{t.table} primary key", f"{t.primary_key_type}, {_size(t)}", _SCHEMA_SOURCE)
            for t in found[: ctx.thresholds.primary_keys.max_tables_listed]
        ),
    )


def _guard(ctx: AuditContext) -> str:
    return "innodb_force_primary_key" if ctx.version.is_mariadb else "sql_require_primary_key"


@rule(
    "primary_keys.require_guard",
    Severity.INFO,
    [REQUIRE_PK, FORCE_PK, GIPK],
    versions=Versions(mysql=((8, 0, 13), (99,)), mariadb=((10, 1), (99,))),
    needs=("schema",),
)
def require_guard(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: whether the server refuses new tables without a primary key
    (sql_require_primary_key, MySQL 8.0.13+; innodb_force_primary_key, MariaDB 10.1+), asked only when
    keyless tables exist.

    Why it matters: fixing today's keyless tables does not stop the next migration from creating one;
    the guard makes CREATE TABLE (and ALTER TABLE dropping the key) fail instead.

    What we recommend: once the existing tables have keys, turn the guard on — after checking that the
    application's migrations and tools define keys. On MySQL 8.0.30+ sql_generate_invisible_primary_key
    is the gentler alternative: it adds an invisible auto-increment key to new keyless tables.

    Caveats: information only, nothing is written to the option file: turning the guard on can break
    deployments that create keyless tables; quiet when the inputs show it on.
    """
    if ctx.schema is None or not ctx.schema.tables_without_key():
        return
    name = _guard(ctx)
    setting = ctx.config.get(name)
    if setting is not None and ctx.config.flag(name):
        return
    gentler = (
        " sql_generate_invisible_primary_key = ON is the gentler choice: it adds an invisible key instead."
        if ctx.version.is_mysql_family and ctx.version.at_least(8, 0, 30)
        else ""
    )
    yield Proposal(
        title=f"Consider {name} once the existing tables have keys",
        rationale=f"Keyless tables exist, and nothing stops new ones: with {name} = ON the server refuses "
        f"to create a table without a primary key.{gentler} Check the application's migrations first.",
        evidence=(
            Evidence(
                name, setting.value if setting else "OFF (default)", setting.where() if setting else "default"
            ),
        ),
    )


RULES = (missing, random_key, require_guard)
