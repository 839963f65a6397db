"""Parsing what servers say about their version, and comparing versions."""

from __future__ import annotations

import pytest

from advisor.errors import InputError
from advisor.version import LATEST_PATCH, ServerVersion, parse_version

# (version, version_comment, flavor, major, minor, patch)
CASES: list[tuple[str, str | None, str, int, int, int]] = [
    ("5.7.44-log", None, "mysql", 5, 7, 44),
    ("5.7.44-log", "MySQL Community Server (GPL)", "mysql", 5, 7, 44),
    ("8.0.36", None, "mysql", 8, 0, 36),
    ("8.0.36", "MySQL Community Server - GPL", "mysql", 8, 0, 36),
    ("5.1.73-log", None, "mysql", 5, 1, 73),
    ("9.1.0", None, "mysql", 9, 1, 0),
    ("8.0.36-0ubuntu0.22.04.1", "(Ubuntu)", "mysql", 8, 0, 36),
    ("8.0.35-cluster", None, "mysql", 8, 0, 35),
    ("10.11.6-MariaDB-1:10.11.6+maria~ubu2204", None, "mariadb", 10, 11, 6),
    ("10.11.6-MariaDB-1:10.11.6+maria~ubu2204", "mariadb.org binary distribution", "mariadb", 10, 11, 6),
    ("5.5.5-10.3.39-MariaDB", None, "mariadb", 10, 3, 39),
    ("5.5.5-10.3.39-MariaDB-0+deb10u1", "Debian 10", "mariadb", 10, 3, 39),
    ("10.11.6-MariaDB", None, "mariadb", 10, 11, 6),
    ("11.4.2-MariaDB-log", None, "mariadb", 11, 4, 2),
    ("10.11.19-MariaDB-0+deb12u1", "Debian 12", "mariadb", 10, 11, 19),
    ("5.5.68-MariaDB", "MariaDB Server", "mariadb", 5, 5, 68),
    ("8.0.32-24", None, "percona", 8, 0, 32),
    ("8.0.32-24", "Percona Server (GPL), Release 24, Revision e5c6e9d2", "percona", 8, 0, 32),
    ("8.0.35-27-log", None, "percona", 8, 0, 35),
    ("5.6.51-91.0", None, "percona", 5, 6, 51),
    ("5.7.44-48-log", None, "percona", 5, 7, 44),
    ("8.0.36", "Percona Server (GPL), Release '28', Revision '47601f19'", "percona", 8, 0, 36),
    ("8.0.33-25.1", "Percona XtraDB Cluster (GPL), Release rel25, Revision 0c56202", "percona", 8, 0, 33),
    # Percona Server 5.1/5.5 release spellings (pt-mysql-summary samples in the corpus)
    ("5.1.61rel13.2", None, "percona", 5, 1, 61),
    ("5.1.61rel13.2-log", None, "percona", 5, 1, 61),
    (
        "5.5.20-rel24.1",
        "Percona Server with XtraDB (GPL), Release rel24.1, Revision 217",
        "percona",
        5,
        5,
        20,
    ),
    ("5.5.28-23.7-log", None, "percona", 5, 5, 28),
    ("5.1.58-1ubuntu1-log", None, "mysql", 5, 1, 58),
    # --server-version spellings on the command line
    ("mariadb-10.11.6", None, "mariadb", 10, 11, 6),
    ("MariaDB 10.11.6", None, "mariadb", 10, 11, 6),
    ("mysql-8.0.36", None, "mysql", 8, 0, 36),
    ("MySQL 8.4.2", None, "mysql", 8, 4, 2),
    ("percona-8.0.32-24", None, "percona", 8, 0, 32),
    ("Percona Server 8.0.32", None, "percona", 8, 0, 32),
    ("v8.0.36", None, "mysql", 8, 0, 36),
    ("  8.0.36\n", None, "mysql", 8, 0, 36),
]


@pytest.mark.parametrize(("text", "comment", "flavor", "major", "minor", "patch"), CASES)
def test_parse_version(
    text: str, comment: str | None, flavor: str, major: int, minor: int, patch: int
) -> None:
    version = parse_version(text, comment)
    assert (version.flavor, version.major, version.minor, version.patch) == (flavor, major, minor, patch)
    assert version.patch_known
    assert version.raw == text.strip()


