"""Schema facts from the documented query's TSV, raw information_schema.TABLES dumps, key-less lists and JSON."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.errors import InputError
from advisor.inputs.schema import SchemaFacts, TableFacts, parse_schema
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench"
QUERY_HEADER = (
    "TABLE_SCHEMA\tTABLE_NAME\tENGINE\tTABLE_ROWS\tDATA_LENGTH\tINDEX_LENGTH\t"
    "has_primary_key\thas_unique_not_null\tprimary_key_type"
)
SBTEST_NAMES = [f"sbtest{n}" for n in range(1, 9)]
# Each sysbench table in both snapshots: 45678592 bytes of rows, 3686400 of the secondary index k_1.
SBTEST_BYTES = 8 * (45678592 + 3686400)


def _read(name: str) -> tuple[str, str]:
    path = corpus_file(f"{SYSBENCH}/{name}")
    return path.read_text(), str(path)


def _error(text: str, file: str = "schema.tsv") -> InputError:
    with pytest.raises(InputError) as caught:
        parse_schema(text, file)
    return caught.value


def test_loaded_is_tables_dump_keeps_only_the_eight_sysbench_tables() -> None:
    """s02 is_tables.tsv: 300 rows, of which the 8 sbtest tables survive (system schemas and views go)."""
    text, file = _read("s02_load_rw_default.is_tables.tsv")
    facts = parse_schema(text, file)
    assert len(text.splitlines()) == 301
    assert facts.layout == "tables"
    assert [t.table for t in facts.tables] == SBTEST_NAMES
    assert {t.schema for t in facts.tables} == {"sbtest"}
    assert [t.rows for t in facts.tables] == [197351, 197352, 197352, 197352, 197351, 197352, 197352, 197352]
    assert sum(t.rows or 0 for t in facts.tables) == 1578814
    assert all(t.engine == "InnoDB" and t.has_primary_key is None for t in facts.tables)
    assert facts.innodb_data_and_index_bytes == SBTEST_BYTES == 394919936


def test_raw_dump_warns_that_keys_are_unknown_and_lists_none_as_keyless() -> None:
    """Without key columns nothing counts as key-less, and a warning points to the documented query."""
    text, file = _read("s01_idle_default.is_tables.tsv")
    facts = parse_schema(text, file)
    assert [t.rows for t in facts.tables] == [197352] * 8
    assert facts.tables_without_key() == ()
    assert len(facts.warnings) == 1
    assert "docs/schema-facts.md" in facts.warnings[0].message


def test_headerless_dump_reads_like_the_one_with_a_header() -> None:
    """`mysql -BN` of information_schema.TABLES (rows starting with `def`) gives the same tables."""
    text, file = _read("s02_load_rw_default.is_tables.tsv")
    headerless = text.split("\n", 1)[1]
    assert parse_schema(headerless, file).tables == parse_schema(text, file).tables


@pytest.mark.parametrize("name", ["s01_idle_default", "s02_load_rw_default"])
def test_empty_tables_without_key_file_means_no_keyless_table(name: str) -> None:
    """Both snapshots' tables_without_pk_or_unique.tsv are empty (sysbench tables have a PK): no table."""
    text, file = _read(f"{name}.tables_without_pk_or_unique.tsv")
    assert text == ""
    facts = parse_schema(text, file)
    assert (facts.tables, facts.layout, facts.tables_without_key()) == ((), "without_key", ())


def test_listed_tables_in_a_without_key_file_are_keyless() -> None:
    """The TABLES layout under a `tables_without_pk_or_unique` name marks each table key-less, most rows first."""
    text, _ = _read("s02_load_rw_default.is_tables.tsv")
    facts = parse_schema(text, "/tmp/x/s02.tables_without_pk_or_unique.tsv")
    assert facts.layout == "without_key"
    assert all(t.has_primary_key is False and t.has_unique_not_null is False for t in facts.tables)
    keyless = facts.tables_without_key()
    # The six tables with 197352 rows, then the two with 197351; equal sizes fall back to the name.
    assert [t.table for t in keyless] == [
        "sbtest2",
        "sbtest3",
        "sbtest4",
        "sbtest6",
        "sbtest7",
        "sbtest8",
        "sbtest1",
        "sbtest5",
    ]
    assert keyless[0].rows == 197352 and keyless[-1].rows == 197351
    assert facts.warnings == ()


