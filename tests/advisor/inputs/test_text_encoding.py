"""UTF-16 input (PowerShell's `>`) is refused by every parser with a message that says to save it as
UTF-8, whether the CLI (surrogateescape) or the API (replace) decoded it; binary files stay binary."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.errors import InputError
from advisor.inputs.innodb_status import parse_innodb_status
from advisor.inputs.optionfiles import parse_option_file
from advisor.inputs.schema import parse_schema
from advisor.inputs.statusvars import parse_status, parse_variables
from advisor.inputs.text_encoding import looks_utf16
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default"
PARSERS: list[tuple[str, Callable[[str, str], object]]] = [
    (f"{SYSBENCH}.global_variables.tsv", parse_variables),
    (f"{SYSBENCH}.global_status.tsv", parse_status),
    (f"{SYSBENCH}.innodb_status.txt", parse_innodb_status),
    (f"{SYSBENCH}.is_tables.tsv", parse_schema),
    ("realworld/mycnf/AbhishekGhosh_my.cnf__my.cnf", parse_option_file),
]


@pytest.mark.parametrize(("relative", "parse"), PARSERS, ids=[relative for relative, _ in PARSERS])
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("errors", ["surrogateescape", "replace"])  # the CLI's and the API's decoding
def test_utf16_is_refused_naming_the_file(
    relative: str, parse: Callable[[str, str], object], encoding: str, errors: str
) -> None:
    """With or without a byte-order mark, either byte order: `save it as UTF-8`, naming the file."""
    text = corpus_file(relative).read_text().encode(encoding).decode("utf-8", errors=errors)
    with pytest.raises(InputError) as caught:
        parse(text, "pasted.txt")
    assert caught.value.file == "pasted.txt"
    assert "UTF-16" in caught.value.message and "save it as UTF-8" in caught.value.message


def test_a_binary_file_is_not_called_utf16() -> None:
    """An encrypted .mylogin.cnf has NUL bytes too, but not every other character."""
    data = corpus_file("realworld/other/ltangvald_mysql__mylogin-bad-cipher.cnf").read_bytes()
    assert not looks_utf16(data.decode("utf-8", errors="replace"))
    assert not looks_utf16(corpus_file(PARSERS[0][0]).read_text())
