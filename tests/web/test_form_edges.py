"""The audit form's edges in headless Chromium on the embedded default: its limits stated and a file
over them said beside its field with nothing typed lost, a binary upload named (never pasted back),
every message naming its field, and the tables field taking the client's boxed table."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tests.corpus import corpus_file
from tests.web.corpus_form import VARIABLES
from tests.web.flow import submit_and_wait

if TYPE_CHECKING:
    from playwright.sync_api import Page

BOXED_TABLES = "mariadb-10.11-sysbench/s02_load_rw_default.is_tables.table.txt"


def test_limits_are_stated_and_an_oversized_file_is_said_beside_its_field(
    page: Page, embedded_web: tuple[str, Path], tmp_path: Path
) -> None:
    """A 3 MiB variables file: the form says so beside the field before sending, and the path typed
    into the option-file row is still there."""
    url, _ = embedded_web
    page.goto(f"{url}/ui")
    limits = page.locator("#limits").inner_text()
    assert "2 MiB" in limits and "16 files" in limits
    page.get_by_label("Path of option file 1").fill("/etc/mysql/my.cnf")
    page.get_by_label("Text of option file 1").fill("[mysqld]\nmax_connections = 500\n")
    big = tmp_path / "vars.tsv"
    big.write_text("x\t1\n" * (3 * 1024 * 1024 // 4))
    page.set_input_files("#variables-file", str(big))
    message = page.locator("#variables .error-message")
    assert "vars.tsv is 3.0 MiB; the limit is 2.0 MiB a file." in message.inner_text()
    page.get_by_role("button", name="Run the audit").click()
    assert page.url == f"{url}/ui"  # nothing sent
    assert page.get_by_label("Path of option file 1").input_value() == "/etc/mysql/my.cnf"


def test_a_binary_upload_is_named_and_every_message_names_its_field(
    page: Page, embedded_web: tuple[str, Path], tmp_path: Path
) -> None:
    """An encrypted .mylogin.cnf uploaded as the option file: the message says it is binary and the
    paste area stays empty (no mojibake); a bad CPU count is "CPUs: …"."""
    url, _ = embedded_web
    page.goto(f"{url}/ui")
    login = tmp_path / ".mylogin.cnf"
    login.write_bytes(b"\x00\x00\x00\x00" + bytes(range(256)) * 8)
    page.set_input_files("#mycnf-0-file", str(login))
    page.locator("#variables-text").fill(corpus_file(VARIABLES).read_text())
    page.get_by_role("button", name="Run the audit").click()
    page.locator(".error-summary").wait_for()
    row = page.locator("#mycnf-0")
    assert ".mylogin.cnf is a binary file, not text" in row.locator(".error-message").inner_text()
    assert page.locator("#mycnf-0-text").input_value().strip() == ""

    page.get_by_label("Text of option file 1").fill("[mysqld]\nmax_connections = 500\n")
    page.get_by_label("CPUs").fill("many")
    page.get_by_role("button", name="Run the audit").click()
    page.locator(".error-summary").wait_for()
    assert "CPUs: " in page.locator("#cpus-error").inner_text()
    assert page.get_by_label("CPUs").input_value() == "many"


def test_the_tables_field_takes_the_clients_boxed_table(page: Page, embedded_web: tuple[str, Path]) -> None:
    """The boxed information_schema.TABLES dump gives the dataset size (the pool picture shows it)."""
    url, _ = embedded_web
    page.goto(f"{url}/ui")
    page.locator("#variables-text").fill(corpus_file(VARIABLES).read_text())
    page.set_input_files("#schema-file", str(corpus_file(BOXED_TABLES)))
    page.get_by_label("Memory", exact=True).fill("24G")
    submit_and_wait(page)
    assert "InnoDB data + indexes" in (page.locator("svg#chart-buffer-pool").text_content() or "")
