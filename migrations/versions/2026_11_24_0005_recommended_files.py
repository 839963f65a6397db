"""Recommended files: every option file an audit hands back (path, text, diff) and the drop-in file.

Revision ID: 0005_recommended_files
Revises: 0004_audit_figures
Create Date: 2026-11-24 10:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0005_recommended_files"
down_revision = "0004_audit_figures"
branch_labels = None
depends_on = None


def upgrade() -> None:
    json_type = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
    with op.batch_alter_table("audits") as batch_op:
        batch_op.add_column(sa.Column("files", json_type, nullable=True))
        batch_op.add_column(sa.Column("dropin", json_type, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("audits") as batch_op:
        batch_op.drop_column("dropin")
        batch_op.drop_column("files")