def test_without_key_can_be_given_explicitly() -> None:
    """without_key=False overrides the file name; True applies to any name."""
    text, _ = _read("s02_load_rw_default.is_tables.tsv")
    assert parse_schema(text, "tables_without_pk.tsv", without_key=False).tables_without_key() == ()
    assert len(parse_schema(text, "schema.tsv", without_key=True).tables_without_key()) == 8


@pytest.mark.parametrize("snapshot", ["s01_idle_default", "s02_load_rw_default"])
def test_boxed_client_table_reads_like_the_tab_separated_dump(snapshot: str) -> None:
    """The client's +----+ table (is_tables.table.txt) gives the same facts as `mysql -B` output of the
    same query (is_tables.tsv), as the variables and status fields already read it."""
    boxed_text, boxed_file = _read(f"{snapshot}.is_tables.table.txt")
    tsv_text, tsv_file = _read(f"{snapshot}.is_tables.tsv")
    boxed, tsv = parse_schema(boxed_text, boxed_file), parse_schema(tsv_text, tsv_file)

    # Two captures of the same tables: TABLE_ROWS is InnoDB's estimate and moved by one between them.
    def sizes(facts: SchemaFacts) -> list[tuple[object, ...]]:
        return [(t.schema, t.table, t.engine, t.data_length, t.index_length) for t in facts.tables]

    assert sizes(boxed) == sizes(tsv) and boxed.layout == tsv.layout == "tables"
    assert boxed.innodb_data_and_index_bytes == SBTEST_BYTES


def test_a_boxed_row_of_another_width_names_its_line() -> None:
    """A value with a line break breaks the box: the error names the line and says to use -B."""
    text = (
        "+--------------+------------+\n"
        "| TABLE_SCHEMA | TABLE_NAME |\n"
        "+--------------+------------+\n"
        "| shop         | orders     |\n"
        "| shop         | a\nb |\n"
        "+--------------+------------+\n"
    )
    error = _error(text)
    assert error.line == 5 and "mysql -B" in error.message


def test_other_dumps_are_not_schema_facts() -> None:
    """SHOW GLOBAL VARIABLES as TSV has no TABLE_SCHEMA/TABLE_NAME header: refused at line 1."""
    text, file = _read("s02_load_rw_default.global_variables.tsv")
    error = _error(text, file)
    assert error.line == 1
    assert "not schema facts" in error.message


QUERY_TSV = "\n".join(
    [
        QUERY_HEADER,
        "shop\torders\tInnoDB\t1200000\t524288000\t209715200\t1\t0\tbigint(20) unsigned",
        "shop\taudit_log\tInnoDB\t9000000\t1073741824\t0\t0\t0\tNULL",
        "shop\tsessions\tinnodb\t500\t16384\t0\t0\t1\tNULL",
        "shop\tevents\tInnoDB\t\\N\t16384\t16384\t0\t0\tNULL",
        "shop\tlegacy\tMyISAM\t10\t2048\t1024\t0\t0\tNULL",
        "shop\tuuids\tInnoDB\t7\t16384\t0\t1\t0\tchar(36)",
        "shop\tNULL\tInnoDB\t0\t16384\t0\t\\N\tNULL\tNULL",
        "",
    ]
)


def test_query_tsv_reads_every_column() -> None:
    """The documented query's output: flags from 0/1, NULL and \\N as None, the PK type kept."""
    facts = parse_schema(QUERY_TSV, "schema.tsv")
    assert facts.layout == "query"
    by_name = {t.table: t for t in facts.tables}
    assert by_name["orders"] == TableFacts(
        "shop", "orders", "InnoDB", 1200000, 524288000, 209715200, True, False, None, "bigint(20) unsigned"
    )
    assert by_name["audit_log"].primary_key_type is None
    assert by_name["events"].rows is None
    assert by_name["NULL"].has_primary_key is None and by_name["NULL"].has_unique_not_null is None
    assert by_name["uuids"].primary_key_type == "char(36)"


def test_keyless_tables_are_innodb_without_pk_or_not_null_unique_most_rows_first() -> None:
    """sessions has a NOT NULL unique key, legacy is MyISAM, NULL's keys are unknown: none of them counts."""
    facts = parse_schema(QUERY_TSV, "schema.tsv")
    assert [t.table for t in facts.tables_without_key()] == ["audit_log", "events"]


