"""The DBA pages in headless Chromium against `innotune serve` on PostgreSQL with a real worker:
sign in, fill the form from corpus files, follow the audit to its result, download the files."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.corpus import corpus_file
from tests.fixtures.service_data import OrganizationHandle
from tests.web.corpus_form import SANDBOX_MYCNF, VARIABLES, fill_from_corpus
from tests.web.flow import sign_in, stored_audit, submit_and_wait

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

pytestmark = pytest.mark.service


def test_corpus_audit_shows_findings_pictures_diff_and_downloads(
    page: Page, service_web: str, organization: OrganizationHandle
) -> None:
    """Uploads of the sysbench dumps give a result page with every stored finding (grouped by severity,
    with evidence), both pictures, a coloured diff linked to findings, and downloads equal to the audit's."""
    sign_in(page, service_web, organization.key)
    fill_from_corpus(page)
    audit_id = submit_and_wait(page)
    audit = stored_audit(organization, audit_id)
    assert audit["status"] == "succeeded" and audit["findings"]

    for finding in audit["findings"]:
        card = page.locator(f"#finding-{audit['findings'].index(finding)}")
        assert card.locator("h5").inner_text().endswith(finding["title"])
        assert finding["rule"] in card.inner_text()
        assert card.locator("table.evidence tbody tr").count() == len(finding["evidence"])
    first_group = page.locator("section.severity-group").first
    assert first_group.get_attribute("id") == f"sev-{audit['worst_severity']}"

    pool_row = page.locator("table.diff tr.diff-add", has_text="innodb_buffer_pool_size")
    assert pool_row.count() == 1
    pool_finding = next(
        i for i, f in enumerate(audit["findings"]) if f["variable"] == "innodb_buffer_pool_size"
    )
    assert pool_row.get_by_role("link").get_attribute("href") == f"#finding-{pool_finding}"
    assert page.locator("table.diff tr.diff-del", has_text="innodb_buffer_pool_size    = 16M").count() == 1
    background = pool_row.locator("td.code").evaluate("cell => getComputedStyle(cell).backgroundColor")
    assert background == "rgb(230, 246, 234)"  # the added-line green of ui.css
    assert "password = msandbox" not in page.content()

    pool_chart = page.locator("svg#chart-buffer-pool")
    assert pool_chart.get_by_text("Usable memory", exact=True).count() == 1
    pool_text = pool_chart.text_content() or ""
    assert "24 GiB" in pool_text and "InnoDB data + indexes" in pool_text
    assert "Redo written per hour" in (page.locator("svg#chart-redo").text_content() or "")

    sql = page.locator("#apply-sql").inner_text()
    assert all(f["apply_sql"] in sql for f in audit["findings"] if f["apply_sql"])
    assert page.get_by_role("button", name="Copy all SQL").is_visible()

    assert [file["path"] for file in audit["files"]] == ["my.sandbox.cnf"]  # the upload's file name
    with page.expect_download() as mycnf_download:
        page.get_by_role("link", name="Download my.sandbox.cnf").click()
    assert mycnf_download.value.suggested_filename == "my.sandbox.cnf"
    assert Path(mycnf_download.value.path()).read_text() == audit["files"][0]["recommended"]
    with page.expect_download() as diff_download:
        page.get_by_role("link", name="Download the diff of all files").click()
    assert Path(diff_download.value.path()).read_text() == audit["diff"]


