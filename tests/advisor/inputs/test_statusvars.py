"""SHOW GLOBAL VARIABLES / STATUS in every pasted layout, read from named files of the shared corpus."""

from __future__ import annotations

import json

import pytest

from advisor.inputs.statusvars import (
    StatusSample,
    parse_status,
    parse_variables,
    read_samples,
)
from advisor.inputs.tabular import Layout
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/"
SUMMARY = "percona-toolkit/t/pt-mysql-summary/samples/"
MEXT = "percona-toolkit/t/pt-mext/samples/"
SHOW_VARIABLES = "percona-toolkit/t/lib/samples/show-variables/"


def text_of(relative: str) -> str:
    return corpus_file(relative).read_text(encoding="utf-8")


def status_of(relative: str) -> tuple[StatusSample, ...]:
    return parse_status(text_of(relative), relative)


def unescape_batch(value: str) -> str:
    """Undo `mysql -B` escaping (\\n, \\t, \\\\) to get the value the server holds."""
    return value.replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")


def batch_rows(relative: str) -> dict[str, str]:
    """name → server value from a header-less `mysql -B` file, read independently of the parser."""
    rows = (line.split("\t", 1) for line in text_of(relative).splitlines() if "\t" in line)
    return {name: unescape_batch(value) for name, value in rows}


def client_table(rows: dict[str, str]) -> str:
    """Render rows the way the mysql client boxes them: padded cells, raw newlines inside values."""
    name_width = max(len("Variable_name"), *map(len, rows))
    value_width = max(len("Value"), *map(len, rows.values()))
    border = f"+{'-' * (name_width + 2)}+{'-' * (value_width + 2)}+"
    body = [f"| {name.ljust(name_width)} | {value.ljust(value_width)} |" for name, value in rows.items()]
    header = f"| {'Variable_name'.ljust(name_width)} | {'Value'.ljust(value_width)} |"
    return "\n".join([border, header, border, *body, border, f"{len(rows)} rows in set (0.00 sec)", ""])


# --- variables in every layout -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("relative", "layout", "expected"),
    [
        ("realworld/variables/JasonLamey_IMGames__mysql_vars.txt", Layout.TABLE, "134217728"),
        ("realworld/variables/ksaeki_customers__mysql_variables.txt", Layout.TSV, "16777216"),
        (
            "realworld/variables/percona_percona-monitoring-plugins__global-variables-001.txt",
            Layout.TSV,
            "134217728",
        ),
        (SHOW_VARIABLES + "vars-baron-002.txt", Layout.TSV, "46170898432"),
        (SHOW_VARIABLES + "vars003.txt", Layout.TABLE, "16777216"),
        (SHOW_VARIABLES + "vars004.txt", Layout.VERTICAL, "16777216"),
        (SYSBENCH + "s02_load_rw_default.global_variables.table.txt", Layout.TABLE, "134217728"),
        ("percona-toolkit/t/lib/samples/configs/mysqldhelp003.txt", Layout.HELP, "16777216"),
        ("realworld/other/cmu-db_ottertune__sample_output_mysql_knobs.json", Layout.JSON, "134217728"),
        (
            "realworld/other/jmrenouard_MySQLTuner-perl__mysql-5.6__ifs_GLOBAL_VARIABLES.csv",
            Layout.CSV,
            "134217728",
        ),
    ],
)
def test_buffer_pool_size_is_read_from_every_layout(relative: str, layout: Layout, expected: str) -> None:
    """innodb_buffer_pool_size comes out of each named file as printed, whatever its layout."""
    assert read_samples(text_of(relative), relative).layout is layout
    dump = parse_variables(text_of(relative), relative)
    assert dump.get("innodb_buffer_pool_size") == expected
    assert dump.get("INNODB_BUFFER_POOL_SIZE") == expected


