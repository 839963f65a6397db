"""What the advisors produce: findings with their evidence, as the API and the CLI show them."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from msgspec import Struct, field


class Severity(StrEnum):
    """How urgent a finding is, from "the server will not start" down to "for your information"."""

    CRITICAL = "critical"
    WARNING = "warning"
    NOTICE = "notice"
    INFO = "info"

    @property
    def rank(self) -> int:
        """0 for critical … 3 for info: sort key, most urgent first."""
        return _RANK[self]


_RANK = {Severity.CRITICAL: 0, Severity.WARNING: 1, Severity.NOTICE: 2, Severity.INFO: 3}


class Evidence(Struct, frozen=True):
    """One number (or fact) a finding used, and where it came from.

    `source` says where: `my.cnf:12`, `variable innodb_buffer_pool_size`,
    `status Innodb_os_log_written (rate over 20 s)`, `hardware memory`, `innodb status LOG`.
    """

    label: str
    value: str
    source: str

    def to_dict(self) -> dict[str, str]:
        return {"label": self.label, "value": self.value, "source": self.source}


ChangeKind = Literal["set", "comment_out"]


class Finding(Struct, frozen=True):
    """A finished finding: the rule's proposal completed by the engine with catalog facts."""

    advisor: str
    rule: str
    severity: Severity
    title: str
    rationale: str
    evidence: tuple[Evidence, ...]
    variable: str | None
    current: str | None
    recommended: str | None
    restart_required: bool | None
    apply_sql: str | None
    references: tuple[str, ...]
    applies_to: str
    change: ChangeKind | None = None
    option_file: str | None = None
    option_line: int | None = None
    notes: tuple[str, ...] = field(default=())
    #: the user's own setting, respelled so the server reads it (see `Proposal.correction`).
    correction: bool = False
    #: `current` and `recommended` as numbers (bytes, counts, seconds) for a numeric variable.
    current_value: int | None = None
    recommended_value: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape shared by `innotune audit --format json` and the API."""
        return {
            "advisor": self.advisor,
            "rule": self.rule,
            "severity": self.severity.value,
            "title": self.title,
            "rationale": self.rationale,
            "evidence": [item.to_dict() for item in self.evidence],
            "variable": self.variable,
            "current": self.current,
            "recommended": self.recommended,
            "current_value": self.current_value,
            "recommended_value": self.recommended_value,
            "option_file": self.option_file,
            "option_line": self.option_line,
            "restart_required": self.restart_required,
            "apply_sql": self.apply_sql,
            "references": list(self.references),
            "applies_to": self.applies_to,
        }