def test_innodb_bytes_count_any_spelling_of_innodb_and_skip_other_engines() -> None:
    """`innodb` counts like `InnoDB`; the MyISAM table does not."""
    facts = parse_schema(QUERY_TSV, "schema.tsv")
    assert (
        facts.innodb_data_and_index_bytes
        == 524288000 + 209715200 + 1073741824 + 16384 + 16384 * 2 + 16384 * 2
    )


def test_columns_match_by_name_in_any_case_and_order() -> None:
    """Lower-case, reordered headers with extra columns read the same; CRLF line ends are fine."""
    text = "x\thas_unique_not_null\ttable_name\ttable_schema\tengine\thas_primary_key\r\n1\tYES\tt\ts\tInnoDB\tno\r\n"
    (table,) = parse_schema(text, "schema.tsv").tables
    assert (table.schema, table.table, table.has_primary_key, table.has_unique_not_null) == (
        "s",
        "t",
        False,
        True,
    )
    assert table.rows is None and table.data_length is None


def test_system_schemas_and_views_are_skipped_in_the_query_layout_too() -> None:
    """Rows of mysql/sys and a VIEW row (when TABLE_TYPE is given) are left out."""
    text = "TABLE_SCHEMA\tTABLE_NAME\tTABLE_TYPE\nmysql\tuser\tBASE TABLE\nSYS\tx\tBASE TABLE\na\tv\tVIEW\na\ts\tSEQUENCE\na\th\tSYSTEM VERSIONED\n"
    assert [t.table for t in parse_schema(text, "schema.tsv").tables] == ["h"]


def test_escaped_names_are_unescaped() -> None:
    """`mysql -B` writes a tab in a name as \\t and a backslash as \\\\."""
    text = "TABLE_SCHEMA\tTABLE_NAME\nodd\\\\db\ta\\tb\n"
    (table,) = parse_schema(text, "schema.tsv").tables
    assert (table.schema, table.table) == ("odd\\db", "a\tb")


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (QUERY_HEADER + "\nshop\torders\tInnoDB\n", 2, "expected 9 tab-separated fields"),
        ("TABLE_SCHEMA\tTABLE_NAME\tTABLE_ROWS\n\ns\tt\tmany\n", 3, "`rows` must be a whole number"),
        ("TABLE_SCHEMA\tTABLE_NAME\tTABLE_ROWS\ns\tt\t-5\n", 2, "`rows` must be a whole number"),
        ("TABLE_SCHEMA\tTABLE_NAME\thas_primary_key\ns\tt\tperhaps\n", 2, "`has_primary_key` must be 1/0"),
        ("TABLE_SCHEMA\tTABLE_NAME\n\tt\n", 2, "`schema` must be a non-empty name"),
        ("\n\n*************************** 1. row ***************************\n", 3, "vertical"),
    ],
)
def test_bad_tsv_names_the_line(text: str, line: int, words: str) -> None:
    """Every TSV problem is an InputError at the offending line."""
    error = _error(text)
    assert (error.file, error.line) == ("schema.tsv", line)
    assert words in error.message


def test_duplicate_table_warns_and_keeps_the_last() -> None:
    """A table listed twice is counted once, with a warning at the second line."""
    text = "TABLE_SCHEMA\tTABLE_NAME\tTABLE_ROWS\ns\tt\t1\ns\tt\t2\n"
    facts = parse_schema(text, "schema.tsv")
    assert [t.rows for t in facts.tables] == [2]
    twice = [w for w in facts.warnings if "twice" in w.message]
    assert [(w.file, w.line, w.message) for w in twice] == [
        ("schema.tsv", 3, "s.t is listed twice; the last one counts")
    ]


def _sysbench_as_json() -> list[dict[str, object]]:
    text, file = _read("s02_load_rw_default.is_tables.tsv")
    return [
        {
            "schema": t.schema,
            "table": t.table,
            "engine": t.engine,
            "rows": t.rows,
            "data_length": t.data_length,
            "index_length": t.index_length,
            "has_primary_key": True,
            "has_unique_not_null": False,
        }
        for t in parse_schema(text, file).tables
    ]