def test_table_and_batch_dumps_of_one_server_agree() -> None:
    """The client table and the -B dump of the same SHOW GLOBAL VARIABLES give identical mappings."""
    table = parse_variables(text_of(SYSBENCH + "s02_load_rw_default.global_variables.table.txt"), "t")
    batch = parse_variables(text_of(SYSBENCH + "s02_load_rw_default.global_variables.tsv"), "b")
    assert dict(table.values) == dict(batch.values)
    assert len(batch.values) == 656
    assert batch.get("version") == "10.11.19-MariaDB-0+deb12u1"


def test_values_keep_their_text() -> None:
    """ON, empty values, multi-word text and a value holding `|` come back exactly as printed."""
    dump = parse_variables(text_of("realworld/variables/JasonLamey_IMGames__mysql_vars.txt"), "jl")
    assert dump.get("version_comment") == "MySQL Community Server (GPL)"
    assert dump.get("ft_boolean_syntax") == '+ -><()~*:""&|'
    assert (dump.get("optimizer_switch") or "").startswith("index_merge=on,index_merge_union=on,")
    empty = parse_variables(
        text_of("realworld/variables/netdata_go.d.plugin__mysql-8.0.30__global_variables.txt"), "n"
    )
    assert empty.get("disabled_storage_engines") == ""
    assert empty.get("log_bin") == "ON"


def test_crlf_batch_file_with_header() -> None:
    """A Windows `mysql -B` dump (CRLF, Variable_name header) has no stray carriage returns."""
    dump = parse_variables(text_of("realworld/variables/ksaeki_customers__mysql_variables.txt"), "k")
    assert dump.get("basedir") == "/xampp/mysql"
    assert "variable_name" not in dump.values
    assert not any("\r" in value for value in dump.values.values())


def test_mysqld_help_becomes_variables() -> None:
    """`mysqld --verbose --help`: dashes become underscores, `(No default value)` an empty value."""
    mysql = parse_variables(
        text_of("realworld/variables/ltangvald_mysql__mysqld--help-notwin-5.7.result"), "h"
    )
    assert mysql.get("max_connections") == "151"
    assert mysql.get("wait_timeout") == "28800"
    assert mysql.get("ft_boolean_syntax") == '+ -><()~*:""&|'
    assert (mysql.get("optimizer_switch") or "").endswith(",derived_merge=on")
    assert "To see what values" not in " ".join(mysql.values)
    assert mysql.warnings, "help output is flagged as not a running server's values"
    mariadb = parse_variables(
        text_of("realworld/variables/ottok_mariadb-10.1__mysqld--help-10.1.result"), "m"
    )
    assert mariadb.get("bind_address") == ""
    assert mariadb.get("table_open_cache") == "421"
    assert mariadb.get("key_buffer_size") == "134217728"


def test_pt_mysql_summary_variables_skip_the_tool_lines() -> None:
    """pt-mysql-summary's own `pt-summary-internal-*` / `internal::` lines are not variables."""
    dump = parse_variables(text_of(SUMMARY + "temp_enc008/mysql-variables"), "v")
    assert dump.get("admin_port") == "33062"
    assert dump.get("admin_address") == ""
    assert dump.get("internal_tmp_mem_storage_engine") == "TempTable"  # a real variable, kept
    assert not any("summary" in name or ":" in name for name in dump.values)


def test_status_and_variables_pasted_in_one_file_are_told_apart() -> None:
    """A file with SHOW STATUS then SHOW VARIABLES gives each parser its own listing."""
    relative = "realworld/status/percona_percona-monitoring-plugins__status-variables-001.txt"
    (sample,) = status_of(relative)
    assert sample.uptime == 1545
    assert sample.get("Threads_connected") == "1"
    dump = parse_variables(text_of(relative), relative)
    assert dump.get("basedir") == "/home/baron/Documents/etc/mysql/server/5.1.50/"
    assert dump.get("uptime") is None


def test_duplicate_names_last_wins() -> None:
    """A name repeated within one sample keeps its last value."""
    text = text_of(SYSBENCH + "s01_idle_default.global_variables.tsv") + "max_connections\t999\n"
    assert parse_variables(text, "dup").get("max_connections") == "999"


