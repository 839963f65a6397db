"""my.cnf parsing: the server's reading rules, checked on named real option files of the corpus."""

from __future__ import annotations

import pytest

from advisor.errors import InputError
from advisor.inputs.optionfiles import OptionEntry, OptionFile, OptionFileSet, groups_read, parse_option_file
from advisor.units import parse_size
from advisor.version import parse_version
from tests.corpus import corpus_file

BARON = "percona-toolkit/t/lib/samples/configs/mycnf-baron-002.txt"
KC = "percona-toolkit/t/lib/samples/configs/mycnf-kc-001.txt"
SYSBENCH = "realworld/mycnf/docularxu_sysbench-mysql-tests-scripts__mysqld.cnf"
XAMPP = "realworld/mycnf/ITS-Java-Datenbanken-Projekt_xampp__my.ini"
WINDOWS_PATHS = "realworld/mycnf/MuggleWei_useful_scripts__mysql__my.ini"
PROMPTS = "realworld/mycnf/liuxinwang_install_mysql__my80.cnf"
ISUCON = "realworld/mycnf/catatsuy_memo_isucon__etc__my.cnf"
GROUP_REPLICATION = "realworld/mycnf/percona_percona-docker__ps-group-replication-5.7__node.cnf"
MARIADB_DOCKER = "realworld/mycnf/MariaDB_mariadb-docker__docker.cnf"
MAKEYOURLAWS = "realworld/mycnf/MakeYourLaws_MakeYourServers__etc-mysql__my.cnf"
MYSQL80 = parse_version("8.0.36")


def read(relative: str) -> str:
    """A corpus file as the upload form would deliver it: UTF-8 text, line endings untouched."""
    return corpus_file(relative).read_bytes().decode("utf-8")


def load(relative: str) -> OptionFile:
    return parse_option_file(read(relative), relative)


def only(option_file: OptionFile, name: str, group: str = "mysqld") -> OptionEntry:
    found = [entry for entry in option_file.entries() if entry.name == name and entry.group == group]
    assert len(found) == 1, found
    return found[0]


# ---------------------------------------------------------------------- values read from real files
def test_buffer_pool_size_from_a_production_file() -> None:
    """mycnf-baron-002 sets a 43G buffer pool on line 52 of [mysqld]."""
    entry = only(load(BARON), "innodb_buffer_pool_size")
    assert (entry.line, entry.value, entry.raw_name) == (52, "43G", "innodb_buffer_pool_size")
    assert parse_size(entry.value or "") == 43 * 1024**3


def test_inline_utf8_comment_is_not_part_of_the_value() -> None:
    """`innodb_buffer_pool_size=150G #设置…` reads as 150G (sysbench file, line 109)."""
    entry = only(load(SYSBENCH), "innodb_buffer_pool_size")
    assert (entry.line, entry.value) == (109, "150G")


def test_duplicate_key_last_wins_and_earlier_is_shadowed() -> None:
    """innodb_flush_log_at_trx_commit appears on lines 115 and 136: 136 wins, 115 is shadowed."""
    options = OptionFileSet.from_texts({SYSBENCH: read(SYSBENCH)})
    winner = options.effective(groups_read(MYSQL80))["innodb_flush_log_at_trx_commit"]
    assert winner.entry.line == 136
    assert [entry.line for entry in winner.shadowed] == [115]


def test_repeated_option_keeps_every_occurrence() -> None:
    """binlog-ignore-db is given 13 times in mycnf-baron-002: the last wins, twelve are shadowed."""
    options = OptionFileSet.from_texts({BARON: read(BARON)})
    winner = options.effective({"mysqld"})["binlog_ignore_db"]
    assert winner.entry.value == "avail13"
    assert [entry.value for entry in winner.shadowed] == [f"avail{n}" for n in range(1, 13)]


