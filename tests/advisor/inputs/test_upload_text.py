"""An option file saved as Latin-1: its comments are read (mariadbd 10.11.19 starts with `# Réglages` as
the byte 0xE9), while bytes that are not UTF-8 in a name or value are refused naming the line."""

from __future__ import annotations

import pytest

from advisor.errors import InputError
from advisor.inputs.optionfiles import parse_option_file
from advisor.inputs.upload_text import decode_option_file
from tests.corpus import corpus_file


def test_utf8_text_is_read_as_it_is() -> None:
    data = "[mysqld]\n# Réglages\nmax_connections = 100\n".encode()
    assert decode_option_file(data) == data.decode()


def test_latin1_comments_are_read_and_the_file_parses() -> None:
    data = b"[mysqld]\n# R\xe9glages du serveur\n; \xe9t\xe9\nmax_connections = 100 # r\xe9glage\n"
    text = decode_option_file(data)
    assert "# Réglages du serveur" in text and "; été" in text and "# réglage" in text
    parsed = parse_option_file(text, "/etc/mysql/my.cnf")
    assert [(entry.name, entry.value) for entry in parsed.entries()] == [("max_connections", "100")]


@pytest.mark.parametrize(
    "line",
    [b"datadir = /var/lib/r\xe9pertoire", b"init_connect = \"SET @a='\xe9 # x'\"", b"r\xe9gle = 1"],
)
def test_bytes_that_are_not_utf8_outside_a_comment_are_refused_naming_the_line(line: bytes) -> None:
    text = decode_option_file(b"[mysqld]\n" + line + b"\n")
    with pytest.raises(InputError) as caught:
        parse_option_file(text, "/etc/mysql/my.cnf")
    assert caught.value.line == 2
    assert (
        "not UTF-8 in an option line" in caught.value.message
        and "save the file as UTF-8" in caught.value.message
    )


def test_a_binary_file_is_still_binary() -> None:
    data = corpus_file("realworld/other/ltangvald_mysql__mylogin-bad-cipher.cnf").read_bytes()
    with pytest.raises(InputError) as caught:
        parse_option_file(decode_option_file(data), ".mylogin.cnf")
    assert "binary or undecodable content" in caught.value.message
