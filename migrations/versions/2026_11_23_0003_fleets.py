"""Fleets: scheduled re-audits, fleet runs for their progress, and what drift comparisons need.

`servers.fleet` (free text) becomes `servers.fleet_id`: one fleet per distinct name of each
organisation (re-audited daily), then the column goes. Audits gain their fleet run, the live-vs-file
drift, compact finding keys and the comparison with the previous audit; snapshots gain the live
values of the variables a fleet summary compares.

Revision ID: 0003_fleets
Revises: 0002_service
Create Date: 2026-11-23 22:00:00
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0003_fleets"
down_revision = "0002_service"
branch_labels = None
depends_on = None

#: a fleet made from an old free-text name is re-audited once a day until someone says otherwise.
MIGRATED_INTERVAL_SECONDS = 86400


def _json() -> sa.types.TypeEngine[object]:
    return sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def _create_fleet_tables() -> None:
    op.create_table(
        "fleets",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("organization_id", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("schedule_cron", sa.String(length=120), nullable=True),
        sa.Column("schedule_interval_seconds", sa.Integer(), nullable=True),
        sa.Column("default_role", sa.String(length=16), nullable=False),
        sa.Column("default_profile", sa.String(length=16), nullable=False),
        sa.Column("next_run_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_dispatch_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "(schedule_cron IS NULL) <> (schedule_interval_seconds IS NULL)",
            name=op.f("ck_fleets_one_schedule"),
        ),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_fleets_organization_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fleets")),
        sa.UniqueConstraint("organization_id", "name", name=op.f("uq_fleets_organization_id_name")),
    )
    op.create_index("ix_fleets_org_created", "fleets", ["organization_id", "created_at", "id"], unique=False)
    op.create_index("ix_fleets_next_run_at", "fleets", ["next_run_at"], unique=False)
    op.create_table(
        "fleet_runs",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("organization_id", sa.String(length=36), nullable=False),
        sa.Column("fleet_id", sa.String(length=36), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("forced", sa.Boolean(), nullable=False),
        sa.Column("skipped_unchanged", sa.Integer(), nullable=False),
        sa.Column("skipped_no_snapshot", sa.Integer(), nullable=False),
        sa.Column("skipped_in_flight", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["fleet_id"], ["fleets.id"], name=op.f("fk_fleet_runs_fleet_id_fleets"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_fleet_runs_organization_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fleet_runs")),
    )
    op.create_index("ix_fleet_runs_fleet_started", "fleet_runs", ["fleet_id", "started_at"], unique=False)


def _fleets_from_names(connection: sa.Connection) -> None:
    """One fleet per distinct (organisation, fleet name) of the servers; point the servers at it."""
    pairs = connection.execute(
        sa.text("SELECT DISTINCT organization_id, fleet FROM servers WHERE fleet IS NOT NULL")
    ).all()
    now = datetime.now(UTC)
    fleets = sa.table(
        "fleets",
        *(sa.column(name) for name in ("id", "organization_id", "name", "schedule_interval_seconds")),
        *(sa.column(name) for name in ("default_role", "default_profile", "next_run_at", "created_at")),
    )
    rows = [
        {
            "id": str(uuid.uuid4()),
            "organization_id": organization_id,
            "name": name,
            "schedule_interval_seconds": MIGRATED_INTERVAL_SECONDS,
            "default_role": "standalone",
            "default_profile": "production",
            "next_run_at": now + timedelta(seconds=MIGRATED_INTERVAL_SECONDS),
            "created_at": now,
        }
        for organization_id, name in pairs
    ]
    if rows:
        op.bulk_insert(fleets, rows)
    connection.execute(
        sa.text(
            "UPDATE servers SET fleet_id = (SELECT fleets.id FROM fleets WHERE fleets.organization_id"
            " = servers.organization_id AND fleets.name = servers.fleet) WHERE fleet IS NOT NULL"
        )
    )


def _copy_version_from_variables(connection: sa.Connection) -> None:
    """The flag kept in each snapshot's inputs, copied to its new column."""
    if connection.dialect.name == "postgresql":
        flag = "COALESCE((inputs ->> 'version_from_variables')::boolean, false)"
    else:
        flag = "COALESCE(json_extract(inputs, '$.version_from_variables'), 0)"
    connection.execute(sa.text(f"UPDATE snapshots SET version_from_variables = {flag}"))