def test_json_list_and_tables_object_read_alike() -> None:
    """The sysbench tables as a JSON list and as {"tables": [...]} give the same facts."""
    tables = _sysbench_as_json()
    as_list = parse_schema(json.dumps(tables, indent=2), "schema.json")
    as_object = parse_schema(json.dumps({"server": "db1", "tables": tables}), "schema.json")
    assert as_list.tables == as_object.tables
    assert as_list.layout == "json"
    assert as_list.innodb_data_and_index_bytes == SBTEST_BYTES
    assert as_list.tables_without_key() == ()
    assert as_list.tables[0].has_primary_key is True


def test_json_takes_information_schema_names_optional_fields_and_flag_spellings() -> None:
    """TABLE_SCHEMA/TABLE_ROWS keys, "yes"/0 flags, max_row_bytes and an ignored AVG_ROW_LENGTH all read."""
    text = json.dumps(
        [
            {
                "TABLE_SCHEMA": "a",
                "TABLE_NAME": "blobs",
                "ENGINE": "innodb",
                "TABLE_ROWS": "12",
                "AVG_ROW_LENGTH": 9,
            },
            {
                "schema": "a",
                "table": "k",
                "has_primary_key": 0,
                "has_unique_not_null": "yes",
                "max_row_bytes": 1048576,
            },
            {"schema": "mysql", "table": "user"},
        ]
    )
    blobs, k = parse_schema(text, "schema.json").tables
    assert (blobs.engine, blobs.rows, blobs.has_primary_key) == ("innodb", 12, None)
    assert (k.has_primary_key, k.has_unique_not_null, k.max_row_bytes) == (False, True, 1048576)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (
            '[\n  {"schema": "a", "table": "b"},\n  {"schema": "a", "table": "c", "rows": -1}\n]',
            3,
            "`rows` must be",
        ),
        (
            '{"tables": [\n {"schema": "a", "table": "b"},\n\n {"schema": "a", "table": "c", "has_primary_keys": 1}]}',
            4,
            "unknown key `has_primary_keys`",
        ),
        ('[\n  {"schema": "a", "table": "b"},\n  "c"\n]', 3, "tables[1] must be an object"),
        ('[\n  {"table": "b"}\n]', 2, "`schema` must be a non-empty name"),
        ('[\n  {"schema": "a", "table": "b", "engine": 5}\n]', 2, "`engine` must be text"),
        ('[\n  {"schema": "a", "table": "b",}\n]', 2, "not valid JSON"),
        ('{"rows": []}', 1, 'expected {"tables": [...]}'),
    ],
)
def test_bad_json_names_the_line_of_the_table(text: str, line: int, words: str) -> None:
    """A bad value or key is reported at the line where its table object starts."""
    error = _error(text, "schema.json")
    assert (error.file, error.line) == ("schema.json", line)
    assert words in error.message


def test_facts_built_by_hand_answer_the_same_questions() -> None:
    """SchemaFacts constructed directly (as advisors' tests do) sums and sorts the same way."""
    facts = SchemaFacts(
        "hand",
        (
            TableFacts("a", "small", "InnoDB", 10, 100, 0, False, None),
            TableFacts("a", "big", "InnoDB", 1000, 1000, 10, False, False),
            TableFacts("a", "unknown_rows", "InnoDB", None, 5, 0, False, None),
            TableFacts("a", "keyed", "InnoDB", 99999, 1, 1, True, None),
        ),
    )
    assert facts.innodb_data_and_index_bytes == 1117
    assert [t.table for t in facts.tables_without_key()] == ["big", "small", "unknown_rows"]


@given(st.text(max_size=400))
@settings(max_examples=400, deadline=None)
def test_any_text_gives_facts_or_an_input_error(text: str) -> None:
    """Arbitrary text never raises anything but InputError."""
    try:
        assert isinstance(parse_schema(text, "schema.any"), SchemaFacts)
    except InputError as error:
        assert error.file == "schema.any"


_CELLS = st.sampled_from(
    ["NULL", "\\N", "0", "1", "InnoDB", "", "yes", "-1", "BASE TABLE", "VIEW", "mysql"]
) | st.text(alphabet=st.characters(blacklist_characters="\t\n\r"), max_size=8)


