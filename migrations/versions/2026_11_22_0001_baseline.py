"""Baseline: an empty schema that later revisions build on.

Revision ID: 0001_baseline
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

revision = "0001_baseline"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Nothing yet: the first tables arrive with the service."""


def downgrade() -> None:
    """Nothing to undo."""
