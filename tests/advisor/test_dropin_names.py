"""The drop-in's folder and name come from include resolution itself: relative uploads that an absolute
`!includedir` reads are its siblings, files the server passes over are not, and whatever is read after
the drop-in is named in `cannot_fix` (DBA review: relative uploads put `zz-innotune.cnf` before a
`zzz-local.cnf` and a `~override.cnf`, and on a real mariadbd their values won, with nothing said)."""

from __future__ import annotations

import pytest

from advisor.dropin import render_dropin
from tests.advisor.test_differ import context, setting

MAIN = "[mysqld]\nmax_connections=100\n!includedir /etc/mysql/conf.d/\n"
LOCAL = "[mysqld]\ninnodb_buffer_pool_size = 256M\n"
OVERRIDE = "[mysqld]\ninnodb_io_capacity = 100\n"
FINDINGS = [
    setting("buffer_pool.undersized", "innodb_buffer_pool_size", "1G"),
    setting("flushing.io_capacity", "innodb_io_capacity", "2000"),
]


def _uploads(root: str) -> dict[str, str]:
    return {
        f"{root}etc/mysql/my.cnf": MAIN,
        f"{root}etc/mysql/conf.d/zzz-local.cnf": LOCAL,
        f"{root}etc/mysql/conf.d/~override.cnf": OVERRIDE,
    }


@pytest.mark.parametrize("root", ["", "/"], ids=["relative", "absolute"])
def test_relative_uploads_in_the_includedir_folder_sort_before_the_dropin(root: str) -> None:
    """`etc/mysql/conf.d/~override.cnf` is read by `!includedir /etc/mysql/conf.d/` (the diff edits it):
    the drop-in is `~override~innotune.cnf` there, as with absolute paths (it was `zz-innotune.cnf`,
    read before both files, whose lines then won), and nothing is read after it."""
    dropin = render_dropin(context(_uploads(root), "10.11.6-MariaDB"), FINDINGS)
    assert dropin is not None
    assert dropin.path == "/etc/mysql/conf.d/~override~innotune.cnf"
    assert dropin.cannot_fix == ()


EXTRAS = ["README", "~~.cnf.dpkg-old", "~~.CNF", "~~.ini", "~~.conf", "old/~~.cnf"]


@pytest.mark.parametrize("root", ["", "/"], ids=["relative", "absolute"])
def test_files_the_server_does_not_read_in_the_folder_leave_the_name_alone(root: str) -> None:
    """A non-`.cnf` file (another suffix, `.CNF`, `.ini` outside Windows) or a subdirectory's file sorting
    after `~override.cnf` is passed over by mariadbd (optionincludes), so it does not move the drop-in
    either, whatever its content and wherever it is in the upload order (a review once saw
    `zz-innotune.cnf` with such a file beside absolute uploads; neither the old nor this code does that —
    a `.cnf` holding its own `!includedir` moves the drop-in, see below)."""
    for extra in EXTRAS:
        late = {f"{root}etc/mysql/conf.d/{extra}": "[mysqld]\ninnodb_buffer_pool_size = 64M\n"}
        for files in ({**_uploads(root), **late}, {**late, **_uploads(root)}):
            dropin = render_dropin(context(files, "10.11.6-MariaDB"), FINDINGS)
            assert dropin is not None
            assert (extra, dropin.path, dropin.cannot_fix) == (
                extra,
                "/etc/mysql/conf.d/~override~innotune.cnf",
                (),
            )


def test_in_a_windows_folder_ini_files_count_and_a_drive_letter_folder_stays_absolute() -> None:
    """`!includedir C:\\mysql\\conf.d` from a `my.ini`: the server reads `.ini` files there too, so a
    `~local.ini` moves the drop-in after it, into `C:/mysql/conf.d` (it went to
    `C:/ProgramData/MySQL/C:/mysql/conf.d/zz-innotune.cnf`, before `~local.ini`)."""
    files = {
        "C:/ProgramData/MySQL/my.ini": "[mysqld]\n!includedir C:\\mysql\\conf.d\n",
        "C:/mysql/conf.d/~local.ini": "[mysqld]\ninnodb_io_capacity = 100\n",
    }
    dropin = render_dropin(context(files, "10.11.6-MariaDB"), FINDINGS)
    assert dropin is not None
    assert dropin.path == "C:/mysql/conf.d/~local~innotune.cnf"
    assert dropin.cannot_fix == ()


@pytest.mark.parametrize("root", ["", "/"], ids=["relative", "absolute"])
def test_a_nested_includedir_leaves_the_dropin_after_the_rest_of_its_folder(root: str) -> None:
    """`conf.d/a.cnf` holds the last `!includedir` line (`other.d`), but mariadbd reads the rest of conf.d
    after other.d: the drop-in goes after `~override.cnf` in conf.d, and nothing overrides it (it went
    to other.d, where `zzz-local.cnf` and `~override.cnf` overrode it; tests/advisor/test_dropin_placement.py
    has the review's layout)."""
    files = {
        **_uploads(root),
        f"{root}etc/mysql/conf.d/a.cnf": "[mysqld]\n!includedir /etc/mysql/other.d/\n",
        f"{root}etc/mysql/other.d/50-server.cnf": "[mysqld]\nmax_connections = 100\n",
    }
    dropin = render_dropin(context(files, "10.11.6-MariaDB"), FINDINGS)
    assert dropin is not None
    assert (dropin.path, dropin.cannot_fix) == ("/etc/mysql/conf.d/~override~innotune.cnf", ())


def test_an_upload_no_include_reads_is_read_after_the_dropin_and_named() -> None:
    """Uploads nobody includes are read after the main file, in upload order (as mariadbd reads
    `~/.my.cnf` after `/etc/mysql/my.cnf`): a pool set there overrides the drop-in, and says so."""
    files = {**_uploads("/"), "/root/.my.cnf": "[mysqld]\ninnodb_buffer_pool_size = 128M\n"}
    dropin = render_dropin(context(files, "10.11.6-MariaDB"), FINDINGS)
    assert dropin is not None
    assert dropin.cannot_fix == (
        "/root/.my.cnf:2 sets innodb_buffer_pool_size after the drop-in is read: change or remove it there",
    )
