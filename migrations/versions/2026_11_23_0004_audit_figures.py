"""Audit figures: the numbers behind an audit's pictures (buffer pool, redo log).

Revision ID: 0004_audit_figures
Revises: 0003_fleets
Create Date: 2026-11-23 21:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0004_audit_figures"
down_revision = "0003_fleets"
branch_labels = None
depends_on = None


def upgrade() -> None:
    json_type = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
    with op.batch_alter_table("audits") as batch_op:
        batch_op.add_column(sa.Column("figures", json_type, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("audits") as batch_op:
        batch_op.drop_column("figures")
