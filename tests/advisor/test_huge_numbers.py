"""A number no server can hold (400 digits) is no size: never an OverflowError inside an advisor."""

from __future__ import annotations

import re
from contextlib import suppress

import pytest

from advisor.audit import AuditInputs, run_audit
from advisor.errors import InputError
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default"
HUGE = "9" * 400


def _audit_or_input_error(inputs: AuditInputs) -> None:
    # A clear complaint about the input is fine; arithmetic errors are not.
    with suppress(InputError):
        run_audit(inputs)


def test_every_numeric_variable_at_400_digits_audits_without_arithmetic_errors() -> None:
    variables = corpus_file(f"{SYSBENCH}.global_variables.tsv").read_text().splitlines()
    status = corpus_file(f"{SYSBENCH}.global_status.tsv").read_text()
    numeric = [
        i for i, line in enumerate(variables) if re.fullmatch(r"-?\d+(\.\d+)?", line.partition("\t")[2])
    ]
    assert len(numeric) > 100
    for index in numeric:
        name = variables[index].partition("\t")[0]
        text = "\n".join([*variables[:index], f"{name}\t{HUGE}", *variables[index + 1 :]])
        _audit_or_input_error(AuditInputs(variables=text, status=(status,), memory="24G", cpus=4))


@pytest.mark.parametrize("suffix", ["", "K", "G", ".5G"])
def test_option_file_values_of_400_digits_audit_without_arithmetic_errors(suffix: str) -> None:
    names = [
        "innodb_buffer_pool_size",
        "max_connections",
        "innodb_log_file_size",
        "innodb_io_capacity",
        "table_open_cache",
        "thread_cache_size",
        "tmp_table_size",
        "max_heap_table_size",
        "sort_buffer_size",
        "join_buffer_size",
        "innodb_buffer_pool_instances",
        "max_allowed_packet",
        "innodb_redo_log_capacity",
        "innodb_io_capacity_max",
        "open_files_limit",
        "key_buffer_size",
    ]
    mycnf = "[mysqld]\n" + "".join(f"{name} = {HUGE}{suffix}\n" for name in names)
    _audit_or_input_error(
        AuditInputs(mycnf={"/etc/mysql/my.cnf": mycnf}, server_version="10.11.6-MariaDB", memory="24G")
    )
    _audit_or_input_error(
        AuditInputs(mycnf={"/etc/mysql/my.cnf": mycnf}, server_version="8.0.36", memory="24G")
    )