@given(
    st.lists(
        st.sampled_from([*QUERY_HEADER.split("\t"), "TABLE_TYPE", "max_row_bytes", "x"]),
        min_size=1,
        max_size=10,
    ),
    st.lists(st.lists(_CELLS, min_size=1, max_size=10), max_size=6),
)
@settings(max_examples=400, deadline=None)
def test_any_tsv_rows_give_facts_or_an_input_error(header: list[str], rows: list[list[str]]) -> None:
    """TSV under a plausible header, with any cells and ragged rows: facts or InputError only."""
    text = "\n".join(["\t".join(header), *("\t".join(row) for row in rows)])
    try:
        facts = parse_schema(text, "schema.tsv")
    except InputError as error:
        assert error.file == "schema.tsv"
        return
    assert all(t.schema.lower() not in ("mysql", "sys") for t in facts.tables)


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=5,
)
_JSON_KEYS = st.sampled_from(
    ["schema", "table", "engine", "rows", "data_length", "has_primary_key", "TABLE_ROWS", "x"]
)


@given(
    st.lists(st.dictionaries(_JSON_KEYS, _JSON_VALUES, max_size=6) | _JSON_VALUES, max_size=5), st.booleans()
)
@settings(max_examples=400, deadline=None)
def test_any_json_gives_facts_or_an_input_error(tables: list[object], wrapped: bool) -> None:
    """Any JSON list of objects and values (wrapped in {"tables": ...} or not): facts or InputError only."""
    text = json.dumps({"tables": tables} if wrapped else tables, indent=1)
    try:
        parse_schema(text, "schema.json")
    except InputError as error:
        assert error.file == "schema.json"


def _read_every_row(text: str, file: str) -> SchemaFacts | str:
    """parse_schema with the system-schema rows not skipped ahead of the row loop (the error as text)."""
    every_row = lambda text, lines, start, *_: range(start, len(lines))  # noqa: E731
    with mock.patch("advisor.inputs.schema_tsv._rows_to_read", every_row):
        try:
            return parse_schema(text, file)
        except InputError as exc:
            return str(exc)


def _read_as_is(text: str, file: str) -> SchemaFacts | str:
    try:
        return parse_schema(text, file)
    except InputError as exc:
        return str(exc)


def _tables_dump_with(row: str, at: int) -> str:
    """The s02 TABLES dump with `row` put in as the `at`-th line (1-based)."""
    lines = _read("s02_load_rw_default.is_tables.tsv")[0].split("\n")
    return "\n".join([*lines[: at - 1], row, *lines[at - 1 :]])


@pytest.mark.parametrize(
    ("row", "line", "words"),
    [
        ("def\tmysql\tshort_row", 120, "expected 23 tab-separated fields"),
        ("def\tmysql\tlong_row" + "\tx" * 30, 150, "expected 23 tab-separated fields"),
        ("def\tsbtest\tsbtest9\tBASE TABLE\tInnoDB" + "\tx" * 18, 200, "`rows` must be a whole number"),
    ],
)
def test_a_bad_row_among_skipped_system_rows_still_names_its_line(row: str, line: int, words: str) -> None:
    """System-schema rows are left out without a split only when every row has the header's width: a
    row of another width among them is still the error at its line, as the row loop finds it."""
    error = _error(_tables_dump_with(row, line), "is_tables.tsv")
    assert (error.file, error.line) == ("is_tables.tsv", line)
    assert words in error.message


@pytest.mark.parametrize(
    "text",
    [
        _read("s02_load_rw_default.is_tables.tsv")[0],
        _read("s02_load_rw_default.is_tables.tsv")[0].split("\n", 1)[1],  # no header
        _read("s02_load_rw_default.is_tables.tsv")[0].replace("\tmysql\t", "\tMySQL\t"),  # any case
        _read("s02_load_rw_default.is_tables.tsv")[0].replace("\n", "\r\n"),
        _read("s02_load_rw_default.is_tables.tsv")[0].replace(
            "\ndef\tsys\t", "\n\ndef\tsys\t"
        ),  # blank lines
        _read("s02_load_rw_default.is_tables.tsv")[0].replace("\ndef\tsbtest\t", "\nother\tsbtest\t"),
        _tables_dump_with("def\tsbtest\tsbtest1\tBASE TABLE\tInnoDB" + "\t0" * 18, 280),  # listed twice
    ],
)
def test_skipping_system_rows_ahead_reads_what_the_row_loop_reads(text: str) -> None:
    """TABLES dumps with and without a header, odd case, CRLF, blank lines, another catalog, a table
    listed twice: the same facts and warnings as when every row goes through the loop."""
    assert _read_as_is(text, "is_tables.tsv") == _read_every_row(text, "is_tables.tsv")
