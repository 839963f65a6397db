"""Editing an option file: each edit touches only its own lines and keeps every other byte."""

from __future__ import annotations

import difflib

import pytest

from advisor.inputs.optionfiles import OptionFile, parse_option_file
from tests.corpus import corpus_file

SYSBENCH = "realworld/mycnf/docularxu_sysbench-mysql-tests-scripts__mysqld.cnf"
XAMPP = "realworld/mycnf/ITS-Java-Datenbanken-Projekt_xampp__my.ini"
BARON = "percona-toolkit/t/lib/samples/configs/mycnf-baron-002.txt"
KC = "percona-toolkit/t/lib/samples/configs/mycnf-kc-001.txt"
WINDOWS_PATHS = "realworld/mycnf/MuggleWei_useful_scripts__mysql__my.ini"


def load(relative: str) -> OptionFile:
    return parse_option_file(corpus_file(relative).read_bytes().decode("utf-8"), relative)


def changes(before: str, after: str) -> list[str]:
    """The changed lines, as `-old`/`+new` (line endings shown)."""
    diff = difflib.ndiff(before.splitlines(keepends=True), after.splitlines(keepends=True))
    return [line[0] + line[2:] for line in diff if line[:1] in "+-"]


def test_set_value_keeps_name_spacing_and_utf8_comment() -> None:
    """150G → 64G on the sysbench file's line 109 changes that line only, inline comment included."""
    original = load(SYSBENCH)
    edited = original.copy()
    edited.set_value(109, "64G")
    assert changes(original.serialise(), edited.serialise()) == [
        "-innodb_buffer_pool_size=150G #设置buffer poll size, 服务器内存 60%\n",
        "+innodb_buffer_pool_size=64G #设置buffer poll size, 服务器内存 60%\n",
    ]
    assert [entry.value for entry in edited.entries() if entry.line == 109] == ["64G"]


def test_copy_leaves_the_original_alone() -> None:
    """Edits on a copy never reach the parsed original."""
    original = load(SYSBENCH)
    text = original.serialise()
    edited = original.copy()
    edited.set_value(109, "1G")
    edited.comment_out(136)
    assert original.serialise() == text
    assert edited.serialise() != text


def test_crlf_survives_edits_and_additions() -> None:
    """Editing and adding in the CRLF xampp my.ini writes CRLF lines; nothing else changes."""
    original = load(XAMPP)
    edited = original.copy()
    edited.set_value(36, "64M")
    edited.add_option("mysqld", "innodb_buffer_pool_size", "1G", "innotune memory.buffer_pool")
    before, after = original.serialise(), edited.serialise()
    assert after.count("\r\n") == before.count("\r\n") + 2
    assert "\n" not in after.replace("\r\n", "")
    assert changes(before, after) == [
        "-key_buffer=16M\r\n",
        "+key_buffer=64M\r\n",
        "+# innotune memory.buffer_pool\r\n",
        "+innodb_buffer_pool_size=1G\r\n",
    ]


def test_add_option_goes_after_the_last_option_of_the_section() -> None:
    """In mycnf-baron-002 a new [mysqld] option lands after line 98, the section's last option, spaced
    like it (`name=value`), before the file's final blank line."""
    original = load(BARON)
    edited = original.copy()
    edited.add_option("mysqld", "innodb_log_file_size", "2G", "innotune redo.size")
    lines = edited.serialise().split("\n")
    assert lines[97:] == [
        "slave-load-tmpdir=/mnt/tmp",
        "# innotune redo.size",
        "innodb_log_file_size=2G",
        "",
        "",
    ]
    assert len(changes(original.serialise(), edited.serialise())) == 2


def test_add_option_creates_the_group_at_the_end() -> None:
    """A file without [mysqld] gets a new section after a blank line at the end."""
    option_file = parse_option_file("[client]\nport = 3306\n", "my.cnf")
    option_file.add_option("mysqld", "max_connections", "500", "innotune connections")
    assert (
        option_file.serialise()
        == "[client]\nport = 3306\n\n[mysqld]\n# innotune connections\nmax_connections = 500\n"
    )


def test_add_option_to_a_file_without_final_newline() -> None:
    """MuggleWei's my.ini lacks a final newline: additions go after its last line, text before is kept."""
    original = load(WINDOWS_PATHS)
    edited = original.copy()
    edited.add_option("client", "protocol", "tcp")
    before, after = original.serialise(), edited.serialise()
    assert after.startswith(before + "\n")
    assert after.endswith("protocol=tcp") or after.endswith("protocol = tcp")


def test_comment_out_keeps_the_text_with_a_note() -> None:
    """Commenting out `skip-locking` (baron line 22) keeps it readable with the reason after it."""
    original = load(BARON)
    edited = original.copy()
    edited.comment_out(22, "innotune compat.removed: removed in MySQL 5.5")
    assert changes(original.serialise(), edited.serialise()) == [
        "-skip-locking\n",
        "+# skip-locking  # innotune compat.removed: removed in MySQL 5.5\n",
    ]
    assert all(entry.line != 22 for entry in edited.entries())


def test_remove_deletes_one_line() -> None:
    """remove() drops exactly the line asked for."""
    original = load(BARON)
    edited = original.copy()
    edited.remove(22)
    assert changes(original.serialise(), edited.serialise()) == ["-skip-locking\n"]


def test_quoted_value_keeps_its_quotes() -> None:
    """Editing the quoted password of mycnf-kc-001 keeps the quotes and the trailing comment."""
    edited = load(KC)
    edited.set_value(3, "new # secret")
    assert edited.line_text(3) == 'password="new # secret"# comment'
    assert [entry.value for entry in edited.entries() if entry.line == 3] == ["new # secret"]


def test_set_value_on_a_bare_flag_adds_the_value() -> None:
    """`log_bin # bool with comment` (kc line 9) becomes `log_bin = OFF # bool with comment`."""
    edited = load(KC)
    edited.set_value(9, "OFF")
    assert edited.line_text(9) == "log_bin = OFF # bool with comment"


def test_values_that_need_quotes_get_them() -> None:
    """A value with `#`, quotes or a trailing space is written quoted and escaped, and reads back."""
    option_file = parse_option_file("[mysqld]\ninit_connect = x\n", "my.cnf")
    for value in ["SET NAMES utf8mb4 # x", 'say "hi"', "trailing ", "C:\\data\\", "", "tab\there"]:
        option_file.set_value(2, value)
        assert option_file.entries()[0].value == value


def test_replace_option_rewrites_a_prefixed_line() -> None:
    """`skip-log-bin` (sysbench line 54) can become `log_bin = ON` in place."""
    edited = load(SYSBENCH)
    edited.replace_option(54, "log_bin", "ON")
    assert edited.line_text(54) == "log_bin = ON"


def test_edits_refuse_lines_that_are_not_options() -> None:
    """set_value on a comment line is a programming error, not silent damage."""
    option_file = load(BARON)
    with pytest.raises(ValueError):
        option_file.set_value(1, "x")
    with pytest.raises(IndexError):
        option_file.comment_out(10_000)


def test_origins_mark_added_and_edited_lines() -> None:
    """origins() maps current lines to parsed ones: None for new or edited lines."""
    option_file = parse_option_file("[mysqld]\na = 1\nb = 2\n", "my.cnf")
    option_file.set_value(2, "5")
    option_file.add_option("mysqld", "c", "3")
    assert option_file.origins() == [1, None, 3, None]