def test_quotes_protect_hash_and_inline_comments_end_values() -> None:
    """mycnf-kc-001 is Percona's syntax torture file: quoted `#` stays, unquoted `#` starts a comment."""
    values = {entry.name: entry.value for entry in load(KC).entries()}
    assert values == {
        "user": "mysql",
        "password": "password # still part of it!",
        "something": "something ; or # another",
        "log_bin": None,
    }


def test_semicolon_and_indented_comments_are_comments() -> None:
    """`;semicolon=…` and indented `;`/`#` lines of mycnf-kc-001 set nothing."""
    assert [entry.line for entry in load(KC).entries()] == [2, 3, 4, 9]


def test_backslash_escapes_follow_the_server() -> None:
    """`basedir=D:\\\\MySQL\\\\…` in a Windows my.ini reads with single backslashes."""
    entry = only(load(WINDOWS_PATHS), "basedir")
    assert entry.value == "D:\\MySQL\\mysql-8.0.22-winx64"


def test_unknown_escapes_stay_and_known_ones_decode() -> None:
    """The client prompt `"\\U \\R:\\m:\\\\s [\\d]> "` keeps \\U, \\R, \\m, \\d and turns \\\\ into \\."""
    entry = only(load(PROMPTS), "prompt", group="mysql")
    assert entry.value == "\\U \\R:\\m:\\s [\\d]> "


def test_bare_flags_and_dash_spellings() -> None:
    """`skip-name-resolve` is the option skip_name_resolve itself; `log-bin` bare means ON (value None)."""
    option_file = parse_option_file(
        "[mysqld]\nskip-name-resolve\nLog-Bin\ninnodb-buffer-pool-size = 1G\n", "x.cnf"
    )
    parts = [(entry.name, entry.value, entry.prefix) for entry in option_file.entries()]
    assert parts == [
        ("skip_name_resolve", None, None),
        ("log_bin", None, None),
        ("innodb_buffer_pool_size", "1G", None),
    ]


def test_disable_prefix_with_a_value_means_off() -> None:
    """`disable-log-bin = 1` in the isucon file turns log_bin OFF (the server ignores the 1)."""
    entry = only(load(ISUCON), "log_bin")
    assert (entry.value, entry.given, entry.prefix, entry.raw_name) == (
        "OFF",
        "1",
        "disable",
        "disable-log-bin",
    )


def test_skip_prefix_of_a_plain_option() -> None:
    """`skip-log-bin` in the sysbench file is log_bin with the skip prefix: OFF."""
    entry = only(load(SYSBENCH), "log_bin")
    assert (entry.line, entry.value, entry.prefix) == (54, "OFF", "skip")


def test_loose_prefix_is_recorded() -> None:
    """`loose-group_replication_group_name="…"` is group_replication_group_name, loose, unquoted."""
    entry = only(load(GROUP_REPLICATION), "group_replication_group_name")
    assert entry.loose and entry.raw_name.startswith("loose-")
    assert entry.value is not None and '"' not in entry.value and len(entry.value) == 36


def test_maximum_prefix_does_not_shadow_the_variable() -> None:
    """`maximum-sort_buffer_size` caps SET SESSION; it is keyed maximum_sort_buffer_size."""
    text = "[mysqld]\nsort_buffer_size = 2M\nmaximum-sort_buffer_size = 8M\n"
    effective = OptionFileSet.from_texts({"my.cnf": text}).effective({"mysqld"})
    assert effective["sort_buffer_size"].entry.value == "2M"
    assert effective["maximum_sort_buffer_size"].entry.prefix == "maximum"


def test_group_names_compare_without_case_but_keep_spaces() -> None:
    """`[MYSQLD]` is mysqld; `[ mysqld ]` is a different group (checked against my_print_defaults)."""
    text = "[MySQLD]\na = 1\n  [ mysqld ]  \nb = 2\n"
    option_file = parse_option_file(text, "x.cnf")
    assert [(entry.name, entry.group) for entry in option_file.entries()] == [
        ("a", "mysqld"),
        ("b", " mysqld"),
    ]


