"""The whole-text reader of plain `name<TAB>value` dumps: it reads what the line-by-line reader reads, and
declines every text it cannot vouch for line by line (which then reads as it always did)."""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.errors import InputError
from advisor.inputs.statusvars import read_samples
from advisor.inputs.tabular import RawSamples
from advisor.inputs.tabular_fast import plain_tsv
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/s02_load_rw_default."
PLAIN = "Variable_name\tValue\nUptime\t100\nCom_select\t7\nversion\t10.11.6-MariaDB\n"


def line_by_line(text: str) -> RawSamples | str:
    """What read_samples gives with the whole-text reader switched off (an error as its text)."""
    with mock.patch("advisor.inputs.statusvars.plain_tsv", return_value=None):
        try:
            return read_samples(text, "dump.tsv")
        except InputError as exc:
            return str(exc)


def as_read(text: str) -> RawSamples | str:
    try:
        return read_samples(text, "dump.tsv")
    except InputError as exc:
        return str(exc)


@pytest.mark.parametrize("name", ["global_variables.tsv", "global_status.tsv", "global_status.t20s.tsv"])
def test_sysbench_dumps_are_read_whole_as_the_line_reader_reads_them(name: str) -> None:
    """The bench's dumps take the whole-text path, and give the same names, values and order."""
    text = corpus_file(SYSBENCH + name).read_text()
    values = plain_tsv(text)
    assert values is not None
    reference = line_by_line(text)
    assert isinstance(reference, RawSamples)
    assert reference.samples == [values]
    assert list(reference.samples[0]) == list(values)


def test_names_are_lowered_and_the_last_of_a_name_given_twice_wins_in_the_first_place() -> None:
    """`Dup` then `DUP`: one key `dup`, where `Dup` stood, with the later value, as the line reader does."""
    text = "Dup\t1\nOther\tx\nDUP\t2\n"
    assert plain_tsv(text) == {"dup": "2", "other": "x"}
    assert list(plain_tsv(text) or {}) == ["dup", "other"]
    assert as_read(text) == line_by_line(text)


@pytest.mark.parametrize(
    ("text", "samples"),
    [
        (PLAIN + "Variable_name\tValue\nUptime\t200\n", 2),  # a header further down: a new sample
        (PLAIN + "VARIABLE_NAME\tVALUE\nUptime\t200\n", 2),
        (PLAIN + "TS 1700000000.5 2026-11-25\nUptime\t200\n", 2),  # a pt-stalk stamp: a new sample
        ("TS 1700000000\n" + PLAIN, 1),
        (PLAIN.replace("Uptime\t100\n", "Uptime\t100\n\n"), 1),  # a blank line inside
        ("\n" + PLAIN, 1),
        (PLAIN + "\n", 1),  # two newlines at the end
        (PLAIN + "mysql: [Warning] Using a password on the command line\n", 1),
        ("mysql> SHOW GLOBAL STATUS;\n" + PLAIN, 1),
        (PLAIN + "init_connect\n", 1),  # `name<TAB>` whose tab an editor trimmed
        (PLAIN + "  indented\tvalue\n", 1),
        (PLAIN + "sql_mode\tA\tB\n", 1),  # a value holding a tab
        (PLAIN + "bare_name\nx\tON\tOFF\n", 1),  # one line short of a tab, the next one over
        (PLAIN + "nämé\tvalue\n", 1),  # an identifier outside ASCII
        (PLAIN + "\u212aey_buffer_size\t1\n", 1),  # KELVIN SIGN lowers to an ASCII k
    ],
)
def test_odd_texts_are_declined_and_read_line_by_line(text: str, samples: int) -> None:
    """Headers and TS stamps between samples, blank lines, noise, tabs in values, names outside ASCII:
    the whole-text reader says None, and the text reads exactly as the line reader reads it."""
    assert plain_tsv(text) is None
    read = as_read(text)
    assert read == line_by_line(text)
    assert isinstance(read, RawSamples)
    assert len(read.samples) == samples


@pytest.mark.parametrize(
    "text",
    [
        PLAIN + "| table_open_cache | 2000 |\n",
        PLAIN + "1st_name\tvalue\n",
        PLAIN + "na\udcffme\t1\n",  # a byte not UTF-8, kept by the client as a lone surrogate
        PLAIN + "\tvalue without a name\n",
        "Variable_name\tValue\n",
        "Variable_name\tValue",
        "\t\n",
        "",
    ],
)
def test_texts_the_line_reader_refuses_are_refused_with_the_same_error(text: str) -> None:
    """A table row or a name led by a digit among tab rows, a header alone, an empty text: declined,
    and the error names the same line with the same words."""
    assert plain_tsv(text) is None
    error = as_read(text)
    assert isinstance(error, str)
    assert error == line_by_line(text)


_LINES = st.sampled_from(
    [
        "Uptime\t10",
        "com_select\t3",
        "Variable_name\tValue",
        "VARIABLE_NAME\tvalue",
        "TS 1700000000.1 x",
        "TS\t5",
        "",
        "   ",
        "name",
        "a\tb\tc",
        "\tv",
        "9lives\t1",
        "_x\t",
        "Ünï\t1",
        "| a | b |",
        "mysql> x",
        "3 rows in set (0.00 sec)",
        "x\tvä\rl",
        "version\t10.11.6",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=12), st.booleans())
def test_any_mix_of_lines_reads_as_the_line_reader_reads_it(lines: list[str], newline: bool) -> None:
    """Whatever lines a paste mixes, read_samples gives what the line reader gives: samples or error."""
    text = "\n".join(lines) + ("\n" if newline else "")
    assert as_read(text) == line_by_line(text)
