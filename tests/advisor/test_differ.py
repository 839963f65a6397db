"""The my.cnf differ: golden diffs, and the real `patch` program turning the original into the result."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from advisor.audit import AuditInputs
from advisor.context import AuditContext
from advisor.differ import render_changes
from advisor.engine import build_context, parse_inputs
from advisor.findings import ChangeKind, Finding, Severity
from tests.corpus import corpus_file

PATCH = shutil.which("patch") or "/usr/bin/patch"
XAMPP = "realworld/mycnf/ITS-Java-Datenbanken-Projekt_xampp__my.ini"
SYSBENCH = "realworld/mycnf/docularxu_sysbench-mysql-tests-scripts__mysqld.cnf"
GROUP_REPLICATION = "realworld/mycnf/percona_percona-docker__ps-group-replication-5.7__node.cnf"
VIRTUBOX = "realworld/mycnf/VirtuBox_ubuntu-nginx-web-server__etc-mysql__my.cnf"
DEBIAN_MARIADB = "realworld/mycnf/ottok_mariadb-10.1__debian__mariadb.cnf"
DEBIAN_SERVER = "realworld/mycnf/ottok_mariadb-10.1__debian__50-server.cnf"
MARIADB_DOCKER = "realworld/mycnf/MariaDB_mariadb-docker__docker.cnf"

SMALL = """[client]
port = 3306

[mysqld]
# memory
innodb_buffer_pool_size = 128M   # too small
query_cache_size = 0
max_connections=151

