"""A snapshot keeps its dumps parsed at upload (advisor.prepared) beside their texts.

A re-audit read every snapshot's ~100 KB of dump texts as JSON and parsed them again: a third of an
audit's time in a fleet re-audit. The prepared form (msgpack, behind the parser's fingerprint) is
read instead; snapshots stored before this column, or by another parser, are parsed from their texts.

Revision ID: 0013_snapshot_prepared
Revises: 0012_fleet_run_finished_counts
Create Date: 2026-11-25 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_snapshot_prepared"
down_revision = "0012_fleet_run_finished_counts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("snapshots", sa.Column("prepared", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    op.drop_column("snapshots", "prepared")