def test_bad_option_file_shows_the_parser_message_beside_it_and_keeps_everything(
    page: Page, service_web: str, organization: OrganizationHandle
) -> None:
    """A header without `]` comes back beside its option file with the line number and the line; the
    pasted text, the uploaded variables (now in their paste area) and the typed hardware are all kept."""
    sign_in(page, service_web, organization.key)
    bad_cnf = "[mysqld]\ninnodb_buffer_pool_size = 1G\n[mysqld\nmax_connections = 500\n"
    page.get_by_label("Path of option file 1").fill("/etc/mysql/conf.d/tuning.cnf")
    page.get_by_label("Text of option file 1").fill(bad_cnf)
    page.set_input_files("#variables-file", str(corpus_file(VARIABLES)))
    page.get_by_label("Memory", exact=True).fill("24G")
    page.get_by_label("CPUs").fill("2")
    page.get_by_role("button", name="Run the audit").click()

    error = page.locator("#mycnf-0 .error-message")
    error.wait_for()
    assert "Line 3:" in error.inner_text()
    assert "Group header without a closing" in error.inner_text()
    assert error.locator("code.excerpt").inner_text() == "[mysqld"
    summary = page.locator(".error-summary")
    assert summary.evaluate("node => node === document.activeElement")
    assert summary.get_by_role("link").first.get_attribute("href") == "#mycnf-0-text"
    assert page.get_by_label("Text of option file 1").input_value() == bad_cnf
    assert page.get_by_label("Path of option file 1").input_value() == "/etc/mysql/conf.d/tuning.cnf"
    assert page.get_by_label("Text of option file 1").get_attribute("aria-invalid") == "true"
    assert page.locator("#variables-text").input_value() == corpus_file(VARIABLES).read_text()
    assert page.get_by_label("Memory", exact=True).input_value() == "24G"
    assert page.get_by_label("CPUs").input_value() == "2"

    page.get_by_label("Text of option file 1").fill(bad_cnf.replace("[mysqld\n", "[mysqld]\n"))
    page.get_by_label("CPUs").fill("two")
    page.get_by_role("button", name="Run the audit").click()
    cpus_error = page.locator("#cpus-error")
    cpus_error.wait_for()
    assert "integer" in cpus_error.inner_text()
    assert page.locator(".mycnf-entry .error-message").count() == 0


def test_sign_in_cookie_is_secure_httponly_strict_and_holds_no_key(
    context: BrowserContext, page: Page, service_web: str, organization: OrganizationHandle
) -> None:
    """A wrong key is refused beside the field; the right one sets a Secure, HttpOnly, SameSite=Strict
    cookie that does not contain the key; signing out ends the session."""
    page.goto(f"{service_web}/ui/servers")
    assert "/ui/login" in page.url
    page.get_by_label("API key").fill("itk_not-a-key")
    page.get_by_role("button", name="Sign in").click()
    assert "unknown or revoked" in page.locator("#api_key-error").inner_text()
    page.get_by_label("API key").fill(organization.key)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{service_web}/ui/servers")  # back where the user was going

    (cookie,) = [c for c in context.cookies() if c["name"] == "innotune_session"]
    assert cookie["secure"] and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert cookie["path"] == "/ui"
    assert organization.key not in cookie["value"] and organization.key[4:20] not in cookie["value"]
    assert page.evaluate("document.cookie") == ""

    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(re.compile(r"/ui/login"))
    page.goto(f"{service_web}/ui")
    assert "/ui/login" in page.url
    context.add_cookies([cookie])  # a copy of the cookie kept from before signing out
    page.goto(f"{service_web}/ui")
    assert "/ui/login" in page.url


def test_another_organisations_audit_and_server_are_not_found(
    page: Page, service_web: str, organization: OrganizationHandle, other_organization: OrganizationHandle
) -> None:
    """Signed in as one organisation, the other's audit, its downloads and its server answer 404."""
    from tests.fixtures.service_data import queued_audit

    theirs = queued_audit(other_organization)
    sign_in(page, service_web, organization.key)
    for path in (
        f"/ui/audits/{theirs.audit_id}",
        f"/ui/audits/{theirs.audit_id}/my.cnf",
        f"/ui/audits/{theirs.audit_id}/files/0",
        f"/ui/audits/{theirs.audit_id}/files.zip",
        f"/ui/audits/{theirs.audit_id}/dropin",
        f"/ui/servers/{theirs.server_id}",
    ):
        response = page.goto(f"{service_web}{path}")
        assert response is not None and response.status == 404, path
        assert page.get_by_role("heading", name="Page not found").is_visible()


