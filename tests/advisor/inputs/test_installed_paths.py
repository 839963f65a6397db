"""Where the server reads an upload given by a relative path: the absolute include that resolved it."""

from __future__ import annotations

from advisor.inputs.optionfiles import OptionFileSet

MAIN = (
    "[mysqld]\n!include /etc/mysql/extra.cnf\n!includedir /etc/mysql/conf.d/\n!include local.cnf\n"
    "!include /etc/mysql/abs.cnf\n"
)


def test_relative_uploads_get_the_path_of_the_absolute_include_that_reads_them() -> None:
    options = OptionFileSet.from_texts(
        {
            "/etc/mysql/my.cnf": MAIN,
            "extra.cnf": "[mysqld]\nmax_connections = 10\n",
            "conf.d/tuning.cnf": "[mysqld]\nsort_buffer_size = 2M\n",
            "/etc/mysql/abs.cnf": "[mysqld]\nwait_timeout = 60\n",
            "local.cnf": "[mysqld]\nport = 3307\n",
        }
    )
    assert options.installed_paths == {
        "extra.cnf": "/etc/mysql/extra.cnf",
        "conf.d/tuning.cnf": "/etc/mysql/conf.d/tuning.cnf",
        # local.cnf: a relative `!include` is read from the server's working directory, not /etc/mysql
        # (advisor.dropin): no path is claimed; an absolute upload keeps its own
    }


def test_a_main_file_without_its_path_claims_nothing() -> None:
    options = OptionFileSet.from_texts(
        {"my.cnf": "[mysqld]\n!include extra.cnf\n", "extra.cnf": "[mysqld]\nmax_connections = 10\n"}
    )
    assert options.installed_paths == {}


def test_a_bare_name_is_read_from_the_only_includedir() -> None:
    """A DBA review's case: `/etc/mysql/my.cnf` with `!includedir /etc/mysql/conf.d/` and `tuning.cnf`
    uploaded by its name. It was read as a file of its own (its values counted) while a warning said no
    uploaded file was in the folder; it is conf.d's file, read where the server reads it."""
    options = OptionFileSet.from_texts(
        {
            "/etc/mysql/my.cnf": "[mysqld]\nmax_connections = 100\n!includedir /etc/mysql/conf.d/\n",
            "tuning.cnf": "[mysqld]\nmax_connections = 200\n",
        }
    )
    assert not [w for w in options.warnings if "no uploaded .cnf file" in w.message]
    assert options.installed_paths == {"tuning.cnf": "/etc/mysql/conf.d/tuning.cnf"}
    assert options.paths_read == ("/etc/mysql/my.cnf", "tuning.cnf")


def test_a_bare_name_stays_apart_beside_two_includedirs_or_when_the_folder_has_uploads() -> None:
    """Debian's conf.d/ and mariadb.conf.d/: which one is not known; an upload with the folder's path
    (`conf.d/a.cnf`) shows what the folder holds, and a bare name beside it is not guessed into it."""
    two = OptionFileSet.from_texts(
        {
            "/etc/mysql/my.cnf": "[mysqld]\n!includedir /etc/mysql/conf.d/\n!includedir /etc/mysql/mariadb.conf.d/\n",
            "tuning.cnf": "[mysqld]\nmax_connections = 200\n",
        }
    )
    assert two.installed_paths == {}
    given = OptionFileSet.from_texts(
        {
            "/etc/mysql/my.cnf": "[mysqld]\n!includedir /etc/mysql/conf.d/\n",
            "conf.d/a.cnf": "[mysqld]\nwait_timeout = 60\n",
            "tuning.cnf": "[mysqld]\nmax_connections = 200\n",
        }
    )
    assert given.installed_paths == {"conf.d/a.cnf": "/etc/mysql/conf.d/a.cnf"}
