"""What the collector strips before writing or sending: statements, hosts and row data of InnoDB
status, and credential-like variables — checked on real dumps of the corpus."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.audit import AuditInputs, run_audit
from advisor.errors import InputError
from advisor.inputs.innodb_status import parse_innodb_status
from advisor.inputs.statusvars import parse_variables
from collector.redact import FOREIGN_KEY_NOTE, REDACTED, redact_variables, strip_innodb_status
from tests.advisor.inputs.test_innodb_status import PERCONA_TOOLKIT_DUMPS
from tests.corpus import CORPUS, corpus_file

RW = "realworld/innodb_status/"
#: A raw MySQL 5.7-era dump with a foreign key error and a deadlock quoting statements and records.
CRALLS = RW + "cralls_WPS__innodb_status.txt"
#: A MariaDB dump in `mysql -B` layout (one escaped line) whose deadlock quotes a long SELECT.
IDARA = RW + "idara-me_POS-Awesome__innodb.txt"
FK_ERROR = "percona-toolkit/t/pt-fk-error-logger/samples/is002.txt"
SYSBENCH_VARIABLES = "mariadb-10.11-sysbench/s01_idle_default.global_variables.tsv"
EVERY_DUMP = sorted(
    [f"{RW}{path.name}" for path in (CORPUS / RW).iterdir()]
    + [f"percona-toolkit/{p}" for p in PERCONA_TOOLKIT_DUMPS]
)


def _read(relative: str) -> str:
    return corpus_file(relative).read_bytes().decode("utf-8", errors="surrogateescape")


def _facts(text: str) -> dict[str, Any]:
    """Everything the parser read, but the file name; warnings by message (line numbers move)."""
    status = parse_innodb_status(text, "innodb_status.txt")
    facts = {name: getattr(status, name) for name in status.__struct_fields__}
    facts["warnings"] = [warning.message for warning in status.warnings]
    return facts


def test_deadlock_and_foreign_key_statements_and_records_are_gone() -> None:
    """cralls: the deadlock's DELETE/UPDATE, the FK error's INSERT, record values and the user go."""
    original = _read(CRALLS)
    stripped, removed = strip_innodb_status(original)
    quoted = [
        "DELETE FROM `catalog_product_entity_varchar` WHERE (attribute_id = '85')",
        "INSERT INTO `os_purchase_order_item`",
        "UPDATE `catalog_product_entity_varchar` SET `value`",
        "maxima-maxima-coolanol",  # a column value in a record dump
        "hex 8001cd2e",
        "localhost happytrail_m2",  # the connection's host and user
    ]
    assert all(text in original for text in quoted)
    assert [text for text in quoted if text in stripped] == []
    assert removed > 1000
    assert "MySQL thread id 1157088, OS thread handle 140239814997760, query id 2011796935\n" in stripped
    assert "LOCK WAIT 15 lock struct(s), heap size 1128, 12 row lock(s), undo log entries 40" in stripped
    assert "2023-11-22 14:04:19 0x7f94005c3700 Transaction:\n" + FOREIGN_KEY_NOTE in stripped


def test_the_audit_reads_the_same_numbers_from_the_stripped_cralls_dump() -> None:
    """Transactions (ACTIVE seconds, row locks, undo entries), history length and the deadlock survive."""
    original, stripped = _facts(_read(CRALLS)), _facts(strip_innodb_status(_read(CRALLS))[0])
    assert stripped == original
    assert stripped["has_deadlock"] and stripped["has_foreign_key_error"]
    assert stripped["latest_deadlock_at"] == "2023-11-24 06:15:17"
    assert stripped["history_list_length"] == original["history_list_length"] is not None


def test_a_batch_layout_dump_is_unescaped_then_stripped() -> None:
    """idara (`mysql -B`, one line): the SELECT and its literals go; the deadlock and numbers stay."""
    original = _read(IDARA)
    stripped, _ = strip_innodb_status(original)
    assert "voucher_type" in original and "Salad bowls" in original
    assert "voucher_type" not in stripped and "Salad bowls" not in stripped
    assert "\\n" not in stripped.split("\n", 3)[2]  # the raw layout now, real newlines
    assert _facts(stripped) == _facts(original)


def test_a_foreign_key_error_keeps_only_its_time() -> None:
    """pt-fk-error-logger is002: the INSERT and the tuple dump go; the FK error is still seen."""
    stripped, _ = strip_innodb_status(_read(FK_ERROR))
    assert "insert into t2(a) values(1)" not in stripped
    assert "CONSTRAINT `t2_ibfk_1`" not in stripped
    assert "070915 15:10:24 Transaction:\n" + FOREIGN_KEY_NOTE + "\n------------\nTRANSACTIONS" in stripped
    assert parse_innodb_status(stripped, "x").has_foreign_key_error


@pytest.mark.parametrize("relative", EVERY_DUMP)
def test_every_corpus_dump_parses_alike_after_stripping(relative: str) -> None:
    """On each corpus dump the parser finds the same values before and after stripping."""
    original = _read(relative)
    try:
        before = _facts(original)
    except InputError:
        pytest.fail(f"{relative} no longer parses: the corpus list is stale")
    stripped, _ = strip_innodb_status(original)
    assert _facts(stripped) == before
    assert " 0: len " not in stripped  # no record field survives anywhere


def test_credential_like_variables_are_masked_and_the_audit_does_not_change() -> None:
    """A real MariaDB variables dump: secrets masked, policy switches (max_password_errors) and empty
    values left as they are, same findings as before."""
    text = _read(SYSBENCH_VARIABLES)
    rows = [tuple(line.split("\t", 1)) for line in text.splitlines()[1:] if "\t" in line]
    rows.append(("wsrep_sst_auth", "sstuser:s3cret-sst"))
    rows.append(("hashicorp_key_management_token", "hvs.s3cret-token"))
    redacted = redact_variables(rows)  # type: ignore[arg-type]
    masked = {name for (name, value), (_, shown) in zip(rows, redacted, strict=True) if shown != value}
    assert {"wsrep_sst_auth", "hashicorp_key_management_token"} <= masked
    assert all(dict(redacted)[name] == REDACTED for name in masked)
    policy = {"old_passwords", "secure_auth", "max_password_errors", "default_password_lifetime"}
    policy |= {"strict_password_validation", "disconnect_on_expired_password"}
    assert not masked & policy  # switches that share a word with secrets and hold none stay readable
    assert policy <= dict(rows).keys()
    assert dict(redacted)["report_password"] == ""  # nothing set, nothing hidden
    assert "innodb_ft_max_token_size" not in masked and "innodb_buffer_pool_size" not in masked
    assert "s3cret" not in "".join(value for _, value in redacted)

    def findings(pairs: list[tuple[str, str]]) -> list[dict[str, Any]]:
        dump = "Variable_name\tValue\n" + "".join(f"{name}\t{value}\n" for name, value in pairs)
        assert parse_variables(dump, "variables.tsv").values
        return run_audit(AuditInputs(variables=dump)).to_dict()["findings"]

    assert findings(redacted) == findings(rows)  # type: ignore[arg-type]
