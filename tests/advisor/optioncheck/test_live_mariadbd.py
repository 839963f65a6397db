"""A sample of the kept cases asked again of the real mariadbd on this machine.

`mariadbd --defaults-file=F --verbose --help` with F holding `[mysqld]` and one line parses the
file as at startup and exits. The server's reaction (exit code not 0: refuses; "Parsing options
for plugin 'X' failed": disables a plugin; else accepts) must match both the recorded case and
judge(). Skipped when the binary is missing, except in CI (CI=true), where that is a failure.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from advisor.optioncheck import judge
from advisor.optioncheck.data import mariadb
from advisor.optioncheck.versions import history
from tests.advisor.optioncheck.test_cases import CASES, CLASS
from tests.fixtures.real_services import IN_CI

pytestmark = pytest.mark.mariadb

MARIADBD = os.environ.get("INNOTUNE_MARIADBD", "/usr/sbin/mariadbd")
PLUGIN_FAILED = re.compile(r"Parsing options for plugin '([^']+)' failed")


def _sample() -> list[dict[str, Any]]:
    """About 30 cases, every observed class represented, the same ones on every run."""
    rng = random.Random(17)
    by_class: dict[str, list[dict[str, Any]]] = {}
    for case in CASES:
        by_class.setdefault(case["observed"], []).append(case)
    return [case for cases in by_class.values() for case in rng.sample(cases, min(10, len(cases)))]


@pytest.fixture(scope="module")
def mariadbd() -> str:
    if not (os.path.isfile(MARIADBD) and os.access(MARIADBD, os.X_OK)):
        if IN_CI:
            pytest.fail(f"{MARIADBD} is missing, and CI must ask the real server")
        pytest.skip(f"{MARIADBD} is not installed")
    return MARIADBD


def ask(binary: str, name: str, value: str | None) -> str:
    line = name if value is None else f"{name}={value}"
    with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as handle:
        handle.write(f"[mysqld]\n{line}\n")
    try:
        done = subprocess.run([binary, f"--defaults-file={handle.name}", "--verbose", "--help"],
                              capture_output=True, text=True, timeout=60, env={**os.environ, "LC_ALL": "C"})  # fmt: skip
    finally:
        os.unlink(handle.name)
    if done.returncode != 0:
        return "refuses"
    return "disables_plugin" if PLUGIN_FAILED.search(done.stderr) else "accepts"


def test_the_server_still_does_what_was_recorded_and_what_we_say(mariadbd: str) -> None:
    """Re-asked now, the server agrees with the recorded case and with judge()."""
    sample = _sample()
    with ThreadPoolExecutor(max_workers=2) as pool:
        answers = list(pool.map(lambda case: ask(mariadbd, case["name"], case["value"]), sample))
    wrong = []
    for case, answer in zip(sample, answers, strict=True):
        verdict = judge(case["name"], case["value"], flavor="mariadb", version="10.11")
        if not answer == case["observed"] == CLASS[verdict.outcome]:
            wrong.append(f"{case['name']}={case['value']}: server {answer}, recorded {case['observed']}, "
                         f"judge {verdict.outcome.value}")  # fmt: skip
    assert len(sample) >= 25
    assert wrong == []


def test_every_innodb_name_other_mariadb_versions_list_is_judged_as_this_binary_takes_it(
    mariadbd: str,
) -> None:
    """Each innodb_ option some MariaDB binary or test result lists but 10.11's help does not, fed to the
    real binary: what it swallows ('was removed. It does nothing now', exit 0) must never be called refused,
    and what it refuses must not be called ignored (the DBA review's cases 11 and 12: 13 false criticals)."""
    names = history("mariadb")
    assert names is not None
    current = set(mariadb().options)
    candidates = sorted(n for n in names.listed if n.startswith("innodb_") and n not in current)
    with ThreadPoolExecutor(max_workers=2) as pool:
        answers = list(pool.map(lambda name: ask(mariadbd, name, "1"), candidates))
    wrong = []
    for name, answer in zip(candidates, answers, strict=True):
        verdict = judge(name, "1", flavor="mariadb", version="10.11.19")
        if answer != CLASS[verdict.outcome]:
            wrong.append(f"{name}: server {answer}, judge {verdict.outcome.value} ({verdict.reason})")
    assert len(candidates) >= 20 and "innodb_scrub_log" in candidates
    assert wrong == []


SET_VALUES = (  # mariadbd 10.11.19: a unique prefix only as the last item of a set; flag names in full
    ("sql_mode", "STRICT_TRANS_TABLE,NO_ENGINE_SUBSTITUTION", "refuses"),
    ("sql_mode", "NO_ENGINE_SUBSTITUTION,STRICT_TRANS_TABLE", "accepts"),
    ("sql_mode", "STRICT_TRANS_TABLES,NO_ENGINE_SUBST,ANSI_QUOTES", "refuses"),
    ("sql_mode", "ansi_quotes,strict_trans_tables", "accepts"),
    ("sql_mode", "ANSI_QUOTES, STRICT_TRANS_TABLES", "refuses"),
    ("log_output", "TAB,FILE", "refuses"),
    ("log_output", "FILE,TAB", "accepts"),
    ("old_mode", "NO_PROG,ZERO_DATE_TIME_CAST", "refuses"),
    ("slave_type_conversions", "ALL_LOSSY,ALL_NON", "accepts"),
    ("optimizer_switch", "mrr_cost_b=on", "refuses"),
    ("optimizer_switch", "MRR=ON,index_merge=off", "accepts"),
)


def test_set_values_are_judged_as_the_binary_parses_them(mariadbd: str) -> None:
    """The DBA review's case 02b: STRICT_TRANS_TABLE before another item was called accepted; mariadbd exits 13."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        answers = list(pool.map(lambda case: ask(mariadbd, case[0], case[1]), SET_VALUES))
    judged = [
        CLASS[judge(name, value, flavor="mariadb", version="10.11.19").outcome]
        for name, value, _ in SET_VALUES
    ]
    assert answers == [expected for _, _, expected in SET_VALUES]
    assert judged == answers
