"""A fleet run counts its finished audits (succeeded, failed) on its own row.

Reading a run's progress counted the run's audits by status; PostgreSQL visits every row version
of them (each audit is written three times: queued, running, finished), so one read cost ~13 ms at
10,000 servers and ~100 ms at 100,000, and the bench and the web pages read progress while the run
goes. The counters are moved in the transaction that finishes each batch (or single audit), so a
read is one row. Existing runs get their counts from their audits.

Revision ID: 0012_fleet_run_finished_counts
Revises: 0011_snapshot_inputs_json
Create Date: 2026-11-24 17:15:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_fleet_run_finished_counts"
down_revision = "0011_snapshot_inputs_json"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("fleet_runs", sa.Column("succeeded", sa.Integer(), server_default="0", nullable=False))
    op.add_column("fleet_runs", sa.Column("failed", sa.Integer(), server_default="0", nullable=False))
    op.execute(
        """
        UPDATE fleet_runs SET
            succeeded = counts.succeeded,
            failed = counts.failed
        FROM (
            SELECT fleet_run_id,
                   SUM(CASE WHEN status = 'succeeded' THEN 1 ELSE 0 END) AS succeeded,
                   SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed
            FROM audits WHERE fleet_run_id IS NOT NULL GROUP BY fleet_run_id
        ) AS counts
        WHERE counts.fleet_run_id = fleet_runs.id
        """
    )


def downgrade() -> None:
    op.drop_column("fleet_runs", "failed")
    op.drop_column("fleet_runs", "succeeded")
