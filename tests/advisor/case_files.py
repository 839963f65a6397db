"""Load the advisor example cases: YAML files under tests/advisor/cases/<advisor>/.

A case is a small server description (version, role, profile, hardware, my.cnf text,
variables/status as mappings or texts, InnoDB status, schema facts, `persisted:` — MySQL 8.0+'s
mysqld-auto.cnf values as a mapping or a text) and what must happen:

    expect:
      fires: [buffer_pool.undersized]          # these rule ids must produce a finding
      quiet: [buffer_pool.oversized]           # these must not
      recommended: {innodb_buffer_pool_size: 44G}
      severity: {buffer_pool.undersized: warning}
      clean: true                               # no critical or warning finding at all
      mentions: {redo_log.undersized: [weak evidence]}  # texts in the rationale, evidence or notes
      mycnf_has: ["innodb_buffer_pool_size = 8G"]  # whole lines of the recommended files
      mycnf_lacks: ["innodb_bufer_pool_size = 8G"]  # lines that must not be there as written
      apply_sql: {innodb_io_capacity: "SET GLOBAL innodb_io_capacity_max = 20000; SET GLOBAL ..."}  # null: no live SQL
                                                # a change's live SQL exactly, in the order it runs

An input given as `{corpus: <path under ../shared/corpus>}` is read from the real corpus file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from advisor.audit import AuditInputs
from tests.corpus import corpus_file

CASES_DIR = Path(__file__).parent / "cases"


@dataclass(frozen=True)
class Case:
    path: Path
    description: str
    inputs: AuditInputs
    fires: tuple[str, ...]
    quiet: tuple[str, ...]
    recommended: dict[str, str] = field(default_factory=dict)
    severity: dict[str, str] = field(default_factory=dict)
    clean: bool = False
    mentions: dict[str, list[str]] = field(default_factory=dict)
    mycnf_has: tuple[str, ...] = ()
    mycnf_lacks: tuple[str, ...] = ()
    apply_sql: dict[str, str | None] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.path.parent.name}/{self.path.stem}"


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and set(value) == {"corpus"}:
        return corpus_file(value["corpus"]).read_text()
    return json.dumps(value)


def _inputs(raw: dict[str, Any]) -> AuditInputs:
    hardware = raw.get("hardware")
    mycnf = raw.get("mycnf")
    files = {"my.cnf": mycnf} if isinstance(mycnf, str) else dict(mycnf or {})
    files = {path: _text(text) or "" for path, text in files.items()}  # a file may be {corpus: path}
    statuses = raw.get("status") or []
    if not isinstance(statuses, list):
        statuses = [statuses]
    return AuditInputs(
        mycnf=files,
        memory=raw.get("memory"),
        memory_limit=raw.get("memory_limit"),
        cpus=raw.get("cpus"),
        storage=raw.get("storage"),
        variables=_text(raw.get("variables")),
        status=tuple(_text(s) or "" for s in statuses),
        innodb_status=_text(raw.get("innodb_status")),
        schema=_text(raw.get("schema")),
        hardware=_text(hardware),
        server_version=raw.get("server_version"),
        role=raw.get("role", "standalone"),
        profile=raw.get("profile", "production"),
        persisted=_text(raw.get("persisted")),
    )


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(CASES_DIR.glob("*/*.yaml")):
        raw = yaml.safe_load(path.read_text())
        expect = raw.get("expect", {})
        cases.append(
            Case(
                path=path,
                description=raw.get("description", ""),
                inputs=_inputs(raw),
                fires=tuple(expect.get("fires", ())),
                quiet=tuple(expect.get("quiet", ())),
                recommended={k: str(v) for k, v in (expect.get("recommended") or {}).items()},
                severity=dict(expect.get("severity") or {}),
                clean=bool(expect.get("clean", False)),
                mentions={k: list(v) for k, v in (expect.get("mentions") or {}).items()},
                mycnf_has=tuple(expect.get("mycnf_has", ())),
                mycnf_lacks=tuple(expect.get("mycnf_lacks", ())),
                apply_sql={
                    k: None if v is None else str(v) for k, v in (expect.get("apply_sql") or {}).items()
                },
            )
        )
    return cases