def test_server_history_lists_audits_and_compares_two(
    page: Page, service_web: str, organization: OrganizationHandle
) -> None:
    """Two audits of a named server: the server list shows its latest worst severity, its page both
    audits, and the comparison what changed in the option file and the findings."""
    sign_in(page, service_web, organization.key)
    # With the tables dump: without a dataset size the 16M pool draws no finding (since 39cdf2e).
    fill_from_corpus(page, server_name="db-orders-1")
    first_id = submit_and_wait(page)
    page.get_by_role("link", name="Start another audit").click()
    assert page.get_by_label("Keep the audit with a server").input_value() != ""
    better = (
        corpus_file(SANDBOX_MYCNF)
        .read_text()
        .replace("innodb_buffer_pool_size    = 16M", "innodb_buffer_pool_size    = 16G")
    )
    page.get_by_label("Path of option file 1").fill("my.sandbox.cnf")  # the uploaded file's name
    page.get_by_label("Text of option file 1").fill(better)
    fill_from_corpus(page, memory="48G", mycnf=None)
    second_id = submit_and_wait(page)
    newer = stored_audit(organization, second_id)

    page.goto(f"{service_web}/ui/servers")
    row = page.get_by_role("row", name=re.compile("db-orders-1"))
    assert newer["worst_severity"] in (row.text_content() or "")
    row.get_by_role("link", name="db-orders-1").click()
    assert page.locator("table.listing tbody tr").count() == 2
    assert page.locator("svg#chart-history").count() == 1
    page.get_by_role("button", name="Compare").click()
    assert f"a={first_id}" in page.url and f"b={second_id}" in page.url
    removed, added = page.locator("table.diff tr.diff-del"), page.locator("table.diff tr.diff-add")
    assert removed.count() == 1 and "-innodb_buffer_pool_size    = 16M" in removed.inner_text()
    assert added.count() == 1 and "+innodb_buffer_pool_size    = 16G" in added.inner_text()
    # Twice the memory: the pool finding stays, its recommendation moves.
    older = stored_audit(organization, first_id)
    pool_before = next(f for f in older["findings"] if f["variable"] == "innodb_buffer_pool_size")
    pool_after = next(f for f in newer["findings"] if f["variable"] == "innodb_buffer_pool_size")
    assert pool_before["recommended"] != pool_after["recommended"]
    moved = page.get_by_role("row", name=re.compile(f"{pool_after['rule']}.*recommended"))
    assert f"{pool_before['recommended']}\t{pool_after['recommended']}" in moved.inner_text()


def test_core_flow_works_without_javascript(
    browser: Any, service_web: str, organization: OrganizationHandle
) -> None:
    """With scripts off: sign in, submit, the progress page refreshes itself to the result."""
    context = browser.new_context(java_script_enabled=False, accept_downloads=True)
    try:
        page = context.new_page()
        sign_in(page, service_web, organization.key)
        fill_from_corpus(page, with_tables=False)
        submit_and_wait(page)
        assert page.locator("table.diff tr.diff-add").count() >= 1
        assert not page.get_by_role("button", name="Copy all SQL").is_visible()
        assert page.locator("#apply-sql").inner_text().startswith("-- ")
    finally:
        context.close()


@pytest.mark.parametrize("javascript", [True, False], ids=["script-polls", "meta-refresh"])
def test_progress_page_follows_a_queued_audit_to_its_result(
    browser: Any, service_web: str, organization: OrganizationHandle, javascript: bool
) -> None:
    """An audit still queued shows the progress page; once the worker has run it, the page turns into
    the result by itself, with scripts on (they poll) and off (the meta refresh alone does it)."""
    from services.jobs import RUN_AUDIT
    from tests.fixtures.jobs import enqueue_now
    from tests.fixtures.service_data import queued_audit

    waiting = queued_audit(organization)  # committed, not sent to the worker yet
    context = browser.new_context(java_script_enabled=javascript)
    try:
        page = context.new_page()
        sign_in(page, service_web, organization.key)
        page.goto(f"{service_web}/ui/audits/{waiting.audit_id}")
        assert page.get_by_role("heading", name="Audit in progress").is_visible()
        assert page.locator('meta[http-equiv="refresh"]').count() == 1
        assert page.get_by_role("status").inner_text().startswith("The audit is queued")
        enqueue_now(RUN_AUDIT, waiting.audit_id)
        page.get_by_role("heading", name="Findings", exact=True).wait_for(timeout=20_000)
        assert page.url.endswith(f"/ui/audits/{waiting.audit_id}")
    finally:
        context.close()
