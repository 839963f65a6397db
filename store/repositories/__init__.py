"""Repositories: every query of the service lives here, one module per table.

Functions take the caller's `Session`, return ORM rows (or ids), and never commit. Reads of an
organisation's rows always filter on `organization_id`, so one organisation never sees another's.
Lists are keyset-paginated over (created_at, id), ascending (`keyset.page_after`).
"""
