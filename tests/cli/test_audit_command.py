"""`innotune audit`: the offline contract other tools call (flags, formats, exit codes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from tests.corpus import CORPUS
from tests.recommended import assert_same_but_secrets

SUMMARY_SAMPLES = CORPUS / "percona-toolkit" / "t" / "pt-mysql-summary" / "samples"
# Corpus folders where a my.cnf and SHOW VARIABLES come from the same server.
PAIRED = sorted(p for p in SUMMARY_SAMPLES.glob("temp*") if (p / "mysql-config-file").exists())

OVERSIZED_POOL = "[mysqld]\ninnodb_buffer_pool_size = 64G\n"


def _audit(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["audit", *args])
    return result.exit_code, result.stdout, result.stderr


def test_without_a_version_it_exits_2_and_says_how_to_give_one(tmp_path: Path) -> None:
    """No --server-version and no variables file: exit 2 with a message naming the fix."""
    cnf = tmp_path / "my.cnf"
    cnf.write_text(OVERSIZED_POOL)
    code, _, err = _audit("--mycnf", str(cnf))
    assert code == 2
    assert "--server-version" in err


def test_bad_input_exits_2_naming_file_and_line(tmp_path: Path) -> None:
    """A line that is no option names its file and line on stderr, with exit status 2."""
    cnf = tmp_path / "broken.cnf"
    cnf.write_text("[mysqld]\nkey_buffer_size = 16M\n{{ templated_thing }}\n")
    code, out, err = _audit("--mycnf", str(cnf), "--server-version", "8.0.36")
    assert code == 2
    assert f"{cnf}:3" in err
    assert "Traceback" not in out + err


def test_json_output_has_the_contract_fields_and_a_critical_exits_1(tmp_path: Path) -> None:
    """A pool larger than memory is critical: exit 1, and the JSON carries every contract field."""
    cnf = tmp_path / "my.cnf"
    cnf.write_text(OVERSIZED_POOL)
    code, out, _ = _audit(
        "--mycnf", str(cnf), "--server-version", "8.0.36", "--memory", "16G", "--format", "json"
    )
    assert code == 1
    report = json.loads(out)
    assert report["server"] == {"flavor": "mysql", "version": "8.0.36"}
    assert set(report) >= {"server", "findings", "diff", "mycnf"}
    ranks = {"critical": 0, "warning": 1, "notice": 2, "info": 3}
    severities = [ranks[f["severity"]] for f in report["findings"]]
    assert severities == sorted(severities)
    fields = {"advisor", "rule", "severity", "title", "rationale", "evidence", "variable", "current"}
    fields |= {"recommended", "restart_required", "apply_sql", "references", "applies_to"}
    assert all(fields <= set(f) for f in report["findings"])
    critical = [f for f in report["findings"] if f["severity"] == "critical"]
    assert any(f["variable"] == "innodb_buffer_pool_size" for f in critical)
    assert "innodb_buffer_pool_size" in report["mycnf"]


def test_mycnf_and_diff_formats_agree_with_patch(tmp_path: Path) -> None:
    """`--format diff` applied by patch(1) to the original gives exactly `--format mycnf`."""
    cnf = tmp_path / "my.cnf"
    cnf.write_text(OVERSIZED_POOL)
    args = ("--mycnf", str(cnf), "--server-version", "8.0.36", "--memory", "16G")
    _, diff, _ = _audit(*args, "--format", "diff")
    _, recommended, _ = _audit(*args, "--format", "mycnf")
    assert diff.startswith("---")
    work = tmp_path / "patched.cnf"
    work.write_text(OVERSIZED_POOL)
    subprocess.run(["patch", "-s", str(work)], input=diff, text=True, check=True)
    assert work.read_text() == recommended


@pytest.mark.parametrize("folder", PAIRED, ids=[p.name for p in PAIRED])
def test_audit_of_each_corpus_server(folder: Path, tmp_path: Path) -> None:
    """my.cnf, variables, status and InnoDB status from one real server: an audit, never a crash."""
    args = ["--mycnf", str(folder / "mysql-config-file"), "--variables", str(folder / "mysql-variables")]
    if (folder / "mysql-status").exists():
        args += ["--status", str(folder / "mysql-status")]
    if (folder / "innodb-status").exists():
        args += ["--innodb-status", str(folder / "innodb-status")]
    code, out, err = _audit(*args, "--memory", "4G", "--cpus", "4", "--storage", "ssd", "--format", "json")
    assert code in (0, 1), err
    report = json.loads(out)
    version = next(
        line.split("\t", 1)[1]
        for line in (folder / "mysql-variables").read_text().splitlines()
        if line.startswith("version\t")
    )
    assert report["server"]["version"] == version
    assert report["findings"], "a real server's config always has something to say"
    original = tmp_path / "orig.cnf"
    original.write_bytes((folder / "mysql-config-file").read_bytes())
    if report["diff"]:
        subprocess.run(["patch", "-s", str(original)], input=report["diff"], text=True, check=True)
    assert_same_but_secrets(original.read_text(), report["mycnf"])


def test_innotune_audit_runs_as_a_process_offline() -> None:
    """The installed command runs the audit in its own process and exits by the contract."""
    folder = CORPUS / "mariadb-10.11-sysbench"
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "audit", "--variables",
         str(folder / "s02_load_rw_default.global_variables.tsv"),
         "--status", str(folder / "s02_load_rw_default.global_status.t20s.tsv"),
         "--status", str(folder / "s02_load_rw_default.global_status.tsv"),
         "--memory", "24G", "--cpus", "2", "--storage", "ssd"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    assert "InnoTune audit of mariadb 10.11.19" in done.stdout
    assert "innodb_buffer_pool_size" in done.stdout


TWO_FILE_MAIN = "[mysqld]\nmax_connections = 151\n!includedir conf.d/\n"
TWO_FILE_TUNING = "[mysqld]\ninnodb_buffer_pool_size = 8M\ninnodb_flush_method = normal\n"


def _two_files(root: Path) -> list[str]:
    (root / "etc" / "mysql" / "conf.d").mkdir(parents=True)
    (root / "etc" / "mysql" / "my.cnf").write_text(TWO_FILE_MAIN)
    (root / "etc" / "mysql" / "conf.d" / "tuning.cnf").write_text(TWO_FILE_TUNING)
    return ["--mycnf", "etc/mysql/my.cnf", "--mycnf", "etc/mysql/conf.d/tuning.cnf"]


def test_output_dir_writes_every_recommended_file_with_its_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--format mycnf --output-dir writes both files under their paths; patch -p1 of the combined diff in
    a copy of the originals gives exactly those files."""
    source = tmp_path / "source"
    source.mkdir()
    monkeypatch.chdir(source)
    args = _two_files(source)
    common = [
        *args,
        "--server-version",
        "10.11.6-MariaDB",
        "--memory",
        "16G",
        "--cpus",
        "4",
        "--storage",
        "ssd",
    ]
    code, _, err = _audit(*common, "--format", "mycnf", "--output-dir", str(tmp_path / "out"))
    assert code in (0, 1), err
    written = sorted(str(p.relative_to(tmp_path / "out")) for p in (tmp_path / "out").rglob("*.cnf"))
    assert written == ["etc/mysql/conf.d/tuning.cnf", "etc/mysql/my.cnf"]
    _, out, _ = _audit(*common, "--format", "diff")
    subprocess.run(["patch", "-p1", "--batch", "-s"], input=out, text=True, check=True, cwd=source)
    for relative in written:
        assert (source / relative).read_text() == (tmp_path / "out" / relative).read_text()
    assert "innodb_buffer_pool_size = 8M" not in (tmp_path / "out" / written[0]).read_text()


