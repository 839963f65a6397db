"""The catalog against the real MariaDB server binary on this machine.

`mariadbd --no-defaults --<option>=<value> --verbose --help` parses options exactly as at startup and
exits at once, so it tells whether an option-file line would be accepted without starting a server:

* every name the catalog says this version accepts in an option file goes into one invocation, which
  must exit 0 without "unknown variable/option" or [ERROR];
* every name the catalog says this version does not accept (removed, renamed, MySQL-only, read-only
  status variables) is passed alone and must be refused;
* names the catalog marks as accepted-but-ignored must draw the server's "removed"/"compatible option"
  warning, and names marked honoured must not;
* compiled-in defaults the catalog states (not auto-sized ones) must match the help text's value table.

Skipped when the binary is missing, except in CI (CI=true), where that is a failure.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from advisor.catalog import Catalog, VariableFacts, get_catalog
from advisor.version import ServerVersion, parse_version

pytestmark = pytest.mark.mariadb

MARIADBD = os.environ.get("INNOTUNE_MARIADBD", "/usr/sbin/mariadbd")
REFUSED = re.compile(r"unknown (variable|option)|ambiguous option|\[ERROR\]")
STUB_WARNING = re.compile(r"was removed|compatible option|is deprecated|Using unique option prefix")

# Values for options whose catalog default is empty or depends on the build. They must be harmless
# under --help: --log-error=/dev/stderr keeps the messages where the test reads them.
SAMPLE_VALUES: dict[str, str] = {
    "basedir": "/usr",
    "bind_address": "127.0.0.1",
    "binlog_do_db": "db1",
    "binlog_ignore_db": "db2",
    "datadir": "/tmp",
    "default_time_zone": "+00:00",
    "general_log_file": "/tmp/innotune-general.log",
    "init_file": "/tmp/innotune-init.sql",
    "innodb_data_home_dir": "/tmp",
    "innodb_log_group_home_dir": "/tmp",
    "innodb_monitor_enable": "all",
    "innodb_undo_directory": "/tmp",
    "key_buffer": "8M",
    "language": "/usr/share/mysql/english",
    "lc_messages_dir": "/usr/share/mysql",
    "log_bin": "mysql-bin",
    "log_error": "/dev/stderr",
    "myisam_recover": "BACKUP",
    "optimizer_switch": "index_merge=off",
    "pid_file": "/tmp/innotune.pid",
    "plugin_load_add": "",
    "relay_log": "relay-bin",
    "report_host": "replica1",
    "secure_file_priv": "/tmp",
    "slow_query_log_file": "/tmp/innotune-slow.log",
    "socket": "/tmp/innotune.sock",
    "tmpdir": "/tmp",
    "user": "root",
}

# The help text prints the option's first enum value here, while the server (SHOW VARIABLES,
# information_schema.SYSTEM_VARIABLES.DEFAULT_VALUE) starts with the catalog's default.
HELP_DISPLAY_QUIRKS = frozenset({"slave_parallel_mode"})


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str

    @property
    def refusals(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if REFUSED.search(line)]

    @property
    def accepted(self) -> bool:
        return self.returncode == 0 and not self.refusals


def _mariadbd_present() -> bool:
    return os.path.isfile(MARIADBD) and os.access(MARIADBD, os.X_OK)


@pytest.fixture(scope="module")
def server_version() -> ServerVersion:
    if not _mariadbd_present():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{MARIADBD} is missing, and CI must run the MariaDB catalog checks")
        pytest.skip(f"{MARIADBD} is not installed")
    output = subprocess.run(
        [MARIADBD, "--version"], capture_output=True, text=True, timeout=30, check=True
    ).stdout
    match = re.search(r"Ver\s+(\S+)", output)
    assert match is not None, output
    version = parse_version(match.group(1))
    assert version.is_mariadb, output
    return version


def run_mariadbd(options: Sequence[str]) -> Run:
    completed = subprocess.run(
        [MARIADBD, "--no-defaults", *options, "--verbose", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "LC_ALL": "C"},
    )
    return Run(completed.returncode, completed.stdout, completed.stderr)


def option_argument(facts: VariableFacts) -> str:
    """`--name=value` with a value the server accepts for this name (bare `--skip-...` flags)."""
    name = facts.name
    if name in SAMPLE_VALUES:
        return f"--{name}={SAMPLE_VALUES[name]}"
    if facts.unit == "bool" and name.startswith(("skip_", "disable_")):
        return f"--{name}"
    value: object = facts.default
    if isinstance(value, bool) or (facts.unit == "bool" and value is None):
        value = "OFF" if value is False else "ON"
    elif value is None or value == "":
        if facts.values:
            value = facts.values[0]
        elif facts.min is not None:
            value = facts.min
        else:
            value = "x"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"--{name}={value}"


def _server_names(
    catalog: Catalog, version: ServerVersion
) -> tuple[list[VariableFacts], list[VariableFacts]]:
    accepted: list[VariableFacts] = []
    refused: list[VariableFacts] = []
    for name in sorted(catalog.names()):
        facts = catalog.lookup(name, version)
        assert facts is not None
        if facts.option_group != "mysqld":
            continue  # [mysqld_safe] options are for the wrapper script, not for mariadbd
        (accepted if facts.option_file_ok else refused).append(facts)
    return accepted, refused


def test_catalog_covers_this_server(server_version: ServerVersion) -> None:
    accepted, refused = _server_names(get_catalog(), server_version)
    assert len(accepted) > 150
    assert refused, "the catalog should know names this server refuses"


def test_every_accepted_name_is_accepted(server_version: ServerVersion) -> None:
    accepted, _ = _server_names(get_catalog(), server_version)
    arguments = [option_argument(facts) for facts in accepted]
    run = run_mariadbd(arguments)
    if run.accepted:
        return
    culprits = []
    for argument in arguments:  # name the offenders instead of dumping one big failure
        single = run_mariadbd([argument])
        if not single.accepted:
            culprits.append(f"{argument}: exit {single.returncode}: {' | '.join(single.refusals)[:300]}")
    pytest.fail(
        f"{server_version} refuses options the catalog says it accepts:\n"
        + "\n".join(culprits or [run.stderr])
    )


def test_every_refused_name_is_refused(server_version: ServerVersion) -> None:
    _, refused = _server_names(get_catalog(), server_version)
    arguments = [option_argument(facts) for facts in refused]
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 2)) as pool:
        runs = list(pool.map(lambda argument: run_mariadbd([argument]), arguments))
    wrongly_accepted = [argument for argument, run in zip(arguments, runs, strict=True) if run.accepted]
    assert wrongly_accepted == [], f"{server_version} accepts options the catalog says it refuses"


def test_ignored_names_draw_a_warning_and_honoured_ones_do_not(server_version: ServerVersion) -> None:
    catalog = get_catalog()
    accepted, _ = _server_names(catalog, server_version)
    stubs = [facts for facts in accepted if facts.ignored and not facts.exists]
    prefixes = [facts for facts in accepted if facts.prefix_of]
    honoured = [
        facts
        for facts in accepted
        if facts.exists and not facts.ignored and not facts.deprecated and not facts.prefix_of
    ]
    assert stubs, "the 10.6+ servers keep compatibility stubs; the catalog should know some"
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 2)) as pool:
        stub_runs = list(pool.map(lambda facts: run_mariadbd([option_argument(facts)]), stubs + prefixes))
    silent = [
        facts.name
        for facts, run in zip(stubs + prefixes, stub_runs, strict=True)
        if not STUB_WARNING.search(run.stderr)
    ]
    assert silent == [], "the server takes these silently, so they are not ignored stubs or prefixes"
    run = run_mariadbd([option_argument(facts) for facts in honoured])
    warned = sorted(
        {
            match.group(1).replace("-", "_")
            for match in re.finditer(r"'([a-z0-9_-]+)' (?:was removed|is MySQL)", run.stderr)
        }
    )
    assert warned == [], "the server calls these removed or MySQL-only, the catalog calls them live"


def _help_values(help_text: str) -> dict[str, str]:
    table = help_text.split("Variables (--variable-name=value)", 1)[1].splitlines()
    values: dict[str, str] = {}
    for line in table[2:]:  # header line and dashes
        if not line.strip():
            break
        name, _, value = line.partition(" ")
        values[name.replace("-", "_")] = value.strip()
    return values


def _help_spelling(value: object) -> str:
    if value is None:
        return "(No default value)"
    if value is True:
        return "TRUE"
    if value is False:
        return "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def test_stated_defaults_match_the_help_text(server_version: ServerVersion) -> None:
    catalog = get_catalog()
    values = _help_values(run_mariadbd([]).stdout)
    checked, wrong = 0, []
    for name in sorted(catalog.names()):
        facts = catalog.lookup(name, server_version)
        assert facts is not None
        if not facts.exists or facts.default_auto or name not in values or name in HELP_DISPLAY_QUIRKS:
            continue
        if facts.unit == "string" and facts.default is None:
            continue  # paths and names chosen by the build or the host
        if name == "log_bin":
            continue  # the variable is ON/OFF; the option of the same name takes a base name
        checked += 1
        if values[name].lower() != _help_spelling(facts.default).lower():
            wrong.append(f"{name}: catalog {facts.default!r}, server {values[name]!r}")
    assert checked > 100
    assert wrong == [], f"defaults differ on {server_version}"