# --- JSON and CSV ------------------------------------------------------------------------------


def test_ottertune_metrics_json_is_a_status_sample() -> None:
    """OtterTune's nested {"global": {"global": {...}}} metrics read as one status sample."""
    (sample,) = status_of("realworld/other/cmu-db_ottertune__sample_output_mysql_metrics_before.json")
    assert sample.uptime == 8
    assert sample.number("Innodb_buffer_pool_pages_free") == 7502


def test_json_list_of_rows_and_one_row_per_line() -> None:
    """[{Variable_name, Value}, ...] and one such object per line both read as one sample."""
    rows = batch_rows(SUMMARY + "temp_enc008/mysql-status")
    listing = [{"Variable_name": name, "Value": value} for name, value in rows.items()]
    as_list = parse_status(json.dumps(listing, indent=1), "list.json")[0]
    per_line = parse_status("\n".join(json.dumps(row) for row in listing), "rows.jsonl")[0]
    assert (
        dict(as_list.values) == dict(per_line.values) == {name.lower(): value for name, value in rows.items()}
    )
    assert (as_list.get("Rsa_public_key") or "").startswith("-----BEGIN PUBLIC KEY-----\n")


def test_json_numbers_and_booleans_become_server_text() -> None:
    """Numbers become decimal text, true/false ON/OFF, null empty (YAML/JSON-typed dumps)."""
    dump = parse_variables(
        '{"innodb_buffer_pool_size": 134217728, "autocommit": true, "x": null, "y": 2.0}', "j"
    )
    assert dict(dump.values) == {
        "innodb_buffer_pool_size": "134217728",
        "autocommit": "ON",
        "x": "",
        "y": "2",
    }


def test_mysqltuner_csv_with_unescaped_quotes() -> None:
    """MySQLTuner's run-together CSV: quotes inside a value do not end it early."""
    relative = "realworld/other/jmrenouard_MySQLTuner-perl__mysql-5.6__ifs_GLOBAL_VARIABLES.csv"
    dump = parse_variables(text_of(relative), relative)
    assert dump.get("ft_boolean_syntax") == '+ -><()~*:""&|'
    assert dump.get("report_host") == ""
    assert dump.get("max_prepared_stmt_count") == "16382"
    (status,) = status_of("realworld/other/jmrenouard_MySQLTuner-perl__mariadb-10.6__ifs_GLOBAL_STATUS.csv")
    assert status.uptime == 61
    assert len(status.values) == 569


# --- multi-line values ---------------------------------------------------------------------------


def test_table_with_a_multi_line_value() -> None:
    """A value holding raw newlines, boxed by the client, spills over lines and comes back whole."""
    rows = batch_rows(SUMMARY + "temp_enc008/mysql-status")
    (sample,) = parse_status(client_table(rows), "boxed.txt")
    key = sample.get("Rsa_public_key")
    assert key is not None and key.count("\n") == 8
    assert key == rows["Rsa_public_key"].strip()  # padding hides a trailing newline; the rest is exact
    assert {name: value.strip() for name, value in rows.items()} == {name: sample.get(name) for name in rows}


def test_vertical_output_with_a_multi_line_value() -> None:
    """`\\G` output: a value's continuation lines belong to it until the next row marker."""
    rows = batch_rows(SUMMARY + "temp_enc009/mysql-status")
    lines = []
    for number, (name, value) in enumerate(rows.items(), 1):
        lines += [f"{'*' * 27} {number}. row {'*' * 27}", f"Variable_name: {name}", f"        Value: {value}"]
    (sample,) = parse_status("\n".join(lines) + f"\n{len(rows)} rows in set (0.01 sec)\n", "vertical.txt")
    assert sample.get("Rsa_public_key") == rows["Rsa_public_key"].rstrip("\n")
    assert sample.uptime == 174515
    assert len(sample.values) == len(rows)
