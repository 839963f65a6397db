"""Every recommended my.cnf for a MariaDB 10.11 target starts the real mariadbd on this machine.

`mariadbd --defaults-file=F --verbose --help` reads the file exactly as at startup and exits: it
must exit 0 and print no [ERROR] (an unknown option, a bad value). Inputs: every advisor case that
targets 10.11, and every option file of the corpus (MySQL's, Percona's and MariaDB's, of any
version) audited as 10.11: what we hand back must start the server the DBA installs it on.
"""

from __future__ import annotations

import os
import shutil

import pytest

from advisor.audit import AuditInputs, run_audit
from tests.advisor.case_files import load_cases
from tests.advisor.inputs.test_optionfiles_corpus import OPTION_FILES, REFUSED
from tests.corpus import CORPUS
from tests.fixtures.recommended_mariadbd import check, installed_block

pytestmark = pytest.mark.mariadb

MARIADBD = os.environ.get("INNOTUNE_MARIADBD", "/usr/sbin/mariadbd")
TARGET = "10.11.19-MariaDB"
# Every corpus option file, whatever flavor and version it was written for, re-targeted to MariaDB 10.11,
# except files refused on purpose and one whose plugin path does not exist on this machine (the real
# server then fails to load that plugin before it reads a line of ours).
SKIPPED = {
    "percona-toolkit/t/lib/samples/configs/mycnf-baron-001.txt": (
        "plugin-load points at /home/baron/.../ha_innodb_plugin.so, which is not on this machine"
    ),
}
CORPUS_FILES = [path for path in OPTION_FILES if path not in REFUSED and path not in SKIPPED]


def _inputs() -> list[tuple[str, AuditInputs]]:
    found = [
        (case.id, case.inputs)
        for case in load_cases()
        if (case.inputs.server_version or "").startswith("10.11") and case.inputs.mycnf
    ]
    # Vitess appends this fragment under its own [mysqld] header; alone, mariadbd refuses it too.
    fragments = {"realworld/mycnf/vitessio_vitess__mariadb104.cnf": "[mysqld]\n"}
    for relative in [*CORPUS_FILES, *fragments]:
        text = fragments.get(relative, "") + (CORPUS / relative).read_text()
        inputs = AuditInputs(
            mycnf={"my.cnf": text}, server_version=TARGET, memory="8G", cpus=4, storage="ssd"
        )
        found.append((relative, inputs))
    return found


INPUTS = _inputs()


@pytest.fixture(scope="module")
def mariadbd() -> str:
    if not shutil.which(MARIADBD):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{MARIADBD} is missing")
        pytest.skip(f"{MARIADBD} is missing")
    return MARIADBD


@pytest.mark.parametrize(("name", "inputs"), INPUTS, ids=[name for name, _ in INPUTS])
def test_recommended_mycnf_is_accepted_by_mariadbd(name: str, inputs: AuditInputs, mariadbd: str) -> None:
    """The whole recommended file passes mariadbd's own option parsing without an error."""
    result = run_audit(inputs)
    unread = {e.value for f in result.findings if f.rule == "config_validity.unread_file" for e in f.evidence}
    text = "".join(file.recommended for file in result.files if file.path not in unread) or result.mycnf
    refusal = check(
        text + installed_block(inputs)
    )  # mariadbd --defaults-file=F --verbose --help, through the session's cache
    assert refusal is None, f"{name}: {refusal}"


def test_the_corpus_retargeting_covers_every_option_file() -> None:
    """65 corpus files are checked against the real server; the one skipped is named with its reason."""
    assert len(CORPUS_FILES) == len(OPTION_FILES) - len(REFUSED) - len(SKIPPED) == 65


def test_the_session_check_reports_what_mariadbd_refuses(mariadbd: str) -> None:
    """The check every recommended text goes through (here and suite-wide) can fail: a misspelt option
    is mariadbd's 'unknown variable' (exit 7); the same file with the full name passes."""
    refusal = check("[mysqld]\nmax_conections = 50\n")
    assert refusal is not None and "unknown variable" in refusal
    assert check("[mysqld]\nmax_connections = 50\n") is None
