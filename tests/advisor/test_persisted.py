"""MySQL 8.0+'s persisted values (mysqld-auto.cnf) read after the option files: captured from a real
8.0.46 (tests/fixtures/persisted_mysql80, README.md there says how), where the file said max_connections =
200 and innodb_io_capacity = 400, SET PERSIST had made them 300 and 1000, and SET GLOBAL then made the
I/O capacity 2000."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.audit import AuditInputs, run_audit
from advisor.errors import InputError
from advisor.inputs.persisted import parse_persisted

CAPTURE = Path(__file__).parents[1] / "fixtures" / "persisted_mysql80"


def _audit(persisted: str | None, name: str = "persisted.tsv", **extra: str) -> dict:  # type: ignore[type-arg]
    inputs = AuditInputs(
        mycnf={"/etc/mysql/my.cnf": (CAPTURE / "my.cnf").read_text()},
        variables=(CAPTURE / "variables.tsv").read_text(),
        persisted=persisted,
        persisted_name=name,
        memory="8G",
        cpus=2,
        storage="ssd",
        **extra,
    )
    return run_audit(inputs).to_dict()


def _drift(result: dict) -> dict:  # type: ignore[type-arg]
    return {entry["name"]: entry for entry in result["drift"]}


def test_live_value_equal_to_its_persisted_value_is_no_drift() -> None:
    """max_connections runs 300, the file says 200, mysqld-auto.cnf 300: a restart brings 300 back (8.0.46
    did), so it is no drift — and no `SET PERSIST max_connections = 200`, which the old audit offered and
    which would have undone the DBA's own SET PERSIST. The pool (file 128M, persisted and live 256M) alike."""
    drift = _drift(_audit((CAPTURE / "persisted.tsv").read_text()))
    assert "max_connections" not in drift
    assert "innodb_buffer_pool_size" not in drift


def test_live_value_departing_from_its_persisted_value_is_drift_from_it() -> None:
    """innodb_io_capacity runs 2000 (SET GLOBAL) over a persisted 1000 and a file's 400: the restart brings
    1000, so that is what the drift names and its SQL applies."""
    entry = _drift(_audit((CAPTURE / "persisted.tsv").read_text()))["innodb_io_capacity"]
    assert (
        entry["persisted_value"] == "1000" and entry["file_value"] == "400" and entry["live_value"] == "2000"
    )
    assert entry["apply_sql"] == "SET PERSIST innodb_io_capacity = 1000;"


def test_pool_instances_under_a_small_pool_say_why_and_need_no_restart() -> None:
    """8.0.46 ran innodb_buffer_pool_instances 1 over a persisted 2 beside its 256M pool (MySQL uses one
    instance under 1 GiB): drift with that reason, not a restart that would bring the 2 (it claimed one)."""
    entry = _drift(_audit((CAPTURE / "persisted.tsv").read_text()))["innodb_buffer_pool_instances"]
    assert entry["restart_required"] is False and entry["apply_sql"] is None
    assert "one buffer pool instance for a pool under 1 GiB (here 256 MiB)" in entry["reason"]


def test_mysqld_auto_cnf_itself_reads_as_the_listing() -> None:
    """The datadir's mysqld-auto.cnf (format 2 of 8.0.46) gives the same values as persisted_variables."""
    listing = parse_persisted((CAPTURE / "persisted.tsv").read_text(), "persisted.tsv").values
    auto = parse_persisted((CAPTURE / "mysqld-auto.cnf").read_text(), "mysqld-auto.cnf").values
    assert listing == auto and listing["max_connections"] == "300"
    assert (
        _drift(_audit((CAPTURE / "mysqld-auto.cnf").read_text(), "mysqld-auto.cnf")).keys()
        == _drift(_audit((CAPTURE / "persisted.tsv").read_text())).keys()
    )


def test_without_the_persisted_values_the_old_verdict_stands() -> None:
    """Not given, nothing is assumed persisted: the file's 200 against the live 300 stays drift."""
    assert "max_connections" in _drift(_audit(None))


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("VARIABLE_NAME\tVARIABLE_VALUE\nmax_connections\t300\n+---+\n", 3, "not understood"),
        ('{"Version": 2, "mysql_dynamic_variables": {"max_connections": {"Value": ', 1, "not valid JSON"),
        ((CAPTURE / "variables.tsv").read_text(), None, "SHOW GLOBAL VARIABLES"),
        (
            "Variable_name\tValue\nUptime\t10\nCom_select\t5\nQuestions\t9\nThreads_connected\t1\n",
            None,
            "STATUS",
        ),
    ],
)
def test_bad_persisted_input_names_its_file_and_line(text: str, line: int | None, words: str) -> None:
    """A line not understood, broken JSON, a whole SHOW GLOBAL VARIABLES or STATUS given as the persisted
    values: InputError naming the file (and the line where one is known)."""
    with pytest.raises(InputError) as caught:
        _audit(text, "auto.tsv")
    assert caught.value.file == "auto.tsv" and caught.value.line == line and words in caught.value.message


def test_mariadb_target_ignores_persisted_values_with_a_warning() -> None:
    """MariaDB has no SET PERSIST: values given anyway are ignored, and the audit says so."""
    result = run_audit(
        AuditInputs(
            mycnf={"my.cnf": "[mysqld]\nmax_connections = 200\n"},
            variables="max_connections\t300\nversion\t10.11.19-MariaDB\n",
            persisted="max_connections\t300\n",
        )
    ).to_dict()
    assert any("has no SET PERSIST" in warning for warning in result["warnings"])
    assert "max_connections" in _drift(result)


def test_header_alone_means_nothing_is_persisted() -> None:
    """`innotune collect` writes the header of an empty result: nothing persisted, no error."""
    assert parse_persisted("VARIABLE_NAME\tVARIABLE_VALUE\n", "persisted.tsv").values == {}
