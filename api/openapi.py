"""Print the app's OpenAPI document as YAML: `python -m api.openapi > openapi.yaml`."""

from __future__ import annotations

import sys

import yaml

from api.app import create_app


def render_openapi() -> str:
    """The OpenAPI document of the current code, as stable YAML (keys in the app's order)."""
    document = create_app().openapi()
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)


if __name__ == "__main__":
    sys.stdout.write(render_openapi())
