"""Every variables/status dump of the corpus parses; every near-miss is refused with InputError."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.errors import InputError
from advisor.inputs.statusvars import parse_status, parse_variables
from tests.corpus import CORPUS, corpus_file

STATUS_FILES = sorted(
    [
        *(CORPUS / "realworld/status").iterdir(),
        *(CORPUS / "mariadb-10.11-sysbench").glob("*global_status*"),
        *(CORPUS / "percona-toolkit/t/pt-mysql-summary/samples").glob("*/mysql-status*"),
        *(CORPUS / "percona-toolkit/t/pt-mysql-summary/samples").glob("mysql-status-*"),
        *(CORPUS / "percona-toolkit/t/pt-mext/samples").iterdir(),
    ]
)
VARIABLES_FILES = sorted(
    [
        *(CORPUS / "realworld/variables").iterdir(),
        *(CORPUS / "mariadb-10.11-sysbench").glob("*global_variables*"),
        *(CORPUS / "percona-toolkit/t/pt-mysql-summary/samples").glob("*/mysql-variables"),
        *(CORPUS / "percona-toolkit/t/pt-mysql-summary/samples").glob("*variables*"),
        *(CORPUS / "percona-toolkit/t/lib/samples/show-variables").iterdir(),
        *(CORPUS / "percona-toolkit/t/lib/samples/configs").glob("mysqldhelp*"),
    ]
)
NOT_DUMPS = [
    "percona-toolkit/t/pt-variable-advisor/samples/vars001.txt",
    "percona-toolkit/t/pt-variable-advisor/samples/vars001-verbose.txt",
    "realworld/other/docker-library_mysql__cluster-7.6__mysql-cluster.cnf",
    "realworld/other/geerlingguy_ansible-role-mysql__my.cnf.j2",
    "realworld/other/kjellm_munin-mysql__mysql_51_data.pm",
    "realworld/other/ltangvald_mysql__mtr-5.7__rpl_rewrt_db-slave.opt",
    "realworld/other/ltangvald_mysql__mylogin-bad-cipher.cnf",
    "realworld/other/puppetlabs_puppetlabs-mysql__my.cnf.epp",
    "realworld/mycnf/AbhishekGhosh_my.cnf__my.cnf",
    "realworld/innodb_status/DataDog_integrations-core__innodb_status_mariadb_105.txt",
    "mariadb-10.11-sysbench/s02_load_rw_default.innodb_status.txt",
    "mariadb-10.11-sysbench/s02_load_rw_default.sysbench.txt",
]


def test_the_corpus_file_lists_are_not_empty() -> None:
    """The globs find the files (a moved corpus must fail here, not pass with nothing to test)."""
    assert len(STATUS_FILES) == 31
    assert len(VARIABLES_FILES) == 33


@pytest.mark.parametrize("path", STATUS_FILES, ids=lambda path: str(path.relative_to(CORPUS)))
def test_every_status_file_parses(path: Path) -> None:
    """Each status dump yields samples that all carry Uptime and hundreds of counters."""
    samples = parse_status(path.read_text(encoding="utf-8"), path.name)
    assert samples
    for sample in samples:
        assert sample.uptime is not None and sample.uptime >= 0
        assert len(sample.values) > 200
        assert sample.number("Questions") is not None or sample.number("Com_select") is not None


@pytest.mark.parametrize("path", VARIABLES_FILES, ids=lambda path: str(path.relative_to(CORPUS)))
def test_every_variables_file_parses(path: Path) -> None:
    """Each variables dump yields a mapping with lower-case identifier names."""
    dump = parse_variables(path.read_text(encoding="utf-8"), path.name)
    assert dump.values
    assert all(name == name.lower() and name.isidentifier() for name in dump.values)
    if len(dump.values) > 100:
        assert dump.get("max_connections") is not None


@pytest.mark.parametrize("relative", NOT_DUMPS)
def test_files_that_are_not_dumps_are_refused_naming_a_line(relative: str) -> None:
    """Advisor reports, option files, InnoDB status, scripts and binaries are refused, not misread."""
    text = corpus_file(relative).read_text(encoding="utf-8", errors="replace")
    for parse in (parse_status, parse_variables):
        with pytest.raises(InputError) as caught:
            parse(text, relative)
        assert caught.value.file == relative
        assert caught.value.line is not None


def test_a_bad_line_inside_a_dump_is_named() -> None:
    """A line that fits no rule inside an otherwise good -B dump is reported by its number."""
    lines = (
        corpus_file("mariadb-10.11-sysbench/s02_load_rw_default.global_status.tsv").read_text().splitlines()
    )
    lines.insert(100, "this is not a status row")
    with pytest.raises(InputError) as caught:
        parse_status("\n".join(lines), "edited.tsv")
    assert caught.value.line == 101
    assert "this is not a status row" in caught.value.message


def test_a_cut_off_multi_line_table_value_is_named() -> None:
    """A boxed row whose spilled value never closes names the row where it began."""
    text = "+------+-----+\n| Variable_name | Value |\n| Rsa_public_key | -----BEGIN\nMIIB\n"
    with pytest.raises(InputError) as caught:
        parse_status(text, "cut.txt")
    assert caught.value.line == 3


def test_empty_text_is_refused() -> None:
    """Blank input is an InputError, not an empty dump."""
    for text in ("", "\n\n  \n", "Variable_name\tValue\n"):
        with pytest.raises(InputError):
            parse_variables(text, "empty")


LINE_PIECES = st.sampled_from(
    [
        "| ",
        " | ",
        " |",
        "+---",
        "*** 1. row ***",
        "Variable_name: ",
        "Value: ",
        "\t",
        " ",
        "{",
        "}",
        "[",
        "]",
        '"',
        '","',
        ",",
        ":",
        "TS 1 ",
        "Uptime",
        "Com_commit",
        "1",
        "-3",
        "ON",
        "\n",
        "mysql> ",
        "Variables (--variable-name=value)\n",
        "---- ----\n",
        "1. row",
        "\\n",
        "null",
        "true",
    ]
)
LAYOUTISH = st.lists(st.one_of(LINE_PIECES, st.text(max_size=6)), max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(), LAYOUTISH))
def test_arbitrary_text_parses_or_raises_input_error(text: str) -> None:
    """Whatever the text, the parsers return a result or raise InputError, nothing else."""
    for parse in (parse_status, parse_variables):
        try:
            parse(text, "fuzz")
        except InputError as error:
            assert error.file == "fuzz"


NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,30}", fullmatch=True).filter(
    lambda name: name.lower() != "variable_name"
)
VALUES = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=30).map(str.strip)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(NAMES, VALUES, min_size=1, max_size=20))
def test_batch_table_vertical_and_json_renderings_round_trip(rows: dict[str, str]) -> None:
    """The same rows written as -B, client table, \\G and JSON parse back to the same mapping."""
    import json

    expected = {}
    for name, value in rows.items():
        expected[name.lower()] = value
    width = max(map(len, rows)), max(map(len, rows.values()))
    table = "\n".join(f"| {n.ljust(width[0])} | {v.ljust(width[1])} |" for n, v in rows.items())
    vertical = "\n".join(
        f"*** {i}. row ***\nVariable_name: {n}\n        Value: {v}"
        for i, (n, v) in enumerate(rows.items(), 1)
    )
    texts = {
        "batch": "Variable_name\tValue\n" + "".join(f"{n}\t{v}\n" for n, v in rows.items()),
        "table": f"+{'-' * (width[0] + 2)}+{'-' * (width[1] + 2)}+\n{table}\n",
        "vertical": vertical,
        "json": json.dumps(rows),
    }
    for layout, text in texts.items():
        assert dict(parse_variables(text, layout).values) == expected, layout
