"""Drift on a real server: mariadbd 10.11.19 started from exactly drift_inputs/mariadb-10.11.19/my.cnf, its
SHOW GLOBAL VARIABLES collected by `innotune collect` (password policy switches masked by the collector of
the time). Every line the server runs as written, in its own spelling, is no drift; the table cache the
server lowered to fit open_files_limit ("Changed limits: ... table_cache: 8485 (was 30000)" in its log) is."""

from __future__ import annotations

from pathlib import Path

from advisor.audit import AuditInputs, run_audit

INPUTS = Path(__file__).parent / "drift_inputs" / "mariadb-10.11.19"


def _drift(cnf: str) -> dict[str, dict[str, object]]:
    variables = (INPUTS / "variables.tsv").read_text()
    result = run_audit(AuditInputs(mycnf={"/etc/mysql/my.cnf": cnf}, variables=variables))
    return {entry.setting.name: entry.to_dict() for entry in result.drift}


def test_the_file_the_server_runs_is_no_drift_but_the_clamped_table_cache() -> None:
    """2 vs 2.000000, 1 vs ON, UTF8MB4 vs utf8mb4, TRADITIONAL vs its modes, one optimizer flag vs all,
    1000000 vs 999424: the same values. table_open_cache 30000 vs 8485 stays, with its reason and no SQL."""
    drift = _drift((INPUTS / "my.cnf").read_text())
    assert list(drift) == ["table_open_cache"]
    entry = drift["table_open_cache"]
    assert (entry["file_value"], entry["live_value"], entry["apply_sql"]) == ("30000", "8485", None)
    assert entry["restart_required"] is True  # the remedy (a higher open-files limit) takes a restart
    assert "open_files_limit 20000" in str(entry["reason"]) and "LimitNOFILE" in str(entry["reason"])


def test_a_value_the_server_does_not_run_yet_is_drift_with_the_value_it_takes() -> None:
    """Change three lines of the real file: each is drift, and the SQL offers what the server stores
    (max_allowed_packet 2000000 → 1999872, a multiple of 1024; long_query_time unquoted)."""
    cnf = (
        (INPUTS / "my.cnf")
        .read_text()
        .replace("long_query_time = 2\n", "long_query_time = 0.5\n")
        .replace("max_allowed_packet = 1000000\n", "max_allowed_packet = 2000000\n")
        .replace("optimizer_switch = 'index_merge=off'\n", "optimizer_switch = 'index_merge=on,mrr=on'\n")
    )
    drift = _drift(cnf)
    assert drift["long_query_time"]["apply_sql"] == "SET GLOBAL long_query_time = 0.5;"
    assert drift["max_allowed_packet"]["apply_sql"] == "SET GLOBAL max_allowed_packet = 1999872;"
    assert drift["optimizer_switch"]["live_value"].startswith("index_merge=off,")  # type: ignore[union-attr]
    assert set(drift) == {"long_query_time", "max_allowed_packet", "optimizer_switch", "table_open_cache"}
