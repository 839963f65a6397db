"""Secrets in uploaded option files and variables dumps become `[REDACTED]`; every other byte stays."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.inputs.optionfiles import parse_option_file
from advisor.redact import (
    REDACTED,
    is_secret_option,
    misspelt_secret,
    redact_option_text,
    redact_variables_text,
)
from tests.corpus import corpus_file

# file → {line number: the line as it must read after redaction}; every other line must be unchanged.
OPTION_FILE_CASES = {
    "percona-toolkit/t/pt-config-diff/samples/bug_917770.cnf": {3: "password = [REDACTED]"},
    "realworld/mycnf/prometheus_mysqld_exporter__client.cnf": {
        3: "password = [REDACTED]",
        7: "password = [REDACTED]",
        10: "password = [REDACTED]",
    },
    "percona-toolkit/t/lib/samples/configs/mycnf-kc-001.txt": {3: 'password="[REDACTED]"# comment'},
    "realworld/mycnf/ITS-Java-Datenbanken-Projekt_xampp__my.ini": {
        19: "# password       = [REDACTED] ",
        81: "#    MASTER_USER=<user>, MASTER_PASSWORD=[REDACTED] ;",
        89: "#    MASTER_USER='joe', MASTER_PASSWORD='[REDACTED]';",
        118: "#master-password =   [REDACTED]",
    },
    "realworld/mycnf/andk_pause__etc__my.cnf": {16: "#password\t= [REDACTED]"},
    # A commented-out user:password pair keeps its user.
    "realworld/mycnf/percona_percona-xtradb-cluster__rpm__wsrep.cnf": {
        39: '#wsrep_sst_auth="sstuser:[REDACTED]"'
    },
    # The sandbox's password goes; `default_authentication_plugin=mysql_native_password` stays.
    "percona-toolkit/sandbox/servers/8.0/my.sandbox.cnf": {3: "password = [REDACTED]"},
    # Nothing secret: `wsrep_sst_auth=root:` has no password, the filekey is a path to the key.
    "realworld/mycnf/ottok_mariadb-10.1__wsrep.cnf.sh": {},
    "realworld/mycnf/MariaDB_mariadb-docker__encrypt.cnf": {},
}


@pytest.mark.parametrize("relative", sorted(OPTION_FILE_CASES))
def test_corpus_option_files_lose_their_secrets_and_nothing_else(relative: str) -> None:
    """Only the secret-bearing lines change, each exactly as expected; all other lines are byte-identical."""
    text = corpus_file(relative).read_bytes().decode("utf-8")
    original = text.split("\n")
    redacted = redact_option_text(text).split("\n")
    expected = OPTION_FILE_CASES[relative]
    assert len(redacted) == len(original)
    for number, (before, after) in enumerate(zip(original, redacted, strict=True), 1):
        if number in expected:
            assert after.removesuffix("\r") == expected[number], number
        else:
            assert after == before, number


def test_secret_strings_are_gone_from_the_corpus_files() -> None:
    """The test passwords of the corpus files appear nowhere in their redacted text."""
    secrets = {
        "percona-toolkit/sandbox/servers/8.0/my.sandbox.cnf": ["password = msandbox"],  # user is msandbox too
        "realworld/mycnf/prometheus_mysqld_exporter__client.cnf": ["abc", "foo"],
        "percona-toolkit/t/lib/samples/configs/mycnf-kc-001.txt": ["still part of it"],
        "realworld/mycnf/percona_percona-xtradb-cluster__rpm__wsrep.cnf": ["s3cretPass"],
    }
    for relative, words in secrets.items():
        text = corpus_file(relative).read_text()
        for word in words:
            assert word in text
            assert word not in redact_option_text(text), (relative, word)


def test_redacted_file_reads_the_same_options_with_the_password_hidden() -> None:
    """The parser reads the redacted sandbox file as the original, `password` aside."""
    text = corpus_file("percona-toolkit/sandbox/servers/8.0/my.sandbox.cnf").read_text()
    before = parse_option_file(text, "my.cnf").entries()
    after = parse_option_file(redact_option_text(text), "my.cnf").entries()
    assert [(e.group, e.name) for e in before] == [(e.group, e.name) for e in after]
    changed = {e.name: e.value for e, a in zip(before, after, strict=True) if e.value != a.value}
    assert changed == {"password": "msandbox"}
    assert {a.name: a.value for a in after}["password"] == REDACTED


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("loose-report-password = s1\r", "loose-report-password = [REDACTED]\r"),
        ("--password=s1", "--password=[REDACTED]"),
        ("set-variable = master-password=s1", "set-variable = master-password=[REDACTED]"),
        ("user = root # password = s1", "user = root # password = [REDACTED]"),
        ("ssl-passphrase = 's1 s2'", "ssl-passphrase = '[REDACTED]'"),
        ("hashicorp-key-management-token = s1", "hashicorp-key-management-token = [REDACTED]"),
        ("aws_key_management_secret_access_key=s1", "aws_key_management_secret_access_key=[REDACTED]"),
        ("password s1", "password [REDACTED]"),
        ("a prose line with password s1", "a prose line with password [REDACTED]"),
        ("mysql_native_password = ON", "mysql_native_password = ON"),
        ("disconnect_on_expired_password = ON", "disconnect_on_expired_password = ON"),
        ("password", "password"),
        ("wsrep_sst_auth = sst:", "wsrep_sst_auth = sst:"),
        # secrets inside a value of key=value pairs (Galera's provider options); other pairs kept
        (
            'wsrep_provider_options = "gcache.size=1G; socket.ssl_password=s1; socket.ssl_key=/k.pem"',
            'wsrep_provider_options = "gcache.size=1G; socket.ssl_password=[REDACTED]; socket.ssl_key=/k.pem"',
        ),
        (
            "wsrep_provider_options=gcs.fc_limit=16;socket.ssl_password = s1",
            "wsrep_provider_options=gcs.fc_limit=16;socket.ssl_password = [REDACTED]",
        ),
        (
            'wsrep_provider_options = "gcache.size=1G; pc.weight=2"',
            'wsrep_provider_options = "gcache.size=1G; pc.weight=2"',
        ),
    ],
)
def test_option_line_forms(line: str, expected: str) -> None:
    """Prefixes, command-line dashes, set-variable, inline comments and quoting are all handled."""
    assert redact_option_text(line) == expected


def test_a_variables_dump_loses_secret_pairs_inside_a_value() -> None:
    """SHOW VARIABLES lists every provider option with its value: a password among them goes."""
    row = "wsrep_provider_options\tbase_dir = /var/lib/mysql/; socket.ssl_password = s1; gcache.size = 128M"
    redacted = redact_variables_text(f"version\t10.11.19-MariaDB\n{row}\n")
    assert "s1;" not in redacted and "socket.ssl_password = [REDACTED]; gcache.size = 128M" in redacted


def test_secret_names() -> None:
    """Passwords, tokens and secrets are secrets; switches and policies that mention them are not."""
    assert all(map(is_secret_option, ["Report-Password", "pass", "loose-master-passwd", "x_secret_id"]))
    assert not any(map(is_secret_option, ["old_passwords", "default_password_lifetime", "ngram_token_size"]))


def _with_report_password(relative: str, secret: str) -> tuple[str, str, int]:
    """A real dump with a value put into its empty `report_password` row."""
    text = corpus_file(relative).read_text()
    lines = text.split("\n")
    (index,) = [i for i, line in enumerate(lines) if line.lstrip("| ").startswith("report_password")]
    line = lines[index]
    if "|" in line:
        cells = line.split("|")
        cells[2] = " " + secret + cells[2][len(secret) + 1 :]
        lines[index] = "|".join(cells)
    else:
        lines[index] = line.rstrip("\t") + "\t" + secret
    return text, "\n".join(lines), index


@pytest.mark.parametrize(
    "relative",
    [
        "percona-toolkit/t/lib/samples/show-variables/vars001.txt",
        "realworld/variables/ksaeki_customers__mysql_variables.txt",
    ],
)
def test_variables_dump_report_password_is_redacted(relative: str) -> None:
    """A `report_password` value in a real table/TSV dump goes; every other line stays."""
    original, with_secret, index = _with_report_password(relative, "hunter2")
    assert redact_variables_text(original) == original  # empty in the real file: nothing to hide
    redacted = redact_variables_text(with_secret).split("\n")
    assert "hunter2" not in redacted[index] and REDACTED in redacted[index]
    assert [line for i, line in enumerate(redacted) if i != index] == [
        line for i, line in enumerate(with_secret.split("\n")) if i != index
    ]


def test_masked_wsrep_sst_auth_stays_masked() -> None:
    """The server prints wsrep_sst_auth as `********`: nothing to redact."""
    assert redact_variables_text("wsrep_sst_auth\t********\n") == "wsrep_sst_auth\t********\n"


_LINE = st.one_of(
    st.text(alphabet="ab =#;'\"\\:[]!-_\t\rpasswordtokensecretPASS", max_size=40),
    st.sampled_from(
        ["password = x", "# password='y' z", "wsrep_sst_auth=a:b", "[client]", "report_password\t1"]
    ),
)
_TEXT = st.lists(_LINE, max_size=8).map("\n".join)


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_redaction_never_raises_and_is_idempotent(text: str) -> None:
    """Any text redacts without error, keeps its line count, and redacting again changes nothing."""
    for redact in (redact_option_text, redact_variables_text):
        once = redact(text)
        assert once.count("\n") == text.count("\n")
        assert redact(once) == once


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises(text: str) -> None:
    """Arbitrary Unicode text redacts without error, idempotently."""
    once = redact_option_text(text)
    assert redact_option_text(once) == once
    assert redact_variables_text(redact_variables_text(text)) == redact_variables_text(text)


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("pasword", "password"),
        ("passowrd", "password"),
        ("wsrep_sst_auht", "wsrep_sst_auth"),
        ("report-pasword", "report_password"),
        ("ssl_pasphrase", "ssl_passphrase"),
        ("old_passwords", None),  # a real MySQL 5.x option, not a typo
        ("password", None),  # spelt right: is_secret_option's business
        ("pid", None),
        ("innodb_flush_method", None),
    ],
)
def test_misspelt_secret_names_the_secret_a_typo_means(name: str, meant: str | None) -> None:
    """A name one edit from a secret name (or secret last word) that no server knows is read as that secret."""
    assert misspelt_secret(name) == meant


def test_misspelt_secret_lines_lose_their_value() -> None:
    """`pasword = x` and `wsrep_sst_auht = user:pw` are redacted like the options they misspell."""
    text = "[mysqld]\npasword = hunter2\nwsrep_sst_auht = sst:pw9\nold_passwords = 1\n"
    assert redact_option_text(text) == (
        f"[mysqld]\npasword = {REDACTED}\nwsrep_sst_auht = sst:{REDACTED}\nold_passwords = 1\n"
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("# mysql -uroot -pCommentPw4", "# mysql -uroot -p[REDACTED]"),
        ("# mysqldump -u root -p'a b' --all-databases", "# mysqldump -u root -p'[REDACTED]' --all-databases"),
        (
            "skip-name-resolve  # check: mariadb-admin -pS3cret ping",
            "skip-name-resolve  # check: mariadb-admin -p[REDACTED] ping",
        ),
        ("# mysql -p db  (asks for the password)", "# mysql -p db  (asks for the password)"),
        ("# see --skip-networking -port", "# see --skip-networking -port"),
    ],
)
def test_a_client_password_quoted_in_a_comment_is_hidden(line: str, expected: str) -> None:
    """Review 8: `# mysql -uroot -pCommentPw4` was stored and echoed as written. A `-p` with the value
    attached, on a line that names a client, is a password; a bare `-p` asks for one, `-port` in prose is none."""
    assert redact_option_text(f"[mysqld]\n{line}\n") == f"[mysqld]\n{expected}\n"
