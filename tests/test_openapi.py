"""The checked-in openapi.yaml is what the app generates today."""

from __future__ import annotations

from pathlib import Path

from api.openapi import render_openapi

ROOT = Path(__file__).resolve().parents[1]


def test_openapi_yaml_is_fresh() -> None:
    """Regenerate with `make openapi` when this fails."""
    assert (ROOT / "openapi.yaml").read_text() == render_openapi(), (
        "openapi.yaml is stale: run `make openapi`"
    )