def test_mariadb_groups_in_a_real_file() -> None:
    """MariaDB's docker.cnf opens [mariadb] and [client-server]; both are read by mariadbd 10.11."""
    option_file = load(MARIADB_DOCKER)
    assert option_file.groups() == ("mariadb", "client-server")
    read = groups_read(parse_version("10.11.6-MariaDB"))
    assert all(entry.group in read for entry in option_file.entries())


def test_crlf_file_is_read_and_kept() -> None:
    """The xampp my.ini uses CRLF: values carry no CR, the text round-trips, key_buffer in [mysqld] is 16M."""
    text = read(XAMPP)
    option_file = parse_option_file(text, XAMPP)
    assert option_file.crlf
    assert option_file.serialise() == text
    assert only(option_file, "key_buffer").value == "16M"
    assert only(option_file, "key_buffer", group="isamchk").value == "20M"


def test_missing_final_newline_round_trips() -> None:
    """MuggleWei's my.ini ends without a newline; serialising gives it back unchanged."""
    text = read(WINDOWS_PATHS)
    assert not text.endswith("\n")
    assert parse_option_file(text, WINDOWS_PATHS).serialise() == text


def test_byte_order_mark_is_kept_with_a_warning() -> None:
    """A BOM is kept for the round trip and flagged: MySQL and MariaDB stop at line 1 on it."""
    text = "\ufeff[mysqld]\r\nmax_connections = 500\r\n"
    option_file = parse_option_file(text, "my.ini")
    assert option_file.serialise() == text
    assert only(option_file, "max_connections").value == "500"
    assert "byte-order mark" in option_file.warnings[0].message


def test_key_with_spaces_around_equals_and_empty_value() -> None:
    """`key   =   value  ` trims both sides; `key=` gives the empty string, not a bare flag."""
    option_file = parse_option_file("[mysqld]\n  tmpdir   =   /tmp  \nsecure-file-priv=\n", "x.cnf")
    assert [entry.value for entry in option_file.entries()] == ["/tmp", ""]


# ---------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    ("relative", "line", "words"),
    [
        ("realworld/mycnf/vitessio_vitess__production.cnf", 2, "before any [group]"),
        ("realworld/other/ltangvald_mysql__mtr-5.7__wl6661-master.opt", 1, "command-line flags"),
        ("realworld/other/geerlingguy_ansible-role-mysql__my.cnf.j2", 1, "template"),
        ("realworld/other/puppetlabs_puppetlabs-mysql__my.cnf.epp", 3, "template"),
        ("realworld/mycnf/cpan-testers_cpantesters-deploy__etc-mysql__my.cnf", 41, "template"),
        ("realworld/mycnf/ottok_mariadb-10.1__my-small.cnf.sh", 20, "@MYSQL_TCP_PORT@"),
        ("realworld/mycnf/gplessis_dotdeb-mysql__my-default.cnf.sh", 22, "@CNF_SOCKET_LINE@"),
        ("realworld/other/docker-library_mysql__cluster-7.6__mysql-cluster.cnf", 16, "NDB Cluster"),
    ],
)
def test_files_the_server_would_not_read_are_refused_naming_the_line(
    relative: str, line: int, words: str
) -> None:
    """Fragments without a group, .opt flag files, templates and NDB config.ini give an InputError at the line."""
    with pytest.raises(InputError) as caught:
        load(relative)
    assert (caught.value.file, caught.value.line) == (relative, line)
    assert words in caught.value.message


