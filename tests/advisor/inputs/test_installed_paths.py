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
