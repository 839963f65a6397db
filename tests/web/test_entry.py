"""The root address and /ui/ lead to the form."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app


@pytest.mark.parametrize("path", ["/", "/ui/"])
def test_entry_addresses_redirect_to_the_form(path: str) -> None:
    """`make run` prints http://127.0.0.1:8000: opening it (or /ui/) lands on /ui."""
    response = TestClient(create_app()).get(path, follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == "/ui"