def test_dropin_format_prints_the_override_file_and_where_it_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--format dropin prints one [mysqld] override file and names its place in the included folder."""
    monkeypatch.chdir(tmp_path)
    args = _two_files(tmp_path)
    code, out, err = _audit(
        *args, "--server-version", "10.11.6-MariaDB", "--memory", "16G", "--format", "dropin"
    )
    assert code in (0, 1), err
    assert out.startswith("# Written by InnoTune") and "[mysqld]" in out
    assert "innodb_buffer_pool_size = " in out
    assert "install it as etc/mysql/conf.d/zz-innotune.cnf" in err


def test_output_dir_writes_a_file_given_as_a_climbing_relative_path_under_its_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--mycnf ../orig/my.cnf` used to refuse the whole audit ('a path outside the output folder'):
    the file now comes back under the folder by its absolute path."""
    (tmp_path / "orig").mkdir()
    (tmp_path / "work").mkdir()
    (tmp_path / "orig" / "my.cnf").write_text(OVERSIZED_POOL)
    monkeypatch.chdir(tmp_path / "work")
    out = tmp_path / "out"
    code, _, err = _audit(
        "--mycnf",
        "../orig/my.cnf",
        "--server-version",
        "10.11.6-MariaDB",
        "--memory",
        "16G",
        "--format",
        "mycnf",
        "--output-dir",
        str(out),
    )
    assert code in (0, 1), err
    written = out / str(tmp_path / "orig" / "my.cnf").lstrip("/")
    assert written.is_file(), sorted(str(p) for p in out.rglob("*"))
    assert f"wrote {written}" in err