def test_binary_login_file_is_refused_at_line_1() -> None:
    """The encrypted .mylogin.cnf sample is binary: refused at line 1, whatever the decoding."""
    data = corpus_file("realworld/other/ltangvald_mysql__mylogin-bad-cipher.cnf").read_bytes()
    for text in (
        data.decode("latin-1"),
        data.decode("utf-8", "replace"),
        data.decode("utf-8", "surrogateescape"),
    ):
        with pytest.raises(InputError) as caught:
            parse_option_file(text, ".mylogin.cnf")
        assert caught.value.line == 1 and "binary" in caught.value.message


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("[mysqld\nport=1\n", 1, "closing ']'"),
        ("[mysqld]\nport=1\n!include\n", 3, "!include without a path"),
        ("[mysqld]\nthis is not an option\n", 2, "not an option"),
        ("[mysqld]\n= 5\n", 2, "not an option"),
        ("[mysqld]\n--port=3306\n", 2, "not an option"),
        ("[mysqld]\nport = 3306\nbad\x01byte\n", 3, "binary"),
        ("[mysqld]\nport = 3306\ndatadir = ${DATADIR}\n", 3, "template"),
    ],
)
def test_malformed_lines_name_their_line(text: str, line: int, words: str) -> None:
    """Broken headers, empty includes, prose, `--flags`, control bytes and placeholders: InputError at the line."""
    with pytest.raises(InputError) as caught:
        parse_option_file(text, "bad.cnf")
    assert (caught.value.file, caught.value.line) == ("bad.cnf", line)
    assert words in caught.value.message


def test_quoted_at_signs_are_not_placeholders() -> None:
    """A quoted value with @WORD@ (a password, say) is a value; unquoted it is a build placeholder."""
    option_file = parse_option_file('[client]\npassword = "p@SSW@rd"\n', "x.cnf")
    assert option_file.entries()[0].value == "p@SSW@rd"
    with pytest.raises(InputError):
        parse_option_file("[client]\npassword = p@SSW@rd\n", "x.cnf")


def test_lenient_mode_reads_what_strict_mode_refuses() -> None:
    """strict=False keeps a vitess fragment (options before any group) under group "" for display."""
    relative = "realworld/mycnf/vitessio_vitess__production.cnf"
    text = read(relative)
    option_file = parse_option_file(text, relative, strict=False)
    assert option_file.serialise() == text
    assert {entry.group for entry in option_file.entries()} == {""}
    assert only(option_file, "innodb_buffer_pool_size", group="").value == "1024M"


def test_unknown_directive_and_text_after_header_are_warnings() -> None:
    """`!foo` and `[mysqld] junk` are ignored by the server: warnings naming the lines."""
    option_file = parse_option_file("[mysqld] junk\n!foo bar\nport = 1\n", "x.cnf")
    assert [(warning.line, "ignored" in warning.message) for warning in option_file.warnings] == [
        (1, True),
        (2, True),
    ]
    assert only(option_file, "port").value == "1"


def test_makeyourlaws_groups_repeat_and_read_in_order() -> None:
    """MakeYourLaws repeats [client] and [mysqld]; groups() lists each once, in order of first appearance."""
    groups = load(MAKEYOURLAWS).groups()
    assert groups[:4] == ("client", "mysqldump", "mysqld_safe", "mysqld")
    assert len(groups) == len(set(groups))


def test_template_markup_inside_an_inline_comment_is_only_a_comment() -> None:
    """`{%` after `#` is comment text (found by hypothesis); the same markup in a value is refused."""
    parsed = parse_option_file("[mysqld]\nskip_name_resolve #{% not a template\n", "c.cnf")
    assert [entry.name for entry in parsed.entries()] == ["skip_name_resolve"]
    with pytest.raises(InputError) as refused:
        parse_option_file("[mysqld]\ndatadir = {{ datadir }}\n", "t.cnf")
    assert refused.value.line == 2


def test_prefix_given_0_is_a_double_negation() -> None:
    """my_getopt: `skip-x=0`/`disable-x=0` turn x on, `enable-x=0` off; other values keep the prefix's
    meaning (mariadbd 10.11.19 and MySQL 8.0.46 real starts: innodb_doublewrite ON, OFF)."""
    text = (
        "[mysqld]\nskip-a=0\ndisable-b=0\nenable-c=0\nskip-d=1\nskip-e=OFF\nskip-f=00\nenable-g=OFF\nskip-h\n"
    )
    values = [entry.value for entry in parse_option_file(text, "x.cnf").entries()]
    assert values == ["ON", "ON", "OFF", "OFF", "OFF", "OFF", "ON", "OFF"]