@pytest.mark.parametrize(
    ("text", "flavor", "line"),
    [
        ("mariadb-10.11", "mariadb", "10.11"),
        ("mysql 8.0", "mysql", "8.0"),
        ("10.6", "mariadb", "10.6"),
        ("8.4", "mysql", "8.4"),
        ("percona:8.0", "percona", "8.0"),
        ("MariaDB Server 11.4", "mariadb", "11.4"),
    ],
)
def test_a_line_without_patch_stands_for_its_newest_release(text: str, flavor: str, line: str) -> None:
    version = parse_version(text)
    assert (version.flavor, version.line, version.patch_known) == (flavor, line, False)
    assert version.key == (version.major, version.minor, LATEST_PATCH)
    assert version > parse_version(f"{line}.999" if flavor != "percona" else f"percona-{line}.999")
    assert version.at_least(version.major, version.minor, 500)
    assert version.number == line


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "abc",
        "8",
        "8.x",
        "eight.zero",
        "8.0.36abc",
        "2.3.4",
        "mysql",
        "foo-8.0.36",
        "mysql-10.11.6-MariaDB",
        "percona-10.5.3",
        "MySQL 11.4.2",
        "1000.1.1",
        "x" * 300,
    ],
)
def test_bad_versions_are_input_errors(text: str) -> None:
    with pytest.raises(InputError):
        parse_version(text)


def test_bad_version_error_names_the_text() -> None:
    with pytest.raises(InputError) as caught:
        parse_version("not-a-version")
    assert "not-a-version" in caught.value.message


def test_flavor_word_mismatch_is_an_error() -> None:
    with pytest.raises(InputError, match="MariaDB"):
        parse_version("mysql-10.11.6-MariaDB")


def test_comment_names_the_fork() -> None:
    assert parse_version("10.4.32", "MariaDB Server").is_mariadb
    assert parse_version("8.0.36-28", "MySQL Community Server - GPL").flavor == "mysql"
    assert parse_version("8.0.36-28", "Source distribution").flavor == "percona"


def test_line_and_flags() -> None:
    mariadb = parse_version("10.11.6-MariaDB")
    mysql = parse_version("8.0.36")
    percona = parse_version("8.0.32-24")
    assert (mariadb.line, mysql.line, percona.line) == ("10.11", "8.0", "8.0")
    assert mariadb.is_mariadb and not mariadb.is_mysql and not mariadb.is_mysql_family
    assert mysql.is_mysql and mysql.is_mysql_family and not mysql.is_mariadb
    assert percona.is_percona and percona.is_mysql_family and not percona.is_mysql
    assert (mariadb.catalog_flavor, mysql.catalog_flavor, percona.catalog_flavor) == (
        "mariadb",
        "mysql",
        "mysql",
    )
    assert str(mariadb) == "MariaDB 10.11.6"
    assert percona.describe() == "Percona Server 8.0.32"
    assert mysql.as_tuple() == (8, 0, 36)


def test_at_least_compares_full_versions() -> None:
    version = parse_version("5.6.20")
    assert version.at_least(5, 6, 20)
    assert version.at_least(5, 6)
    assert version.at_least(5)
    assert not version.at_least(5, 6, 21)
    assert not version.at_least(5, 7)
    assert version.before(5, 6, 21)
    assert parse_version("8.0.30").at_least(8, 0, 30)
    assert not parse_version("8.0.29").at_least(8, 0, 30)
    assert parse_version("10.11.6-MariaDB").at_least(10, 5, 2)


def test_ordering_and_equality() -> None:
    ordered = [
        parse_version(text) for text in ("5.1.73", "5.5.62", "5.6.51", "5.7.44", "8.0.9", "8.0.10", "8.4.0")
    ]
    assert sorted(reversed(ordered)) == ordered
    assert parse_version("8.0.36-log") == parse_version("8.0.36")
    assert hash(parse_version("8.0.36-log")) == hash(parse_version("8.0.36"))
    assert parse_version("8.0.36") != parse_version("8.0.36-24")  # MySQL vs Percona
    assert parse_version("10.5.2-MariaDB") < parse_version("10.11.0-MariaDB")
    assert len({parse_version("8.0.36"), parse_version("8.0.36-log"), parse_version("8.0.37")}) == 2
    assert parse_version("8.0.36") < parse_version("mysql 8.0")
    assert parse_version("8.0.36") != "8.0.36"


def test_server_version_is_frozen() -> None:
    version = ServerVersion("mysql", 8, 0, 36, "8.0.36")
    with pytest.raises(AttributeError):
        version.major = 9  # type: ignore[misc]
    assert version.with_flavor("percona").flavor == "percona"
    assert version.with_flavor("percona").key == version.key
