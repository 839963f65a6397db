"""Steps the browser tests share: sign in, submit the form and wait for the result, read the audit back."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tests.fixtures.service_data import OrganizationHandle

if TYPE_CHECKING:
    from playwright.sync_api import Page


def sign_in(page: Page, base_url: str, key: str) -> None:
    """Open the pages, get sent to the sign-in form, sign in with the key."""
    page.goto(f"{base_url}/ui")
    assert page.url.startswith(f"{base_url}/ui/login")
    page.get_by_label("API key").fill(key)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base_url}/ui")


def stored_audit(organization: OrganizationHandle, audit_id: str) -> dict[str, Any]:
    """The audit as the service stores it, with its diff, files and drop-in."""
    from api.audit_flow import load_audit

    return load_audit(organization.id, audit_id, with_files=True)


def submit_and_wait(page: Page) -> str:
    """Submit the form, wait for the result page; the audit's id."""
    page.get_by_role("button", name="Run the audit").click()
    page.wait_for_url(re.compile(r"/ui/audits/[0-9a-f-]{36}$"))
    page.get_by_role("heading", name="Findings", exact=True).wait_for()
    return page.url.rsplit("/", 1)[1]
