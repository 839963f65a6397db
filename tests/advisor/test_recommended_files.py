"""What we hand back: every uploaded file with its path, one combined diff that `patch -p1` applies from
`/`, new settings in the group the whole flavor reads, secrets kept out, and a drop-in alternative."""

from __future__ import annotations

import subprocess
from pathlib import Path

from advisor.differ import render_recommendation
from advisor.dropin import render_dropin
from advisor.unidiff import relative_path
from tests.advisor.test_differ import PATCH, context, drop, setting

TWO_FILES = {
    "/etc/mysql/my.cnf": "[client]\nport = 3306\n\n[mysqld]\nmax_connections = 100\n!includedir /etc/mysql/conf.d/\n",
    "/etc/mysql/conf.d/tuning.cnf": "[mysqld]\ninnodb_buffer_pool_size = 1G\ninnodb_io_capacity = 200\n",
}


def test_every_file_comes_back_with_its_path_and_the_combined_diff_applies_from_root(tmp_path: Path) -> None:
    """Two files, a change in each: both recommended files come back, and patch -p1 in a fake root gives
    exactly them."""
    ctx = context(TWO_FILES, "10.11.6-MariaDB")
    result = render_recommendation(
        ctx,
        [
            setting("memory.buffer_pool", "innodb_buffer_pool_size", "4G"),
            setting("connections.max", "max_connections", "300"),
        ],
    )
    assert [file.path for file in result.files] == list(TWO_FILES)
    assert all(file.diff for file in result.files)
    for path, text in TWO_FILES.items():
        target = tmp_path / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    run = subprocess.run(
        [PATCH, "-p1", "--batch"], input=result.diff.encode(), cwd=tmp_path, capture_output=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    for file in result.files:
        assert (tmp_path / file.path.lstrip("/")).read_text() == file.recommended


def test_new_settings_never_go_into_a_version_specific_group() -> None:
    """A file whose last server group is [mariadb-10.11] gets new settings in [mysqld], where the next
    major version still reads them."""
    text = "[mysqld]\nmax_connections = 100\n\n[mariadb-10.11]\ninnodb_buffer_pool_size = 1G\n"
    ctx = context({"my.cnf": text}, "10.11.6-MariaDB")
    result = render_recommendation(ctx, [setting("flushing.io", "innodb_io_capacity", "2000")])
    lines = result.main_text.splitlines()
    assert lines.index("innodb_io_capacity = 2000") < lines.index("[mariadb-10.11]")


def test_new_settings_go_to_mariadbd_when_the_file_uses_only_that() -> None:
    """[mariadbd] is read by every MariaDB from 10.4.6: a file using it gets no new [mysqld]."""
    text = "[mariadbd]\nmax_connections = 100\n"
    ctx = context({"my.cnf": text}, "10.11.6-MariaDB")
    result = render_recommendation(ctx, [setting("flushing.io", "innodb_io_capacity", "2000")])
    assert "[mysqld]" not in result.main_text
    assert result.main_text.endswith("innodb_io_capacity = 2000\n")


def test_an_unchanged_value_is_not_rewritten() -> None:
    """A finding that asks for the value already written makes no diff line (no -x / +x pairs)."""
    ctx = context({"my.cnf": "[mysqld]\nlog_bin = binlog\n"}, "8.0.36")
    result = render_recommendation(ctx, [setting("replication.binlog", "log_bin", "binlog")])
    assert result.diff == ""


def test_secret_lines_never_appear_in_the_diff_nor_the_recommended_copy(tmp_path: Path) -> None:
    """A redacted password next to a changed line: the diff carries no context line with it, the copy
    holds a comment in its place, and patch still applies the diff to the user's real file."""
    uploaded = "[client]\npassword = [REDACTED]\n[mysqld]\ninnodb_buffer_pool_size = 1G\n"
    real = uploaded.replace("[REDACTED]", "hunter2")
    ctx = context({"my.cnf": uploaded}, "8.0.36")
    result = render_recommendation(ctx, [setting("memory.buffer_pool", "innodb_buffer_pool_size", "4G")])
    assert "REDACTED" not in result.diff and "password" not in result.diff
    assert "REDACTED" not in result.main_text
    assert result.secrets_kept_out == ("my.cnf:2",)
    (tmp_path / "my.cnf").write_text(real)
    run = subprocess.run(
        [PATCH, "-p1", "--batch"], input=result.diff.encode(), cwd=tmp_path, capture_output=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert (tmp_path / "my.cnf").read_text() == real.replace("= 1G", "= 4G")


def test_dropin_goes_into_the_included_directory_and_lists_what_it_cannot_fix() -> None:
    """With `!includedir conf.d/` the drop-in is conf.d/zz-innotune.cnf; a removal is listed, not done."""
    ctx = context(TWO_FILES, "10.11.6-MariaDB")
    dropin = render_dropin(
        ctx,
        [
            setting("flushing.io", "innodb_io_capacity", "2000"),
            drop("config_validity.removed_option", "/etc/mysql/conf.d/tuning.cnf", 2),
        ],
    )
    assert dropin is not None
    assert dropin.path == "/etc/mysql/conf.d/zz-innotune.cnf"
    assert dropin.include_line is None
    assert "[mysqld]\n# innotune flushing.io" in dropin.text and "innodb_io_capacity = 2000" in dropin.text
    assert dropin.cannot_fix == (
        "/etc/mysql/conf.d/tuning.cnf:2 must be commented out in the file itself "
        "(innotune config_validity.removed_option: title of config_validity.removed_option)",
    )


def test_dropin_without_includedir_says_which_include_line_to_add() -> None:
    """No `!includedir`: the drop-in sits beside the main file and names the `!include` to append."""
    ctx = context({"/etc/my.cnf": "[mysqld]\nmax_connections = 100\n"}, "8.0.36")
    dropin = render_dropin(ctx, [setting("connections.max", "max_connections", "300")])
    assert dropin is not None
    assert (dropin.path, dropin.include_line, dropin.include_into) == (
        "/etc/innotune.cnf",
        "!include /etc/innotune.cnf",
        "/etc/my.cnf",
    )


def test_a_setting_after_the_includedir_line_is_reported_as_overriding_the_dropin() -> None:
    """The main file sets the variable after `!includedir`: the drop-in cannot win, and says so."""
    files = {"/etc/my.cnf": "[mysqld]\n!includedir /etc/conf.d\nmax_connections = 100\n"}
    ctx = context(files, "8.0.36")
    dropin = render_dropin(ctx, [setting("connections.max", "max_connections", "300")])
    assert dropin is not None
    assert any(item.startswith("/etc/my.cnf:3 sets max_connections") for item in dropin.cannot_fix)


def test_relative_path_keeps_folders_and_refuses_to_climb_out() -> None:
    """Output folders and zips place a file under its own path; a path climbing out with `..` has none."""
    assert relative_path("/etc/mysql/conf.d/tuning.cnf") == "etc/mysql/conf.d/tuning.cnf"
    assert relative_path("C:\\mysql\\my.ini") == "C:/mysql/my.ini"
    assert relative_path("/etc/../../root/x.cnf") is None


def test_the_dropin_sorts_after_every_uploaded_file_of_its_directory() -> None:
    """A user's `zzz-local.cnf` in the included directory is read after `zz-innotune.cnf` (mariadbd reads
    the directory in name order; `--print-defaults` showed its line last, so it won): the drop-in takes
    a name that sorts after it, and the user's line no longer overrides the drop-in's."""
    files = {
        "/etc/mysql/my.cnf": "[mysqld]\n!includedir /etc/mysql/mariadb.conf.d/\n",
        "/etc/mysql/mariadb.conf.d/50-server.cnf": "[mysqld]\nmax_connections = 100\n",
        "/etc/mysql/mariadb.conf.d/zzz-local.cnf": "[mysqld]\ninnodb_flush_neighbors = 1\n",
    }
    ctx = context(files, "10.11.6-MariaDB")
    dropin = render_dropin(ctx, [setting("flushing.neighbors", "innodb_flush_neighbors", "0")])
    assert dropin is not None
    assert dropin.path == "/etc/mysql/mariadb.conf.d/zzzz-innotune.cnf"
    assert dropin.path.rsplit("/", 1)[1].encode() > b"zzz-local.cnf"
    alone = render_dropin(
        context(TWO_FILES, "10.11.6-MariaDB"), [setting("connections.max", "max_connections", "300")]
    )
    assert alone is not None and alone.path == "/etc/mysql/conf.d/zz-innotune.cnf"


def test_a_sibling_no_run_of_zs_passes_gets_a_name_that_still_sorts_after_it() -> None:
    """`~local.cnf` sorts after any `z…` name: the drop-in is `~local~innotune.cnf` (the audit used to
    loop for ever prepending `z`s, in every output format, API and worker included)."""
    files = {
        "/etc/mysql/my.cnf": "[mysqld]\n!includedir /etc/mysql/conf.d/\n",
        "/etc/mysql/conf.d/~local.cnf": "[mysqld]\nmax_connections = 300\n",
        "/etc/mysql/conf.d/notes.txt.bak": "[mysqld]\nmax_connections = 1\n",
    }
    dropin = render_dropin(
        context(files, "10.11.6-MariaDB"), [setting("connections.max", "max_connections", "500")]
    )
    assert dropin is not None
    assert dropin.path == "/etc/mysql/conf.d/~local~innotune.cnf"
    assert b"~local~innotune.cnf" > b"~local.cnf"


def test_a_file_included_after_the_includedir_line_is_reported_as_overriding_the_dropin() -> None:
    """`!includedir conf.d` then `!include local.cnf`: mariadbd --print-defaults lists local.cnf's pool
    after the drop-in's, so local.cnf wins — said in cannot_fix (it was empty)."""
    files = {
        "/etc/mysql/my.cnf": "[mysqld]\n!includedir /etc/mysql/conf.d/\n!include /etc/mysql/local.cnf\n",
        "/etc/mysql/conf.d/50-server.cnf": "[mysqld]\nmax_connections = 100\n",
        "/etc/mysql/local.cnf": "[mysqld]\ninnodb_buffer_pool_size = 256M\n",
    }
    dropin = render_dropin(
        context(files, "10.11.6-MariaDB"),
        [setting("buffer_pool.undersized", "innodb_buffer_pool_size", "11G")],
    )
    assert dropin is not None and dropin.path == "/etc/mysql/conf.d/zz-innotune.cnf"
    assert any(
        item.startswith("/etc/mysql/local.cnf:2 sets innodb_buffer_pool_size") for item in dropin.cannot_fix
    )
