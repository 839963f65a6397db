"""The sweeper's index covers unfinished audits only (a partial index on status, updated_at).

The index over every status was one the planner could pick for "this server's newest succeeded
audit": with statistics taken while a fleet run's audits were all queued, it took `succeeded` for
a rare status and walked every succeeded audit of the table for each lookup, so each batch of a
fleet run cost more than the one before. Indexing only queued and running audits leaves those
lookups the (server_id, status, created_at) index, keeps the sweeper's and the queue metric's scans
small, and spares the index an entry for every finished audit.

Revision ID: 0010_audits_unfinished_index
Revises: 0009_server_role_source
Create Date: 2026-11-24 16:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_audits_unfinished_index"
down_revision = "0009_server_role_source"
branch_labels = None
depends_on = None

UNFINISHED = "status IN ('queued', 'running')"


def upgrade() -> None:
    op.drop_index("ix_audits_status_updated", table_name="audits")
    op.create_index(
        "ix_audits_unfinished_updated",
        "audits",
        ["status", "updated_at"],
        postgresql_where=sa.text(UNFINISHED),
        sqlite_where=sa.text(UNFINISHED),
    )


def downgrade() -> None:
    op.drop_index("ix_audits_unfinished_updated", table_name="audits")
    op.create_index("ix_audits_status_updated", "audits", ["status", "updated_at"], unique=False)
