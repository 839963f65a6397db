"""`!include`/`!includedir` among uploaded files, and the server's read order across them."""

from __future__ import annotations

from advisor.inputs.optionfiles import OptionFileSet, groups_read
from advisor.version import parse_version
from tests.corpus import corpus_file

VIRTUBOX = "realworld/mycnf/VirtuBox_ubuntu-nginx-web-server__etc-mysql__my.cnf"
DEBIAN_MARIADB = "realworld/mycnf/ottok_mariadb-10.1__debian__mariadb.cnf"
DEBIAN_SERVER = "realworld/mycnf/ottok_mariadb-10.1__debian__50-server.cnf"
MARIADB_101 = groups_read(parse_version("10.1.48-MariaDB"))


def read(relative: str) -> str:
    return corpus_file(relative).read_bytes().decode("utf-8")


def test_included_file_overrides_what_came_before_its_include_line() -> None:
    """VirtuBox's my.cnf sets key_buffer_size = 64M (line 63), then `!include /etc/mysql/mariadb.cnf`,
    whose `!includedir` pulls in 50-server.cnf with 16M: the server ends up with 16M."""
    options = OptionFileSet.from_texts(
        {
            "/etc/mysql/my.cnf": read(VIRTUBOX),
            "/etc/mysql/mariadb.cnf": read(DEBIAN_MARIADB),
            "/etc/mysql/mariadb.conf.d/50-server.cnf": read(DEBIAN_SERVER),
        }
    )
    effective = options.effective(MARIADB_101)
    key_buffer = effective["key_buffer_size"]
    assert (key_buffer.entry.file, key_buffer.entry.line, key_buffer.entry.value) == (
        "/etc/mysql/mariadb.conf.d/50-server.cnf",
        34,
        "16M",
    )
    assert [(entry.file, entry.line, entry.value) for entry in key_buffer.shadowed] == [
        ("/etc/mysql/my.cnf", 63, "64M")
    ]
    assert effective["query_cache_size"].entry.value == "16M"
    assert effective["bind_address"].entry.value == "127.0.0.1"
    assert options.paths_read == (
        "/etc/mysql/my.cnf",
        "/etc/mysql/mariadb.cnf",
        "/etc/mysql/mariadb.conf.d/50-server.cnf",
    )


def test_missing_includes_are_warnings_naming_the_path() -> None:
    """conf.d is not uploaded: both `!includedir /etc/mysql/conf.d/` lines are warned about, by file and line."""
    options = OptionFileSet.from_texts(
        {"/etc/mysql/my.cnf": read(VIRTUBOX), "/etc/mysql/mariadb.cnf": read(DEBIAN_MARIADB)}
    )
    missing = [(w.file, w.line) for w in options.warnings if "/etc/mysql/conf.d/" in w.message]
    assert missing == [("/etc/mysql/my.cnf", 192), ("/etc/mysql/mariadb.cnf", 22)]
    assert any("/etc/mysql/mariadb.conf.d/" in w.message for w in options.warnings)


def test_uploads_with_short_paths_still_resolve() -> None:
    """Uploaded as `mariadb.cnf` and `mariadb.conf.d/50-server.cnf`, the absolute includes still find them."""
    options = OptionFileSet.from_texts(
        {
            "my.cnf": read(VIRTUBOX),
            "mariadb.cnf": read(DEBIAN_MARIADB),
            "mariadb.conf.d/50-server.cnf": read(DEBIAN_SERVER),
        }
    )
    assert options.paths_read == ("my.cnf", "mariadb.cnf", "mariadb.conf.d/50-server.cnf")
    assert options.effective(MARIADB_101)["key_buffer_size"].entry.value == "16M"


def test_include_is_read_where_it_stands_and_the_group_carries_on() -> None:
    """Entries after an `!include` come after the included file's, still in the including file's group."""
    options = OptionFileSet.from_texts(
        {
            "etc/my.cnf": "[mysqld]\na = 1\n!include extra/more.cnf\nb = 2\n",
            "etc/extra/more.cnf": "[mysqld]\na = 5\n[client]\nc = 3\n",
        }
    )
    assert [(entry.name, entry.value, entry.group) for entry in options.entries()] == [
        ("a", "1", "mysqld"),
        ("a", "5", "mysqld"),
        ("c", "3", "client"),
        ("b", "2", "mysqld"),
    ]
    assert options.effective({"mysqld"})["a"].entry.file == "etc/extra/more.cnf"


def test_includedir_reads_cnf_files_in_name_order() -> None:
    """Only `.cnf` files directly in the directory, sorted by name; upload order does not matter."""
    options = OptionFileSet.from_texts(
        {
            "/etc/my.cnf": "[mysqld]\n!includedir /etc/my.cnf.d\n",
            "/etc/my.cnf.d/b.cnf": "[mysqld]\nx = b\n",
            "/etc/my.cnf.d/a.cnf": "[mysqld]\nx = a\n",
            "/etc/my.cnf.d/notes.txt": "[mysqld]\nx = txt\n",
            "/etc/my.cnf.d/sub/c.cnf": "[mysqld]\nx = sub\n",
        }
    )
    assert [entry.value for entry in options.entries()][:2] == ["a", "b"]
    assert options.paths_read[:3] == ("/etc/my.cnf", "/etc/my.cnf.d/a.cnf", "/etc/my.cnf.d/b.cnf")


def test_windows_includedir_also_reads_ini_files() -> None:
    """On Windows the server reads .ini and .cnf from an `!includedir`."""
    options = OptionFileSet.from_texts(
        {
            "C:\\mysql\\my.ini": "[mysqld]\n!includedir C:\\mysql\\conf.d\n",
            "C:\\mysql\\conf.d\\tune.ini": "[mysqld]\nx = 1\n",
        }
    )
    assert [entry.file for entry in options.entries()] == ["C:\\mysql\\conf.d\\tune.ini"]


def test_include_cycle_is_a_warning_and_each_file_is_read_once() -> None:
    """a includes b, b includes a: both are read once, the cycle is a warning naming the line."""
    options = OptionFileSet.from_texts(
        {"a.cnf": "[mysqld]\nx = a\n!include b.cnf\n", "b.cnf": "[mysqld]\n!include a.cnf\nx = b\n"}
    )
    assert [entry.value for entry in options.entries()] == ["a", "b"]
    assert [(w.file, w.line) for w in options.warnings if "cycle" in w.message] == [("b.cnf", 2)]


def test_self_include_terminates() -> None:
    """A file including itself is read once."""
    options = OptionFileSet.from_texts({"my.cnf": "[mysqld]\n!include my.cnf\nx = 1\n"})
    assert [entry.value for entry in options.entries()] == ["1"]
    assert any("cycle" in warning.message for warning in options.warnings)


def test_files_nobody_includes_are_read_in_upload_order() -> None:
    """Two independent uploads: the later one wins."""
    options = OptionFileSet.from_texts({"one.cnf": "[mysqld]\nx = 1\n", "two.cnf": "[mysqld]\nx = 2\n"})
    assert options.effective({"mysqld"})["x"].entry.file == "two.cnf"
    assert options.main is options.files["one.cnf"]
