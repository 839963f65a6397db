"""Tests of the application services against the real PostgreSQL."""
