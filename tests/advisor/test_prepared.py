"""The prepared form of parsed dumps (advisor.prepared): an audit from it is the audit from the texts,
and a form another parser wrote, or garbage, reads as absent (the caller parses the texts)."""

from __future__ import annotations

import msgspec
import pytest

from advisor import prepared as prepared_module
from advisor.audit import AuditInputs, run_audit, validate_inputs
from advisor.prepared import is_current, parse_dumps, prepare, read_prepared
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench"


def _inputs(stage: str, *statuses: str, with_texts: bool = True) -> AuditInputs:
    def text(suffix: str) -> str:
        return corpus_file(f"{SYSBENCH}/{stage}.{suffix}").read_text()

    mycnf = corpus_file("realworld/mycnf/ottok_mariadb-10.1__debian__50-server.cnf").read_text()
    return AuditInputs(
        mycnf={"/etc/mysql/mariadb.conf.d/50-server.cnf": mycnf},
        variables=text("global_variables.tsv") if with_texts else None,
        status=tuple(text(name) for name in statuses) if with_texts else (),
        innodb_status=text("innodb_status.txt") if with_texts else None,
        schema=text("is_tables.tsv") if with_texts else None,
        status_names=statuses,
        memory="24G",
        cpus=2,
        storage="ssd",
    )


CASES = [
    ("s02_load_rw_default", ("global_status.t20s.tsv", "global_status.tsv")),
    ("s01_idle_default", ("global_status.table.txt",)),
    ("s02_load_rw_default", ("global_status.table.txt",)),
]


@pytest.mark.parametrize(("stage", "statuses"), CASES)
def test_an_audit_from_the_prepared_form_is_the_audit_from_the_texts(
    stage: str, statuses: tuple[str, ...]
) -> None:
    full = _inputs(stage, *statuses)
    blob = validate_inputs(full).prepared
    assert read_prepared(blob) == parse_dumps(full)
    # the texts left out: every dump, its warnings and file names come from the prepared form
    from_blob = run_audit(_inputs(stage, *statuses, with_texts=False), prepared=blob)
    assert from_blob == run_audit(full)
    assert from_blob.findings and from_blob.drift


def test_a_form_another_parser_wrote_reads_as_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    full = _inputs(CASES[0][0], *CASES[0][1])
    blob = validate_inputs(full).prepared
    assert is_current(blob)
    prepared_module.parser_fingerprint.cache_clear()
    monkeypatch.setattr(prepared_module, "_PARSER_SOURCES", ("inputs/statusvars.py",))
    try:
        assert not is_current(blob) and read_prepared(blob) is None
        # the audit then parses the texts it is given, as before
        assert run_audit(full, prepared=blob) == run_audit(full)
    finally:
        prepared_module.parser_fingerprint.cache_clear()


def test_garbage_behind_a_current_fingerprint_reads_as_absent() -> None:
    fingerprint = prepared_module.parser_fingerprint()
    assert read_prepared(fingerprint + b"\xc1 not msgpack") is None
    assert read_prepared(b"") is None and read_prepared(None) is None
    assert read_prepared(prepare(parse_dumps(_inputs("s01_idle_default", "global_status.tsv")))) is not None


def test_numbers_msgpack_cannot_hold_leave_no_prepared_form() -> None:
    """A paste where two numbers ran together (a 23-digit log sequence number) still audits; its dumps
    are parsed from the texts each time."""
    full = _inputs("s02_load_rw_default", "global_status.tsv")
    assert full.innodb_status is not None
    huge = full.innodb_status.replace("Log sequence number ", "Log sequence number 99999999999999999999", 1)
    inputs = msgspec.structs.replace(full, innodb_status=huge)
    summary = validate_inputs(inputs)
    assert summary.prepared == b"" and read_prepared(summary.prepared) is None
    assert run_audit(inputs, prepared=summary.prepared).findings


def _ast_closure() -> set[str]:
    """The parser modules' import closure read with `ast` (slow, exact): what the fingerprint must cover."""
    import ast
    from pathlib import Path

    root = Path(prepared_module.__file__).parent
    pending = [*root.glob("inputs/*.py"), root / "prepared.py"]
    seen: set[Path] = set()
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            for name in names:
                if name.startswith("advisor."):
                    relative = Path(*name.split(".")[1:])
                    for candidate in (root / f"{relative}.py", root / relative / "__init__.py"):
                        if candidate.is_file():
                            pending.append(candidate)
    return {str(path.relative_to(root)) for path in seen}


def test_the_fingerprint_covers_every_module_the_parsers_import() -> None:
    """A change to advisor/units.py or advisor/patterns.py changes what a parse yields: those count too."""
    root = __import__("pathlib").Path(prepared_module.__file__).parent
    covered = {str(path.relative_to(root)) for path in prepared_module.parser_sources()}
    assert covered == _ast_closure()
    assert {"units.py", "patterns.py", "errors.py", "inputs/tabular.py"} <= covered
