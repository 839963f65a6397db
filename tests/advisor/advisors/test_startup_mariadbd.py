"""The startup rules and loaded plugins against real starts: a private mariadbd (own datadir, socket, port)
started with each case's option file aborts where the rule fires, and starts with the file we hand back.

`--verbose --help` cannot tell: these files pass the option parser and stop while the engines initialise.
Skipped when mariadbd is missing, except in CI (CI=true).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator

import pytest

from advisor.audit import AuditInputs, run_audit
from advisor.engine import parse_inputs
from tests.advisor.case_files import CASES_DIR, Case, load_cases
from tests.fixtures.private_mariadb import PrivateMariadb, installed_mariadb

pytestmark = pytest.mark.mariadb

# one file each, no includes, a MariaDB target: the file is handed to mariadbd as --defaults-file (the
# MySQL cases are run on MySQL's own binaries by bench/mysql_acceptance.py)
STARTUP_CASES = [
    case
    for case in load_cases()
    if case.path.parent == CASES_DIR / "startup"
    and len(case.inputs.mycnf) == 1
    and "corpus" not in case.path.name
    and parse_inputs(case.inputs).version.is_mariadb
]


@pytest.fixture(scope="module")
def server() -> Iterator[PrivateMariadb]:
    """One installed datadir (never started by the fixture): each test starts it with a file of its own."""
    with installed_mariadb("innotune-startup-") as instance:
        yield instance


def _starts(server: PrivateMariadb, text: str) -> tuple[bool, str]:
    """Start mariadbd with `text` as its option file; (came up, its log). Stopped again at once."""
    cnf = server.root / "test.cnf"
    cnf.write_text(text)
    cnf.chmod(0o644)
    log = server.root / "start.log"
    argv = [
        "mariadbd", f"--defaults-file={cnf}", f"--datadir={server.datadir}", f"--socket={server.socket}",
        f"--port={server.port}", "--bind-address=127.0.0.1", f"--pid-file={server.root / 'mysqld.pid'}",
        f"--tmpdir={server.root / 'tmp'}", "--innodb-buffer-pool-size=64M", *server._user(),
    ]  # fmt: skip
    with log.open("w") as output:
        server.process = subprocess.Popen(argv, stdout=output, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and server.process.poll() is None:
            if "ready for connections" in log.read_text(errors="replace"):
                server.stop()
                return True, log.read_text(errors="replace")
            time.sleep(0.2)
    server.stop()
    return False, log.read_text(errors="replace")


@pytest.mark.parametrize("case", STARTUP_CASES, ids=[case.id for case in STARTUP_CASES])
def test_case_files_fail_and_recommended_files_start(server: PrivateMariadb, case: Case) -> None:
    """Where a startup rule fires the file as given aborts; the recommended file starts in every case."""
    (given,) = case.inputs.mycnf.values()
    result = run_audit(case.inputs)
    if case.fires:
        came_up, log = _starts(server, given)
        assert not came_up, f"{case.id}: the file as given started; the rule says it does not"
        assert "[ERROR]" in log
    (recommended,) = [file.recommended for file in result.files]
    came_up, log = _starts(server, recommended)
    assert came_up, f"{case.id}: the recommended file did not start:\n{recommended}\n{log[-1500:]}"


def test_loaded_key_plugin_file_starts(server: PrivateMariadb) -> None:
    """plugin_load_add = file_key_management with its key file and encryption on (review case 05): the
    recommended file keeps the plugin's options and starts; without them InnoDB would abort."""
    keys = server.root / "keys.txt"
    keys.write_text("1;" + "a1" * 32 + "\n")
    keys.chmod(0o644)
    given = (
        "[mysqld]\nplugin_load_add = file_key_management\n"
        f"file_key_management_filename = {keys}\ninnodb_encrypt_tables = ON\ninnodb_encrypt_log = ON\n"
    )
    result = run_audit(AuditInputs(mycnf={"/etc/mysql/my.cnf": given}, server_version="10.11.19-MariaDB"))
    (recommended,) = [file.recommended for file in result.files]
    assert f"file_key_management_filename = {keys}" in recommended.splitlines()
    came_up, log = _starts(server, recommended)
    assert came_up, log[-1500:]


def test_plugins_installed_with_install_soname_keep_their_options() -> None:
    """Review case 11: plugins installed with INSTALL SONAME load from mysql.plugin at every start, without a
    plugin_load_add line. Audited with the live SHOW GLOBAL VARIABLES of that server, the file's options of
    those plugins are kept, and the recommended file starts the same data directory;
    on a fresh data directory (nothing installed) the same file aborts ("unknown variable")."""
    given = (
        "[mysqld]\nserver_audit_logging = ON\nserver_audit_events = CONNECT,QUERY_DDL\n"
        "simple_password_check_minimal_length = 12\n"
    )
    with installed_mariadb("innotune-installed-") as instance:
        came_up, log = _starts(instance, given)
        assert not came_up and "unknown variable 'server_audit_logging=ON'" in log
        instance.start()
        instance.execute("INSTALL SONAME 'server_audit'", "INSTALL SONAME 'simple_password_check'")
        rows = instance.execute("SHOW GLOBAL VARIABLES")
        instance.stop()
        dump = "Variable_name\tValue\n" + "".join(f"{name}\t{value}\n" for name, value in rows)
        result = run_audit(
            AuditInputs(mycnf={"/etc/mysql/my.cnf": given}, variables=dump, server_version="10.11.19-MariaDB")
        )
        assert not [f for f in result.findings if f.rule == "config_validity.refused_option"]
        (recommended,) = [file.recommended for file in result.files]
        assert "server_audit_logging = ON" in recommended.splitlines()
        came_up, log = _starts(instance, recommended)
        assert came_up, log[-1500:]