def upgrade() -> None:
    _create_fleet_tables()
    with op.batch_alter_table("servers") as batch_op:
        batch_op.add_column(sa.Column("fleet_id", sa.String(length=36), nullable=True))
        batch_op.add_column(sa.Column("pending_fleet_run_id", sa.String(length=36), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_servers_fleet_id_fleets"), "fleets", ["fleet_id"], ["id"], ondelete="SET NULL"
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_servers_pending_fleet_run_id_fleet_runs"),
            "fleet_runs",
            ["pending_fleet_run_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_index("ix_servers_fleet_id", ["fleet_id"], unique=False)
        batch_op.create_index("ix_servers_pending_fleet_run_id", ["pending_fleet_run_id"], unique=False)
    _fleets_from_names(op.get_bind())
    with op.batch_alter_table("servers") as batch_op:
        batch_op.drop_index("ix_servers_org_fleet")
        batch_op.drop_column("fleet")
    with op.batch_alter_table("snapshots") as batch_op:
        batch_op.add_column(sa.Column("settings", _json(), nullable=True))
        batch_op.add_column(
            sa.Column("version_from_variables", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    _copy_version_from_variables(op.get_bind())
    with op.batch_alter_table("audits") as batch_op:
        batch_op.add_column(sa.Column("drift", _json(), nullable=True))
        batch_op.add_column(sa.Column("finding_keys", _json(), nullable=True))
        batch_op.add_column(sa.Column("changes", _json(), nullable=True))
        batch_op.add_column(sa.Column("fleet_run_id", sa.String(length=36), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_audits_fleet_run_id_fleet_runs"),
            "fleet_runs",
            ["fleet_run_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_index("ix_audits_fleet_run_status", ["fleet_run_id", "status"], unique=False)
        batch_op.create_index(
            "ix_audits_server_status_created", ["server_id", "status", "created_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("audits") as batch_op:
        batch_op.drop_index("ix_audits_server_status_created")
        batch_op.drop_index("ix_audits_fleet_run_status")
        batch_op.drop_constraint(batch_op.f("fk_audits_fleet_run_id_fleet_runs"), type_="foreignkey")
        for column in ("fleet_run_id", "changes", "finding_keys", "drift"):
            batch_op.drop_column(column)
    with op.batch_alter_table("snapshots") as batch_op:
        batch_op.drop_column("version_from_variables")
        batch_op.drop_column("settings")
    with op.batch_alter_table("servers") as batch_op:
        batch_op.add_column(sa.Column("fleet", sa.String(length=200), nullable=True))
        batch_op.create_index("ix_servers_org_fleet", ["organization_id", "fleet"], unique=False)
    op.get_bind().execute(
        sa.text(
            "UPDATE servers SET fleet = (SELECT fleets.name FROM fleets WHERE fleets.id = servers.fleet_id)"
            " WHERE fleet_id IS NOT NULL"
        )
    )
    with op.batch_alter_table("servers") as batch_op:
        batch_op.drop_index("ix_servers_pending_fleet_run_id")
        batch_op.drop_index("ix_servers_fleet_id")
        batch_op.drop_constraint(batch_op.f("fk_servers_pending_fleet_run_id_fleet_runs"), type_="foreignkey")
        batch_op.drop_constraint(batch_op.f("fk_servers_fleet_id_fleets"), type_="foreignkey")
        batch_op.drop_column("pending_fleet_run_id")
        batch_op.drop_column("fleet_id")
    op.drop_index("ix_fleet_runs_fleet_started", table_name="fleet_runs")
    op.drop_table("fleet_runs")
    op.drop_index("ix_fleets_next_run_at", table_name="fleets")
    op.drop_index("ix_fleets_org_created", table_name="fleets")
    op.drop_table("fleets")
