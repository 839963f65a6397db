"""The one redactor over every input kind: statements in InnoDB status, JSON in every shape, messages;
arbitrary text never raises, and redacting twice changes nothing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from advisor.redact_inputs import InputKind, redact_input, redact_json, redact_message, redact_sql

SECRET = "Tr0ub4dor-3x"


@pytest.mark.parametrize(
    "statement",
    [
        "ALTER USER 'app'@'%' IDENTIFIED BY '{s}'",
        'alter user app identified by "{s}"',
        "CREATE USER 'etl'@'%' IDENTIFIED WITH mysql_native_password BY '{s}'",
        "CREATE USER 'x'@'%' IDENTIFIED WITH 'caching_sha2_password' AS '{s}'",
        "GRANT ALL ON *.* TO 'u'@'%' IDENTIFIED BY PASSWORD '{s}'",
        "SET PASSWORD FOR 'app'@'10.0.0.%' = '{s}'",
        "SET PASSWORD = PASSWORD('{s}')",
        "SET PASSWORD FOR u = OLD_PASSWORD('{s}')",
        "CHANGE MASTER TO MASTER_HOST='db1', MASTER_PASSWORD='{s}', MASTER_PORT=3306",
        "CHANGE REPLICATION SOURCE TO SOURCE_PASSWORD = '{s}'",
        "CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'u', PASSWORD '{s}')",
        "ALTER USER 'app'@'%' IDENTIFIED BY '{s}",  # cut off by InnoDB inside the literal
        "ALTER USER 'app'@'%' IDENTIFIED BY 'it''s-{s}'",
    ],
)
def test_password_clauses_in_statement_text_lose_their_literal(statement: str) -> None:
    """Every password clause, however spelled, keeps its statement but not its literal."""
    text = f"---TRANSACTION 1, ACTIVE 3 sec\nMariaDB thread id 9, query id 7 localhost root\n{statement.format(s=SECRET)}\n"
    redacted = redact_input(InputKind.INNODB_STATUS, text)
    assert SECRET not in redacted and "[REDACTED]" in redacted
    assert redacted.startswith("---TRANSACTION 1, ACTIVE 3 sec\nMariaDB thread id 9")


@pytest.mark.parametrize(
    "document",
    [
        {"report_password": SECRET, "version": "10.11.6"},
        [
            {"Variable_name": "version", "Value": "10.11"},
            {"VALUE": SECRET, "VARIABLE_NAME": "report_password"},
        ],
        {"global": {"global": {"wsrep_sst_auth": f"root:{SECRET}"}}, "local": None},
        [{"innodb_buffer_pool_size": 1}, {"report_password": 987654321}],
    ],
)
def test_json_in_every_shape_is_walked(document: object) -> None:
    """Members named like secrets and secret `{Variable_name, Value}` rows are redacted; the
    result is still JSON with every other value kept."""
    for text in (json.dumps(document), json.dumps(document, indent=3)):
        redacted = redact_input(InputKind.VARIABLES, text)
        assert SECRET not in redacted and "987654321" not in redacted
        json.loads(redacted)
        assert "[REDACTED]" in redacted


def test_json_lines_and_broken_json() -> None:
    """One document per line stays one per line; JSON that does not parse still loses its pairs."""
    lines = f'{{"report_password": "{SECRET}"}}\n{{"version": "10.11"}}\n'
    redacted = redact_json(lines)
    assert SECRET not in redacted and len(redacted.splitlines()) == 2
    assert SECRET not in redact_json(f'{{"report_password": "{SECRET}", broken')


def test_text_without_secrets_is_returned_as_it_is() -> None:
    """No secret, no change: layouts stay byte for byte (the common case)."""
    text = '{"version":"10.11.6","innodb_buffer_pool_size":134217728}'
    assert redact_input(InputKind.VARIABLES, text) is text
    assert (
        redact_sql("SELECT c FROM sbtest1 WHERE id = 'password'")
        == "SELECT c FROM sbtest1 WHERE id = 'password'"
    )


def test_messages_quoting_any_layout_are_redacted() -> None:
    """Parser errors quote the refused line: whatever its layout, the value after a secret name goes."""
    for message in (
        f"variables:3: line not understood: 'password {SECRET}'",
        f"my.cnf:2: 'report-password: {SECRET}'",
        f'schema: bad member "report_password": "{SECRET}"',
        f"innodb_status: near ALTER USER u IDENTIFIED BY '{SECRET}'",
    ):
        assert SECRET not in redact_message(message), message


@given(kind=st.sampled_from(list(InputKind)), text=st.text(max_size=300))
def test_any_text_redacts_without_error_and_idempotently(kind: InputKind, text: str) -> None:
    """Arbitrary text never raises, and a second pass changes nothing."""
    once = redact_input(kind, text)
    assert redact_input(kind, once) == once
    assert redact_message(redact_message(text)) == redact_message(text)
