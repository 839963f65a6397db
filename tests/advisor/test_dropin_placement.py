"""Where the drop-in goes (DBA review, mariadbd 10.11.19): into the folder whose files the server reads
last, walking the includes as the server does (a nested `!includedir` put it before the rest of the
enclosing folder, whose values then won), and beside the main file only with an absolute `!include`
(a relative one is read from the server's working directory, `/` under systemd, and silently skipped)."""

from __future__ import annotations

import re

import pytest

from advisor.dropin import render_dropin
from tests.advisor.test_differ import context, setting

FINDINGS = [
    setting("buffer_pool.undersized", "innodb_buffer_pool_size", "1G"),
    setting("flushing.io_capacity", "innodb_io_capacity", "2000"),
    setting("flushing.neighbors", "innodb_flush_neighbors", "0"),
]


def nested(root: str) -> dict[str, str]:
    """The review's layout: the main file reads conf.d then mariadb.conf.d, whose first file reads
    extra.d; the rest of mariadb.conf.d sets what the drop-in sets."""
    return {
        f"{root}/my.cnf": f"[mysqld]\n!includedir {root}/conf.d/\n!includedir {root}/mariadb.conf.d/\n",
        f"{root}/mariadb.conf.d/10-nest.cnf": f"[mysqld]\n!includedir {root}/extra.d/\n",
        f"{root}/mariadb.conf.d/50-server.cnf": (
            "[mysqld]\ninnodb_buffer_pool_size = 128M\ninnodb_io_capacity = 100\ninnodb_flush_neighbors = 1\n"
        ),
        f"{root}/mariadb.conf.d/zzz-local.cnf": "[mysqld]\ninnodb_io_capacity = 150\n",
        f"{root}/mariadb.conf.d/~override.cnf": "[mysqld]\ninnodb_flush_neighbors = 1\n",
        f"{root}/extra.d/a.cnf": "[mysqld]\nmax_connections = 120\n",
    }


def test_a_nested_includedir_does_not_take_the_dropin_before_the_rest_of_its_folder() -> None:
    """extra.d is the last `!includedir` line read, but mariadb.conf.d is read after it (50-server.cnf
    … ~override.cnf): the drop-in goes there, after ~override.cnf, and nothing overrides it (it went to
    extra.d/zz-innotune.cnf with three "cannot fix" lines, and on mariadbd none of its values won)."""
    dropin = render_dropin(context(nested("/etc/mysql"), "10.11.19-MariaDB"), FINDINGS)
    assert dropin is not None
    assert (dropin.path, dropin.include_line, dropin.cannot_fix) == (
        "/etc/mysql/mariadb.conf.d/~override~innotune.cnf",
        None,
        (),
    )


def test_the_folder_read_last_wins_whatever_the_upload_order() -> None:
    """The choice follows the server's read order, not the order the files were given in."""
    files = nested("/etc/mysql")
    backwards = dict(reversed(list(files.items())))
    backwards = {"/etc/mysql/my.cnf": files["/etc/mysql/my.cnf"], **backwards}
    dropin = render_dropin(context(backwards, "10.11.19-MariaDB"), FINDINGS)
    assert dropin is not None
    assert (dropin.path, dropin.cannot_fix) == ("/etc/mysql/mariadb.conf.d/~override~innotune.cnf", ())


def test_a_nested_folder_in_the_last_file_of_its_folder_still_comes_before_the_dropin() -> None:
    """The nested `!includedir` stands in the folder's last file, so the enclosing folder ends right
    after late.d: a tie, which goes to the folder finished last (the drop-in sorts after `z.cnf` there
    and is read after late.d's `b.cnf` too; late.d/zz-innotune.cnf, the old choice, was as good)."""
    files = {
        "/etc/my.cnf": "[mysqld]\n!includedir /etc/my.cnf.d/\n",
        "/etc/my.cnf.d/a.cnf": "[mysqld]\ninnodb_io_capacity = 100\n",
        "/etc/my.cnf.d/z.cnf": "[mysqld]\n!includedir /etc/late.d/\n",
        "/etc/late.d/b.cnf": "[mysqld]\ninnodb_io_capacity = 150\n",
    }
    dropin = render_dropin(context(files, "10.11.19-MariaDB"), FINDINGS)
    assert dropin is not None
    assert (dropin.path, dropin.cannot_fix) == ("/etc/my.cnf.d/zz-innotune.cnf", ())


@pytest.mark.parametrize(
    ("main", "path"),
    [
        ("/etc/my.cnf", "/etc/innotune.cnf"),
        ("/etc/mysql/../my.cnf", "/etc/innotune.cnf"),
        ("C:\\ProgramData\\my.ini", "C:/ProgramData/innotune.cnf"),
        ("C:/ProgramData/MariaDB/my.ini", "C:/ProgramData/MariaDB/innotune.cnf"),
        ("C:\\my.ini", "C:/innotune.cnf"),
    ],
)
def test_beside_the_main_file_the_include_line_names_an_absolute_path(main: str, path: str) -> None:
    """Windows spellings too: `C:\\ProgramData\\my.ini` gave `!include innotune.cnf` (the backslashes
    were not normalised, so the folder was lost); mysys reads `/` as a separator on Windows as well,
    the spelling the `!includedir` placement already gives."""
    dropin = render_dropin(context({main: "[mysqld]\nmax_connections = 100\n"}, "10.11.19-MariaDB"), FINDINGS)
    assert dropin is not None
    assert (dropin.path, dropin.include_line, dropin.include_into, dropin.include_note) == (
        path,
        f"!include {path}",
        main,
        None,
    )


@pytest.mark.parametrize("main", ["my.cnf", "etc/mysql/my.cnf", "./my.cnf", "conf\\my.ini"])
def test_a_main_file_given_by_a_relative_path_gets_no_relative_include_line(main: str) -> None:
    """`--mycnf my.cnf` gave `!include innotune.cnf`, which mariadbd started by systemd (from `/`)
    skips without a word. Its folder on the server is unknown: no line, and the note says to give the
    absolute path, or to append one, never a relative one."""
    dropin = render_dropin(context({main: "[mysqld]\nmax_connections = 100\n"}, "10.11.19-MariaDB"), FINDINGS)
    assert dropin is not None
    assert dropin.include_line is None
    assert dropin.include_into == main
    assert dropin.include_note is not None
    assert f"{main} was given by a relative path" in dropin.include_note
    assert "absolute path" in dropin.include_note and "Never a relative path" in dropin.include_note


def test_without_any_option_file_no_include_line_names_a_relative_path_or_none() -> None:
    """No option file at all: it said `append '!include innotune.cnf' to None`."""
    dropin = render_dropin(context({}, "10.11.19-MariaDB"), FINDINGS)
    assert dropin is not None
    assert (dropin.include_line, dropin.include_into) == (None, None)
    assert dropin.include_note is not None and dropin.include_note.startswith("no option file was given")


@pytest.mark.parametrize(
    "main", ["/etc/my.cnf", "my.cnf", "a/b.cnf", "C:\\x\\my.ini", "C:/my.ini", "~/.my.cnf", "..\\my.ini"]
)
def test_an_include_line_is_absolute_or_absent(main: str) -> None:
    dropin = render_dropin(context({main: "[mysqld]\nmax_connections = 100\n"}, "10.11.19-MariaDB"), FINDINGS)
    assert dropin is not None
    if dropin.include_line is None:
        assert dropin.include_note is not None
    else:
        # what mariadbd finds from any working directory: `/…`, `~/…` (it expands `~`), a drive
        assert re.match(r"!include ([/~]|[A-Za-z]:[/\\])", dropin.include_line), dropin.include_line
