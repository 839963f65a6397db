"""The figures behind an audit's pictures, from the real sysbench MariaDB 10.11 dumps."""

from __future__ import annotations

from advisor.audit import AuditInputs, run_audit
from advisor.units import parse_size
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default"
GIB = 1024**3


def _text(suffix: str) -> str:
    return corpus_file(f"{SYSBENCH}.{suffix}").read_text()


def _value(text: str, name: str) -> int:
    """A value of a `mysql -B` dump, read here independently of the parsers."""
    for line in text.splitlines():
        key, _, value = line.partition("\t")
        if key == name:
            return int(value)
    raise KeyError(name)


def _full_inputs(**overrides: object) -> AuditInputs:
    fields: dict[str, object] = {
        "variables": _text("global_variables.tsv"),
        "status": (_text("global_status.t20s.tsv"), _text("global_status.tsv")),
        "schema": _text("is_tables.tsv"),
        "memory": "24G",
    }
    fields.update(overrides)
    return AuditInputs(**fields)  # type: ignore[arg-type]


def test_figures_come_from_memory_variables_status_and_tables() -> None:
    """Usable memory, the live pool and redo size, the InnoDB data of the tables dump and the redo
    written per hour between the two status dumps; recommendations equal the findings'."""
    result = run_audit(_full_inputs())
    figures = result.to_dict()["figures"]
    variables = _text("global_variables.tsv")
    first, second = _text("global_status.t20s.tsv"), _text("global_status.tsv")
    written = _value(second, "Innodb_os_log_written") - _value(first, "Innodb_os_log_written")
    seconds = _value(second, "Uptime") - _value(first, "Uptime")
    lines = _text("is_tables.tsv").splitlines()
    header = lines[0].split("\t")
    rows = [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:]]
    data_bytes = sum(
        int(row["DATA_LENGTH"]) + int(row["INDEX_LENGTH"])
        for row in rows
        if row["ENGINE"] == "InnoDB"
        and row["TABLE_TYPE"] == "BASE TABLE"
        and row["TABLE_SCHEMA"] not in ("mysql", "information_schema", "performance_schema", "sys")
    )
    by_variable = {finding.variable: finding for finding in result.findings if finding.change == "set"}

    assert figures["usable_memory_bytes"] == 24 * GIB
    assert figures["buffer_pool_bytes"] == _value(variables, "innodb_buffer_pool_size")
    assert figures["redo_capacity_bytes"] == _value(variables, "innodb_log_file_size")  # one file on 10.11
    assert figures["redo_bytes_per_hour"] == round(written / seconds * 3600)
    assert figures["dataset_bytes"] == data_bytes
    assert figures["recommended_buffer_pool_bytes"] == parse_size(
        by_variable["innodb_buffer_pool_size"].recommended or ""
    )
    assert figures["recommended_redo_capacity_bytes"] == parse_size(
        by_variable["innodb_log_file_size"].recommended or ""
    )


def test_figures_are_none_when_the_inputs_do_not_tell() -> None:
    """Without memory, tables or status, those figures are None (never guessed); one status dump gives
    the average redo rate since startup."""
    no_status = run_audit(_full_inputs(memory=None, schema=None, status=())).to_dict()["figures"]
    assert no_status["usable_memory_bytes"] is None
    assert no_status["dataset_bytes"] is None
    assert no_status["redo_bytes_per_hour"] is None
    assert no_status["recommended_buffer_pool_bytes"] is None
    assert no_status["buffer_pool_bytes"] == _value(_text("global_variables.tsv"), "innodb_buffer_pool_size")
    status = _text("global_status.tsv")
    one_dump = run_audit(_full_inputs(status=(status,))).to_dict()["figures"]
    since_start = _value(status, "Innodb_os_log_written") / _value(status, "Uptime") * 3600
    assert one_dump["redo_bytes_per_hour"] == round(since_start)
