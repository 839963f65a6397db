"""Fill the audit form from named corpus files, as a DBA would: files uploaded, hardware typed in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.corpus import corpus_file

if TYPE_CHECKING:
    from playwright.sync_api import Page

SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default"
SANDBOX_MYCNF = "percona-toolkit/sandbox/servers/mariadb/10.4/my.sandbox.cnf"  # `password = msandbox`
VARIABLES = f"{SYSBENCH}.global_variables.tsv"
STATUS_FIRST = f"{SYSBENCH}.global_status.t20s.tsv"
STATUS_SECOND = f"{SYSBENCH}.global_status.tsv"
INNODB_STATUS = f"{SYSBENCH}.innodb_status.txt"
TABLES = f"{SYSBENCH}.is_tables.tsv"


def fill_from_corpus(
    page: Page,
    *,
    server_name: str | None = None,
    memory: str = "24G",
    mycnf: str | None = SANDBOX_MYCNF,
    with_tables: bool = True,
) -> None:
    """Upload the sysbench MariaDB 10.11 dumps and an option file (into the first option-file row,
    None: leave the rows as they are); type the hardware in."""
    if mycnf is not None:
        page.set_input_files("#mycnf-0-file", str(corpus_file(mycnf)))
    page.set_input_files("#variables-file", str(corpus_file(VARIABLES)))
    page.set_input_files("#status1-file", str(corpus_file(STATUS_FIRST)))
    page.set_input_files("#status2-file", str(corpus_file(STATUS_SECOND)))
    page.set_input_files("#innodb_status-file", str(corpus_file(INNODB_STATUS)))
    if with_tables:
        page.set_input_files("#schema-file", str(corpus_file(TABLES)))
    if server_name is not None:
        page.get_by_label("…or name a new server").fill(server_name)
    page.get_by_label("Memory", exact=True).fill(memory)
    page.get_by_label("CPUs").fill("2")
    page.get_by_label("Storage").select_option("ssd")
    page.get_by_label("Role").select_option("primary")
