"""A secret line a finding refuses or respells stays in the user's file: never in what we hand back.

`password` is no server option (MariaDB refuses it in `[client-server]`, a group the server reads),
and `wsrep_sst_auht` is a misspelling of the secret `wsrep_sst_auth`. Both lines must be commented
out by the user; neither value may appear in the diff, the recommended files, the drop-in or the
findings, and the diff must still apply to the user's file with `patch -p1`.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from advisor.audit import AuditInputs, AuditResult, run_audit
from advisor.redact import REDACTED
from tests.recommended import assert_same_but_secrets

MYCNF = "[client-server]\npassword = hunter2\n[mysqld]\nwsrep_sst_auht = root:Sup3r\nmax_connections = 200\n"
SECRETS = ("hunter2", "Sup3r")


def _audit(text: str = MYCNF) -> AuditResult:
    inputs = AuditInputs(
        mycnf={"s.cnf": text}, server_version="10.11.6-MariaDB", memory="8G", cpus=4, storage="ssd"
    )
    return run_audit(inputs)


def test_no_secret_value_anywhere_in_the_result() -> None:
    result = _audit()
    everything = json.dumps(result.to_dict())
    assert not [secret for secret in SECRETS if secret in everything]
    rules = {finding.rule for finding in result.findings}
    assert {"config_validity.refused_option", "config_validity.possible_typo"} <= rules


def test_no_placeholder_in_any_file_we_hand_back() -> None:
    result = _audit()
    assert result.dropin is not None
    texts = [file.recommended for file in result.files] + [result.dropin.text, result.diff]
    assert not [text for text in texts if REDACTED in text or "hunter2" in text or "Sup3r" in text]


def test_the_copy_says_what_to_do_with_each_secret_line() -> None:
    lines = _audit().files[0].recommended.splitlines()
    kept = "# innotune: a line holding a secret is kept out of this copy; "
    assert lines[1] == f"{kept}comment out your own (innotune config_validity.refused_option)"
    assert (
        lines[3]
        == f"{kept}rename your own to wsrep_sst_auth, value kept (innotune config_validity.possible_typo)"
    )
    assert "wsrep_sst_auth" not in "".join(line for line in lines if not line.startswith("#"))


def test_a_secret_correction_is_advice_only() -> None:
    finding = next(f for f in _audit().findings if f.variable == "wsrep_sst_auth")
    assert finding.change is None and finding.recommended == REDACTED
    assert "rename the option to wsrep_sst_auth in your own file" in finding.rationale


@pytest.mark.parametrize("text", [MYCNF, "[mysqld]\npassword = hunter2\nmax_connections = 200\n"])
def test_the_diff_applies_and_gives_the_copy(text: str, tmp_path: Path) -> None:
    result = _audit(text)
    (tmp_path / "s.cnf").write_text(text)
    subprocess.run(["patch", "-s", "-p1"], input=result.diff, text=True, check=True, cwd=tmp_path)
    assert_same_but_secrets((tmp_path / "s.cnf").read_text(), result.files[0].recommended)


def test_a_misspelt_password_option_is_never_quoted() -> None:
    """`pasword = hunter9` under [mysqld] is refused by the server and read as the secret it misspells:
    no finding, diff or file we hand back quotes its value, and the copy keeps the line out."""
    result = _audit("[mysqld]\npasword = hunter9\nmax_connections = 200\n")
    assert "config_validity.refused_option" in {finding.rule for finding in result.findings}
    assert "hunter9" not in json.dumps(result.to_dict())
    assert result.secrets_kept_out == ("s.cnf:2",)
