"""config_validity against the real mariadbd on this machine: what we call refused, ignored or unreadable,
the server refuses, ignores or cannot read — line by line, for every real MariaDB-era corpus option file.

Each flagged line goes alone into `mariadbd --defaults-file=F --verbose --help`, which parses options
exactly as at startup and exits. Skipped when the binary is missing, except in CI (CI=true).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from advisor.advisors import config_validity
from advisor.audit import AuditInputs
from advisor.errors import InputError
from tests.advisor.advisors._audit import context
from tests.corpus import CORPUS

pytestmark = pytest.mark.mariadb

MARIADBD = os.environ.get("INNOTUNE_MARIADBD", "/usr/sbin/mariadbd")
TARGET = "10.11.19-MariaDB"
REFUSED = re.compile(r"unknown (?:variable|option)|ambiguous option|\[ERROR\]")
IGNORED = re.compile(r"was removed|compatible option|does nothing")
FILES = sorted(
    str(path)
    for pattern in ("realworld/mycnf/*", "percona-toolkit/**/*.cnf")
    for path in CORPUS.glob(pattern)
    if path.is_file()
)


@pytest.fixture(scope="module")
def mariadbd() -> str:
    if not shutil.which(MARIADBD):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{MARIADBD} is missing")
        pytest.skip(f"{MARIADBD} is missing")
    return MARIADBD


def _stderr(binary: str, line: str, tmp_path: Path) -> str:
    """What mariadbd says about the line; a non-zero exit without an [ERROR] line (`secure-file-priv =
    NULL`: "Failed to normalize the argument", exit 1) is a refusal too."""
    cnf = tmp_path / "line.cnf"
    cnf.write_text(f"[mysqld]\n{line}\n")
    done = subprocess.run(
        [binary, f"--defaults-file={cnf}", "--verbose", "--help", "--user=root"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    return done.stderr + (f"\n[ERROR] exit status {done.returncode}" if done.returncode else "")


def test_flagged_lines_are_what_mariadbd_says(mariadbd: str, tmp_path: Path) -> None:
    """Every line flagged critical is refused by mariadbd alone, and every ignored line draws its warning."""
    checked = 0
    for path in FILES:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        try:
            ctx = context(AuditInputs(mycnf={"my.cnf": text}, server_version=TARGET))
        except InputError:
            continue
        lines = text.splitlines()
        for item in (
            config_validity.refused_option,
            config_validity.ignored_option,
            config_validity.invalid_value,
        ):
            for proposal in item.check(ctx):
                evidence = proposal.evidence[0]
                line_number = int(evidence.source.rsplit(":", 1)[1])
                line = lines[line_number - 1].split("#", 1)[0].strip()
                if item is config_validity.ignored_option:
                    assert IGNORED.search(_stderr(mariadbd, line, tmp_path)), (path, line)
                elif proposal.severity is None or proposal.severity.value == "critical":
                    assert REFUSED.search(_stderr(mariadbd, line, tmp_path)), (path, line)
                checked += 1
    assert checked >= 20


def _started_with(binary: str, text: str, tmp_path: Path, option: str) -> str:
    """The value mariadbd would start with for `option` (its `--verbose --help` table) from this file."""
    cnf = tmp_path / "started.cnf"
    cnf.write_text(text)
    done = subprocess.run(
        [binary, f"--defaults-file={cnf}", "--verbose", "--help", "--user=root"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    found = re.search(rf"^{option}\s+(\S+)$", done.stdout, re.M)
    assert found, done.stdout[-500:]
    return found.group(1)


def test_maximum_of_a_plugin_option_sets_it_and_the_recommended_file_starts_our_pool(
    mariadbd: str, tmp_path: Path
) -> None:
    """advisor.maximum_prefix as the binary shows it: `maximum-innodb_buffer_pool_size` after the plain line
    sets the pool (1G), `maximum-sort_buffer_size` leaves the startup value alone; and the file we hand back
    for the first starts the 16G pool its finding recommends."""
    from advisor.audit import run_audit

    user = "[mysqld]\ninnodb_buffer_pool_size = 512M\nmaximum-innodb_buffer_pool_size = 1G\n"
    assert _started_with(mariadbd, user, tmp_path, "innodb-buffer-pool-size") == str(1 << 30)
    session = "[mysqld]\nmaximum-sort_buffer_size = 1M\nsort_buffer_size = 4M\n"
    assert _started_with(mariadbd, session, tmp_path, "sort-buffer-size") == str(4 << 20)
    result = run_audit(
        AuditInputs(mycnf={"my.cnf": user}, server_version=TARGET, memory="24G", cpus=2, storage="ssd")
    )
    (pool,) = [f for f in result.findings if f.rule == "buffer_pool.undersized"]
    assert pool.current_value == 1 << 30 and "maximum-innodb_buffer_pool_size = 1G" in pool.rationale
    started = _started_with(mariadbd, result.mycnf, tmp_path, "innodb-buffer-pool-size")
    assert started == str(pool.recommended_value)
