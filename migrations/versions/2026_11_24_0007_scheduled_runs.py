"""Fleet runs say whether the schedule started them: a scheduled run that dispatches nothing is not kept.

Revision ID: 0007_scheduled_runs
Revises: 0006_audit_result_reference
Create Date: 2026-11-24 13:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_scheduled_runs"
down_revision = "0006_audit_result_reference"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("fleet_runs") as batch_op:
        batch_op.add_column(sa.Column("scheduled", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("fleet_runs") as batch_op:
        batch_op.drop_column("scheduled")
