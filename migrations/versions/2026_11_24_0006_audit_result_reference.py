"""Unchanged re-audits refer to the stored results of an earlier audit instead of copying them.

Revision ID: 0006_audit_result_reference
Revises: 0005_recommended_files
Create Date: 2026-11-24 13:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_audit_result_reference"
down_revision = "0005_recommended_files"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("audits") as batch_op:
        batch_op.add_column(sa.Column("result_of", sa.String(length=36), nullable=True))
        batch_op.add_column(sa.Column("result_hash", sa.String(length=64), nullable=True))
        batch_op.create_foreign_key("fk_audits_result_of_audits", "audits", ["result_of"], ["id"])
        batch_op.create_index("ix_audits_result_of", ["result_of"])


def downgrade() -> None:
    with op.batch_alter_table("audits") as batch_op:
        batch_op.drop_index("ix_audits_result_of")
        batch_op.drop_constraint("fk_audits_result_of_audits", type_="foreignkey")
        batch_op.drop_column("result_hash")
        batch_op.drop_column("result_of")
