"""Same inputs, same results: audit every example case and every corpus file and record each result.

A speed change to the core must not change one byte of what an audit says. This script runs
`run_audit` over every case under tests/advisor/cases (through the case runner's loader) and over
the shared corpus (each file as an option file for three versions, as a variables dump, and beside
the MariaDB 10.11 sysbench dumps as a status sample, InnoDB status and schema facts), and writes
one JSON line per audit: the result's `to_dict()` and its whole msgspec encoding, or the error.

    .venv/bin/python bench/audit_identity.py --write /tmp/before.jsonl   # on the old code
    .venv/bin/python bench/audit_identity.py --check /tmp/before.jsonl   # on the new code
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from msgspec import json as msgspec_json  # noqa: E402
from msgspec.structs import replace  # noqa: E402

from advisor.audit import AuditInputs, run_audit  # noqa: E402
from tests.advisor.case_files import load_cases  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
SYSBENCH = CORPUS / "mariadb-10.11-sysbench"
VERSIONS = ("10.11.19-MariaDB", "8.0.36", "5.7.42")


def _on_bench_machine(**fields: Any) -> AuditInputs:
    """Inputs for the 2-core, 24 GiB SSD machine of the bench."""
    return AuditInputs(memory="24G", cpus=2, storage="ssd", **fields)


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace")


def _sysbench(name: str) -> str:
    return _read(SYSBENCH / f"s02_load_rw_default.{name}")


def corpus_inputs() -> Iterator[tuple[str, AuditInputs]]:
    """Every corpus file in every role it could play, beside real companions."""
    variables = _sysbench("global_variables.tsv")
    full = _on_bench_machine(
        mycnf={
            "/etc/mysql/mariadb.conf.d/50-server.cnf": _read(
                CORPUS / "realworld" / "mycnf" / "ottok_mariadb-10.1__debian__50-server.cnf"
            )
        },
        variables=variables,
        status=(_sysbench("global_status.t20s.tsv"), _sysbench("global_status.tsv")),
        innodb_status=_sysbench("innodb_status.txt"),
        schema=_sysbench("is_tables.tsv"),
    )
    yield "bench-set", full
    for profile in ("production", "ci"):
        for role in ("standalone", "primary", "replica"):
            yield f"bench-set/{profile}/{role}", replace(full, profile=profile, role=role)
    yield "bench-set/no-hardware", replace(full, memory=None, cpus=None, storage=None)
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file()):
        name = str(path.relative_to(CORPUS))
        text = _read(path)
        for version in VERSIONS:
            yield f"{name}/mycnf/{version}", _on_bench_machine(mycnf={"my.cnf": text}, server_version=version)
        yield f"{name}/mycnf+dumps", replace(full, mycnf={"/etc/mysql/my.cnf": text})
        yield f"{name}/variables", _on_bench_machine(variables=text)
        yield f"{name}/status", _on_bench_machine(variables=variables, status=(text,))
        yield f"{name}/innodb", _on_bench_machine(variables=variables, innodb_status=text)
        yield f"{name}/schema", _on_bench_machine(variables=variables, schema=text)


def all_inputs() -> Iterator[tuple[str, AuditInputs]]:
    for case in load_cases():
        yield f"case:{case.id}", case.inputs
    yield from corpus_inputs()


def outcome(inputs: AuditInputs) -> str:
    try:
        result = run_audit(inputs)
    except Exception as error:  # an error is a result too: it must stay the same
        return json.dumps({"error": type(error).__name__, "message": str(error)})
    return json.dumps(
        {"dict": result.to_dict(), "struct": msgspec_json.decode(msgspec_json.encode(result))}, sort_keys=True
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path)
    group.add_argument("--check", type=Path)
    args = parser.parse_args()
    lines = [json.dumps(key) + "\t" + outcome(inputs) for key, inputs in all_inputs()]
    if args.write:
        args.write.write_text("\n".join(lines) + "\n")
        errors = sum('"error"' in line.split("\t", 1)[1][:20] for line in lines)
        print(f"{len(lines)} audits written ({errors} errors)")
        return
    before = args.check.read_text().splitlines()
    differing = [old.split("\t", 1)[0] for old, new in zip(before, lines, strict=False) if old != new]
    if len(before) != len(lines):
        print(f"different count: {len(before)} before, {len(lines)} now")
    for key in differing[:20]:
        print("differs:", key)
    print(f"{len(lines)} audits, {len(differing)} differ")
    raise SystemExit(1 if differing or len(before) != len(lines) else 0)


if __name__ == "__main__":
    main()
