"""Snapshots keep their inputs as json (the text as sent) instead of jsonb on PostgreSQL.

Every audit reads its snapshot's inputs whole: ~100 KB of dumps whose tabs and newlines jsonb
must escape again on each read, which was half of PostgreSQL's work in claiming a batch of a fleet
run. json returns the stored text. Nothing looks inside the inputs in SQL but `->`, which json has.
SQLite stores JSON as text either way: nothing to do there.

Revision ID: 0011_snapshot_inputs_json
Revises: 0010_audits_unfinished_index
Create Date: 2026-11-24 16:20:00
"""

from __future__ import annotations

from alembic import op

revision = "0011_snapshot_inputs_json"
down_revision = "0010_audits_unfinished_index"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE snapshots ALTER COLUMN inputs TYPE json USING inputs::json")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE snapshots ALTER COLUMN inputs TYPE jsonb USING inputs::jsonb")