# client programs
[mysql]
auto-rehash
"""


def read(relative: str) -> str:
    return corpus_file(relative).read_bytes().decode("utf-8")


def context(mycnf: dict[str, str], version: str = "8.0.36") -> AuditContext:
    inputs = AuditInputs(mycnf=mycnf, server_version=version)
    return build_context(parse_inputs(inputs), inputs)


def setting(rule: str, variable: str, value: str) -> Finding:
    return finding(rule, "set", variable=variable, recommended=value)


def drop(rule: str, path: str, line: int) -> Finding:
    return finding(rule, "comment_out", option_file=path, option_line=line)


def finding(
    rule: str,
    change: ChangeKind,
    variable: str | None = None,
    recommended: str | None = None,
    option_file: str | None = None,
    option_line: int | None = None,
) -> Finding:
    return Finding(
        advisor=rule.split(".")[0],
        rule=rule,
        severity=Severity.WARNING,
        title=f"title of {rule}",
        rationale="because",
        evidence=(),
        variable=variable,
        current=None,
        recommended=recommended,
        restart_required=None,
        apply_sql=None,
        references=(),
        applies_to="all",
        change=change,
        option_file=option_file,
        option_line=option_line,
    )


def patched(tmp_path: Path, files: dict[str, str], diff: str) -> dict[str, str]:
    """Write `files` under tmp_path, run `patch -p1` with `diff`, return the files' new texts."""
    for path, text in files.items():
        target = tmp_path / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    run = subprocess.run(
        [PATCH, "-p1", "--batch", "--silent"], input=diff.encode(), cwd=tmp_path, capture_output=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return {path: (tmp_path / path.lstrip("/")).read_bytes().decode("utf-8") for path in files}


def test_patch_program_is_installed() -> None:
    """The diff is meant for the real `patch`; it must be on this machine."""
    assert Path(PATCH).is_file(), "install GNU patch (apt-get install patch)"


def test_golden_diff_for_a_small_file() -> None:
    """Edit in place, comment out, add under [mysqld] with the rule named: exactly this diff."""
    ctx = context({"etc/my.cnf": SMALL})
    diff, mycnf = render_changes(
        ctx,
        [
            setting("memory.buffer_pool", "innodb_buffer_pool_size", "12G"),
            drop("compat.query_cache", "etc/my.cnf", 7),
            setting("connections.max", "max_connections", "500"),
            setting("durability.flush", "innodb_flush_log_at_trx_commit", "1"),
        ],
    )
    assert diff == (
        "--- a/etc/my.cnf\n"
        "+++ b/etc/my.cnf\n"
        "@@ -3,9 +3,11 @@\n"
        " \n"
        " [mysqld]\n"
        " # memory\n"
        "-innodb_buffer_pool_size = 128M   # too small\n"
        "-query_cache_size = 0\n"
        "-max_connections=151\n"
        "+innodb_buffer_pool_size = 12G   # too small\n"
        "+# query_cache_size = 0  # innotune compat.query_cache: title of compat.query_cache\n"
        "+max_connections=500\n"
        "+# innotune durability.flush: title of durability.flush\n"
        "+innodb_flush_log_at_trx_commit=1\n"
        " \n"
        " # client programs\n"
        " [mysql]\n"
    )
    assert mycnf.startswith(
        "[client]\nport = 3306\n\n[mysqld]\n# memory\ninnodb_buffer_pool_size = 12G   # too small\n"
    )
    assert mycnf.endswith("innodb_flush_log_at_trx_commit=1\n\n# client programs\n[mysql]\nauto-rehash\n")


def test_golden_diff_when_mysqld_group_is_missing() -> None:
    """No server group: a [mysqld] section is created at the end, after a blank line."""
    ctx = context({"my.cnf": "[client]\nport = 3306\n"})
    diff, mycnf = render_changes(ctx, [setting("memory.buffer_pool", "innodb_buffer_pool_size", "1G")])
    assert diff == (
        "--- a/my.cnf\n"
        "+++ b/my.cnf\n"
        "@@ -1,2 +1,6 @@\n"
        " [client]\n"
        " port = 3306\n"
        "+\n"
        "+[mysqld]\n"
        "+# innotune memory.buffer_pool: title of memory.buffer_pool\n"
        "+innodb_buffer_pool_size = 1G\n"
    )
    assert (
        mycnf
        == "[client]\nport = 3306\n\n[mysqld]\n# innotune memory.buffer_pool: title of memory.buffer_pool\ninnodb_buffer_pool_size = 1G\n"
    )


def test_without_an_uploaded_file_a_fresh_one_is_built() -> None:
    """No my.cnf: a minimal [mysqld] file with each setting under its comment, diffed from /dev/null."""
    inputs = AuditInputs(server_version="8.0.36")
    ctx = build_context(parse_inputs(inputs), inputs)
    diff, mycnf = render_changes(
        ctx,
        [
            setting("memory.buffer_pool", "innodb_buffer_pool_size", "12G"),
            setting("mysqld_safe.malloc", "malloc_lib", "tcmalloc"),
        ],
    )
    assert mycnf == (
        "[mysqld]\n# innotune memory.buffer_pool: title of memory.buffer_pool\ninnodb_buffer_pool_size = 12G\n\n"
        "[mysqld_safe]\n# innotune mysqld_safe.malloc: title of mysqld_safe.malloc\nmalloc_lib = tcmalloc\n"
    )
    assert diff.startswith("--- /dev/null\n+++ b/my.cnf\n@@ -0,0 +1,7 @@\n+[mysqld]\n")
    assert render_changes(ctx, []) == ("", "")


def test_no_changes_give_no_diff_and_the_file_as_is() -> None:
    """With nothing to change, the diff is empty and the recommended file is the upload."""
    ctx = context({"my.cnf": SMALL})
    assert render_changes(ctx, []) == ("", SMALL)


def test_patch_reproduces_the_recommended_file(tmp_path: Path) -> None:
    """`patch -p1` applied to the sysbench file gives exactly the recommended text; UTF-8 comments kept."""
    text = read(SYSBENCH)
    ctx = context({"mysqld.cnf": text})
    diff, mycnf = render_changes(
        ctx,
        [
            setting("memory.buffer_pool", "innodb_buffer_pool_size", "96G"),
            setting("durability.flush", "innodb_flush_log_at_trx_commit", "1"),
            setting("connections.max", "max_connections", "2000"),
            drop("compat.ahi", "mysqld.cnf", 143),
        ],
    )
    assert "#设置buffer poll size" in mycnf and "innodb_buffer_pool_size=96G #设置" in mycnf
    assert patched(tmp_path, {"mysqld.cnf": text}, diff) == {"mysqld.cnf": mycnf}
    # the duplicate on line 115 is shadowed: only the effective line 136 is edited
    assert mycnf.split("\n")[114].startswith("innodb_flush_log_at_trx_commit=0")
    assert mycnf.split("\n")[135] == "innodb_flush_log_at_trx_commit=1"


def test_crlf_file_stays_crlf_through_patch(tmp_path: Path) -> None:
    """The CRLF xampp my.ini: edited and added lines end in CRLF, and patch reproduces the result."""
    text = read(XAMPP)
    ctx = context({"my.ini": text}, "5.5.62")
    diff, mycnf = render_changes(
        ctx,
        [
            setting("memory.key_buffer", "key_buffer_size", "64M"),
            setting("memory.buffer_pool", "innodb_buffer_pool_size", "1G"),
        ],
    )
    assert "\n" not in mycnf.replace("\r\n", "")
    assert mycnf.count("\r\n") == text.count("\r\n") + 2
    assert patched(tmp_path, {"my.ini": text}, diff) == {"my.ini": mycnf}


def test_loose_spelling_is_kept_when_editing(tmp_path: Path) -> None:
    """`loose-group_replication_…` keeps its raw name; only the value changes."""
    text = read(GROUP_REPLICATION)
    ctx = context({"node.cnf": text}, "5.7.44")
    diff, mycnf = render_changes(
        ctx,
        [setting("replication.gr", "group_replication_group_name", "bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb")],
    )
    changed = [line for line in diff.split("\n") if line.startswith("+") and not line.startswith("+++")]
    assert changed == ['+loose-group_replication_group_name="bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb"']
    assert patched(tmp_path, {"node.cnf": text}, diff) == {"node.cnf": mycnf}


def test_skip_prefixed_line_is_rewritten_in_place() -> None:
    """`skip-log-bin` (sysbench line 54) with a recommended log_bin value becomes `log_bin = …` there."""
    ctx = context({"mysqld.cnf": read(SYSBENCH)})
    _, mycnf = render_changes(ctx, [setting("replication.binlog", "log_bin", "mysql-bin")])
    assert mycnf.split("\n")[53] == "log_bin = mysql-bin"


def test_edit_lands_in_the_included_file_that_wins(tmp_path: Path) -> None:
    """VirtuBox's my.cnf sets key_buffer_size but the included 50-server.cnf wins: the diff edits that file
    only, and the recommended my.cnf (the main file) is unchanged."""
    files = {
        "etc/mysql/my.cnf": read(VIRTUBOX),
        "etc/mysql/mariadb.cnf": read(DEBIAN_MARIADB),
        "etc/mysql/mariadb.conf.d/50-server.cnf": read(DEBIAN_SERVER),
    }
    ctx = context(files, "10.1.48-MariaDB")
    diff, mycnf = render_changes(ctx, [setting("memory.key_buffer", "key_buffer_size", "32M")])
    assert diff.startswith(
        "--- a/etc/mysql/mariadb.conf.d/50-server.cnf\n+++ b/etc/mysql/mariadb.conf.d/50-server.cnf\n"
    )
    assert "+key_buffer_size\t\t= 32M\n" in diff
    assert mycnf == files["etc/mysql/my.cnf"]
    result = patched(tmp_path, files, diff)
    assert result["etc/mysql/mariadb.conf.d/50-server.cnf"].count("32M") == 1
    assert result["etc/mysql/my.cnf"] == files["etc/mysql/my.cnf"]


def test_several_changed_files_are_all_in_the_diff(tmp_path: Path) -> None:
    """An edit in an included file and an addition to the main file: one diff, patch applies both."""
    files = {
        "my.cnf": "[mysqld]\nmax_connections = 100\n!include conf.d/tune.cnf\n",
        "conf.d/tune.cnf": "[mysqld]\ninnodb_buffer_pool_size = 1G\n",
    }
    ctx = context(files)
    diff, mycnf = render_changes(
        ctx,
        [
            setting("memory.buffer_pool", "innodb_buffer_pool_size", "4G"),
            setting("redo.size", "innodb_redo_log_capacity", "2G"),
        ],
    )
    assert diff.count("--- a/") == 2
    assert mycnf == (
        "[mysqld]\nmax_connections = 100\n!include conf.d/tune.cnf\n"
        "# innotune redo.size: title of redo.size\ninnodb_redo_log_capacity = 2G\n"
    )
    result = patched(tmp_path, files, diff)
    assert result == {"my.cnf": mycnf, "conf.d/tune.cnf": "[mysqld]\ninnodb_buffer_pool_size = 4G\n"}


def test_mariadb_settings_go_to_the_last_server_group() -> None:
    """MariaDB docker.cnf has [mariadb] then [client-server]: new settings go under [mariadb], not the
    client-shared group."""
    text = read(MARIADB_DOCKER)
    ctx = context({"docker.cnf": text}, "10.11.6-MariaDB")
    _, mycnf = render_changes(ctx, [setting("memory.buffer_pool", "innodb_buffer_pool_size", "2G")])
    before_client = mycnf.split("[client-server]")[0]
    assert "innodb_buffer_pool_size = 2G" in before_client or "innodb_buffer_pool_size=2G" in before_client


def test_file_without_final_newline_patches_cleanly(tmp_path: Path) -> None:
    """An addition after a last line without newline: the diff says so, and patch gets it right."""
    text = "[mysqld]\nmax_connections = 100"
    ctx = context({"my.cnf": text})
    diff, mycnf = render_changes(ctx, [setting("memory.buffer_pool", "innodb_buffer_pool_size", "1G")])
    assert "\\ No newline at end of file" in diff
    assert patched(tmp_path, {"my.cnf": text}, diff) == {"my.cnf": mycnf}
    assert mycnf.startswith(text + "\n")


def test_commented_line_is_not_edited_again() -> None:
    """A variable whose only line is commented out by another finding is added anew instead."""
    ctx = context({"my.cnf": "[mysqld]\ntx_isolation = READ-COMMITTED\n"}, "5.7.44")
    _, mycnf = render_changes(
        ctx,
        [drop("compat.renamed", "my.cnf", 2), setting("isolation.level", "tx_isolation", "REPEATABLE-READ")],
    )
    assert mycnf == (
        "[mysqld]\n# tx_isolation = READ-COMMITTED  # innotune compat.renamed: title of compat.renamed\n"
        "# innotune isolation.level: title of isolation.level\ntransaction_isolation = REPEATABLE-READ\n"
    )


@pytest.mark.parametrize("relative", [SYSBENCH, XAMPP, GROUP_REPLICATION, DEBIAN_SERVER])
def test_patch_round_trip_on_real_files(tmp_path: Path, relative: str) -> None:
    """For several real files and a mix of edits, additions and comment-outs, patch gives the result."""
    text = read(relative)
    ctx = context({"my.cnf": text})
    entries = [entry for entry in ctx.options.entries() if entry.group == "mysqld"] if ctx.options else []
    findings = [setting("x.threads", "thread_cache_size", "64"), setting("x.tmp", "tmp_table_size", "64M")]
    if entries:
        findings.append(drop("x.drop", "my.cnf", entries[0].line))
    diff, mycnf = render_changes(ctx, findings)
    assert diff
    assert patched(tmp_path, {"my.cnf": text}, diff) == {"my.cnf": mycnf}
