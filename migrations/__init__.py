"""Alembic migrations (date-prefixed revision files under versions/)."""
