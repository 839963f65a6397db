"""A secret option written as an abbreviation (`passw`, `file_key_management_filek`) is a secret.

my_getopt takes a unique prefix of an option name for the option (`[client] passw = x` logs the
mariadb client in with password x). The unit tests pin the rule; the last test asks the real
programs here (mariadbd 10.11 with its key, audit and password plugins, and the MariaDB clients)
for their option lists and checks the rule against every abbreviation each of them accepts.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from advisor.redact import REDACTED, is_secret_option, normalise_option_name, redact_option_text
from tests.fixtures.real_services import IN_CI


@pytest.mark.parametrize(
    "name",
    [
        "pa",  # mariadb-admin, mariadb-dump: the only option starting with `pa` is --password
        "pas",
        "pass",
        "passw",
        "passwo",
        "passwor",
        "PASSW",
        "--passw",
        "loose-passw",
        "maximum-password",
        "loose-maximum-report-password",
        "report_pa",  # mariadbd 10.11.19: 'Using unique option prefix report-pa ... report_password'
        "report-passw",
        "report_p",  # ambiguous (report_port) but harmless to hide
        "wsrep_sst_a",  # mariadbd 10.11.19: unique prefix of wsrep_sst_auth
        "wsrep-sst-au",
        "file_key_management_filek",
        "loose-file-key-management-filek",
        "file_key_management_f",  # ambiguous (filename) but harmless to hide
        "hashicorp_key_management_tok",
        "ssl_passp",
        "keyring_encrypted_file_passw",
        "password1",
    ],
)
def test_abbreviations_of_secret_options_are_secrets(name: str) -> None:
    assert is_secret_option(name)


@pytest.mark.parametrize(
    "name",
    [
        "p",  # ambiguous in every client and in mariadbd: port, plugin-dir, protocol
        "port",
        "pid",
        "pid_file",
        "pager",
        "pipe",
        "plugin_dir",
        "protocol",
        "ssl",
        "file_key_management",  # the plugin's switch
        "file_key_management_filename",
        "file_key_management_encryption_algorithm",
        "wsrep_sst",
        "wsrep_sst_method",
        "wsrep_sst_donor",
        "report_port",
        "report_host",
        "hashicorp_key_management",
        "hashicorp_key_management_timeout",
        "old_passw",  # old_passwords, a switch
        "default_passw",  # default_password_lifetime
        "simple_password_check",
        "password_reuse_check",
        "innodb_page_size",
        "parallel",
        "max_allowed_pa",  # max_allowed_packet
        "connect_expired_pass",  # the mariadb client's switch connect_expired_password
        "default_password",  # default_password_lifetime
    ],
)
def test_ordinary_options_sharing_a_prefix_are_not_secrets(name: str) -> None:
    assert not is_secret_option(name)


def test_name_prefixes_the_server_reads_are_removed() -> None:
    assert normalise_option_name("--Loose-Maximum-Report-Passw") == "report_passw"
    assert normalise_option_name("maximum_loose_pa") == "pa"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("passw = Hunter2Client", f"passw = {REDACTED}"),
        ("pa=Hunter2Client", f"pa={REDACTED}"),
        ('passwor = "Hunter2 Client"  # for the dump', f'passwor = "{REDACTED}"  # for the dump'),
        ("file_key_management_filek = S3cretA", f"file_key_management_filek = {REDACTED}"),
        ("file_key_management_filek = FILE:/etc/key", "file_key_management_filek = FILE:/etc/key"),
        ("wsrep_sst_a = sst:S3cretA", f"wsrep_sst_a = sst:{REDACTED}"),
        ("maximum-passw = S3cretA", f"maximum-passw = {REDACTED}"),
        ("# passw = S3cretA", f"# passw = {REDACTED}"),
        ("port = 3306", "port = 3306"),
        ("innodb_io_capacity = 2000", "innodb_io_capacity = 2000"),
    ],
)
def test_abbreviated_secret_lines_lose_their_value(line: str, expected: str) -> None:
    assert redact_option_text(line) == expected


# --- the real programs -------------------------------------------------------------------------

MARIADBD = os.environ.get("INNOTUNE_MARIADBD", "/usr/sbin/mariadbd")
CLIENTS = (
    "mariadb",
    "mariadb-admin",
    "mariadb-binlog",
    "mariadb-check",
    "mariadb-dump",
    "mariadb-import",
    "mariadb-show",
    "mariadb-slap",
    "mariadb-upgrade",
)
# Plugins that bring secret options (or options sharing their prefixes) along.
PLUGINS = ("file_key_management", "server_audit", "simple_password_check", "password_reuse_check", "auth_pam")
# `  -p, --password[=name]` or `  --pager[=name]` in a --help listing.
HELP_OPTION_RE = re.compile(r"^\s+(?:-\S, )?--([a-z0-9][a-z0-9_-]*)", re.M)


def _options(help_text: str) -> frozenset[str]:
    return frozenset(name.replace("-", "_") for name in HELP_OPTION_RE.findall(help_text))


def _mariadbd_options() -> frozenset[str]:
    with tempfile.TemporaryDirectory() as directory:
        config = Path(directory, "my.cnf")
        config.write_text("[mysqld]\n" + "".join(f"plugin_load_add = {p}\n" for p in PLUGINS))
        done = subprocess.run(
            [MARIADBD, f"--defaults-file={config}", "--verbose", "--help"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    return _options(done.stdout)


def _client_options(binary: str) -> frozenset[str]:
    done = subprocess.run(
        [binary, "--no-defaults", "--help"], capture_output=True, text=True, timeout=30, check=False
    )
    return _options(done.stdout)


def _programs() -> dict[str, frozenset[str]]:
    found = {name: shutil.which(name) for name in CLIENTS}
    missing = [name for name, path in found.items() if path is None]
    if not os.access(MARIADBD, os.X_OK):
        missing.append(MARIADBD)
    if missing:
        if IN_CI:
            pytest.fail(f"{missing} missing, and CI must ask the real programs")
        pytest.skip(f"{missing} not installed")
    programs = {name: _client_options(path) for name, path in found.items() if path is not None}
    programs["mariadbd"] = _mariadbd_options()
    return programs


def _accepted(options: frozenset[str]) -> dict[str, str]:
    """Every name the program takes for one option (an exact name, or a prefix of only that one)."""
    accepted = {name: name for name in options}
    for name in options:
        for end in range(1, len(name)):
            prefix = name[:end]
            if prefix not in options and sum(other.startswith(prefix) for other in options) == 1:
                accepted[prefix] = name
    return accepted


@pytest.mark.mariadb
def test_every_abbreviation_the_real_programs_accept_is_judged_like_the_option() -> None:
    """A name any program reads as a secret option is a secret; a name some program reads as an
    ordinary option is not, unless it is also a prefix of some program's secret option (then hiding
    it is the safe side: `pa` is --pager's prefix in mariadb and --password's in mariadb-admin)."""
    programs = _programs()
    assert "file_key_management_filekey" in programs["mariadbd"], "the key plugin did not load"
    assert "password" in programs["mariadb"]
    secrets = {name for options in programs.values() for name in options if is_secret_option(name)}
    assert {"password", "report_password", "wsrep_sst_auth", "file_key_management_filekey"} <= secrets
    leaks, false_alarms = set(), set()
    for program, options in programs.items():
        for name, option in _accepted(options).items():
            if option in secrets and not is_secret_option(name):
                leaks.add((program, name, option))
            elif (
                option not in secrets
                and is_secret_option(name)
                and not any(secret.startswith(name) for secret in secrets)
            ):
                false_alarms.add((program, name, option))
    assert not leaks, sorted(leaks)
    assert not false_alarms, sorted(false_alarms)
