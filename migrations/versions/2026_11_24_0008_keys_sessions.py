"""Key management and server-side sessions: keys get a name and a last-used time, web sessions become
rows (revoked at sign-out and with their key), and webhook secrets are no longer stored.

The stored webhook secrets are dropped: from now on each is derived from the server's secret key and
a generation number (services.webhooks), so a database dump alone cannot sign callbacks. Receivers
take the new secret from `innotune admin webhook-secret` (or rotate it through the API).

Revision ID: 0008_keys_sessions
Revises: 0007_scheduled_runs
Create Date: 2026-11-24 12:45:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_keys_sessions"
down_revision = "0007_scheduled_runs"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("api_keys") as batch_op:
        batch_op.add_column(sa.Column("name", sa.String(length=200), nullable=False, server_default=""))
        batch_op.add_column(sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("organizations") as batch_op:
        batch_op.add_column(
            sa.Column("webhook_secret_generation", sa.Integer(), nullable=False, server_default="1")
        )
        batch_op.drop_column("webhook_secret")
    op.create_table(
        "web_sessions",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("api_key_id", sa.String(length=36), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["api_key_id"],
            ["api_keys.id"],
            name=op.f("fk_web_sessions_api_key_id_api_keys"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_web_sessions_token_hash")),
    )
    op.create_index(op.f("ix_web_sessions_api_key_id"), "web_sessions", ["api_key_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_web_sessions_api_key_id"), table_name="web_sessions")
    op.drop_table("web_sessions")
    with op.batch_alter_table("organizations") as batch_op:
        batch_op.drop_column("webhook_secret_generation")
        # The old secrets are gone for good: a placeholder the operator must replace.
        batch_op.add_column(
            sa.Column("webhook_secret", sa.String(length=64), nullable=False, server_default="0" * 64)
        )
    with op.batch_alter_table("api_keys") as batch_op:
        batch_op.drop_column("last_used_at")
        batch_op.drop_column("name")