def test_dropin_format_names_what_it_cannot_fix_on_stderr(tmp_path: Path) -> None:
    """A line the drop-in cannot override (an option MariaDB 10.11 ignores must be commented out in the
    user's file) is named on stderr as the README says, not only inside the printed file."""
    cnf = tmp_path / "my.cnf"
    cnf.write_text("[mysqld]\ninnodb_buffer_pool_instances = 8\n")
    code, out, err = _audit(
        "--mycnf", str(cnf), "--server-version", "10.11.19-MariaDB", "--memory", "24G", "--format", "dropin"
    )
    assert code in (0, 1), err
    assert f"{cnf}:2 must be commented out in the file itself" in out
    said = [line for line in err.splitlines() if "cannot fix" in line]
    assert len(said) == 1 and f"{cnf}:2 must be commented out" in said[0], err


def test_output_dir_needs_the_mycnf_format(tmp_path: Path) -> None:
    """--output-dir with another format is a usage error (exit 2), not silently ignored."""
    code, _, err = _audit("--server-version", "8.0.36", "--format", "json", "--output-dir", str(tmp_path))
    assert code == 2 and "--output-dir goes with --format mycnf" in err


def test_a_flag_replaces_one_field_of_the_hardware_file(tmp_path: Path) -> None:
    """`--hardware F --storage ssd`: accepted (it used to exit 2), storage from the flag, memory from F;
    without the flag the audit names the storage checks it could not run and the flag that provides it."""
    hardware = tmp_path / "hardware.json"
    hardware.write_text('{"memory": "16G", "cpus": 4}\n')
    cnf = tmp_path / "my.cnf"
    cnf.write_text("[mysqld]\ninnodb_io_capacity = 100\ninnodb_buffer_pool_size = 64G\n")
    common = ("--mycnf", str(cnf), "--server-version", "10.11.6-MariaDB", "--hardware", str(hardware))
    code, out, err = _audit(*common, "--storage", "ssd", "--format", "json")
    assert code == 1, err  # the 64G pool exceeds the file's 16G: memory came from the file
    findings = json.loads(out)["findings"]
    storage = [e["value"] for f in findings for e in f["evidence"] if e["label"] == "storage"]
    assert storage and all(value.startswith("ssd") for value in storage)
    assert "storage" not in {f["evidence"][0]["value"] for f in findings if f["rule"] == "inputs.missing"}
    _, out, _ = _audit(*common, "--format", "json")
    missing = {
        f["evidence"][0]["value"]: f for f in json.loads(out)["findings"] if f["rule"] == "inputs.missing"
    }
    assert "flushing.io_capacity" in missing["storage"]["rationale"]
    assert "--storage" in missing["storage"]["rationale"]


def test_a_manifest_without_a_known_role_exits_2(tmp_path: Path) -> None:
    """--manifest that is not the collector's JSON, or names no known role: exit 2 naming the file."""
    manifest = tmp_path / "manifest.json"
    for text in ("not json", '{"role": {"role": "leader"}}'):
        manifest.write_text(text)
        code, _, err = _audit("--server-version", "10.11.6-MariaDB", "--manifest", str(manifest))
        assert code == 2 and str(manifest) in err
