"""Servers say where their role comes from: given by a user, detected by the collector, or a default.

A role the collector detects (`innotune collect --upload`) replaces a default one, never a given one.
Existing servers: a role other than standalone was chosen by someone (given); standalone is the default.

Revision ID: 0009_server_role_source
Revises: 0008_keys_sessions
Create Date: 2026-11-24 13:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_server_role_source"
down_revision = "0008_keys_sessions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("servers") as batch_op:
        batch_op.add_column(sa.Column("role_source", sa.String(16), server_default="default", nullable=False))
    op.execute("UPDATE servers SET role_source = 'given' WHERE role <> 'standalone'")


def downgrade() -> None:
    with op.batch_alter_table("servers") as batch_op:
        batch_op.drop_column("role_source")
