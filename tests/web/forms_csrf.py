"""Reading the CSRF token our pages put in their forms (for tests posting forms over plain HTTP)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

_TOKEN_RE = re.compile(r'name="csrf_token" value="([^"]+)"')


def form_token(client: TestClient, path: str = "/ui") -> str:
    """Open a page (which hands this client its CSRF cookie) and read the token of its forms."""
    page = client.get(path)
    assert page.status_code == 200, page.text
    found = _TOKEN_RE.search(page.text)
    assert found is not None, f"no CSRF token on {path}"
    return found.group(1)
