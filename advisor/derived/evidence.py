"""How strong a rate's evidence is: every SHOW GLOBAL STATUS rate graded by its window.

A rate is an average over a window. One snapshot gives averages since startup (the window is Uptime);
two give the rate between them (their Uptime difference). A restart between them leaves only the
averages since the last start, and FLUSH STATUS resets counters mid-window: both weaken what the rate
says. The grades (thresholds in `advisor.thresholds.EvidenceThresholds`, which say why):

- `strong`: a day or more since startup, or two snapshots 10 min or more apart past warm-up;
- `fair`: an hour or more since startup, or two snapshots a minute or more apart;
- `weak`: less than that, a restart or FLUSH STATUS between the snapshots, or no Uptime at all.

What rules do with it (the API other advisors use):

- `window_grade(ctx)`: the grade of this audit's status window (None without status);
- `graded_window(ctx)`: the window in words with its grade, for an Evidence source:
  `rate over 20 s between two snapshots — weak evidence (under a minute between the snapshots)`;
- `cap_severity(severity, grade)`: weak evidence alone never drives more than a notice;
- `cap_change(current, proposed, grade, limits)`: weak evidence never moves a size by more than
  `weak_max_change_factor`;
- `what_to_measure(ctx)`: the sentence that tells the user how to get strong evidence;
- `too_short_to_change(ctx, what)`: on weak evidence, why `what` stays as it is (None otherwise): a rule
  that would change a setting from a rate says this in a notice instead.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from msgspec import Struct

from advisor.derived.cache import once_per_audit
from advisor.findings import Severity

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.statusvars import StatusView
    from advisor.thresholds import EvidenceThresholds


class Grade(StrEnum):
    """How far a rate can be trusted, strongest first."""

    STRONG = "strong"
    FAIR = "fair"
    WEAK = "weak"


class WindowGrade(Struct, frozen=True):
    """A status window's grade, the window in words and why it got this grade."""

    grade: Grade
    window: str
    reason: str

    @property
    def weak(self) -> bool:
        return self.grade is Grade.WEAK

    @property
    def span(self) -> str:
        """The window for a sentence: `over 20 s between two snapshots`, `since startup (uptime 9 s)`."""
        if self.window.startswith("rate over "):
            return self.window.removeprefix("rate ")
        return self.window.replace("average since startup", "since startup")

    def describe(self) -> str:
        """`rate over 20 s between two snapshots — weak evidence (under a minute between the snapshots)`."""
        why = "" if self.grade is Grade.STRONG else f" ({self.reason})"
        return f"{self.window} — {self.grade} evidence{why}"


def _since_startup(uptime: float, limits: EvidenceThresholds) -> tuple[Grade, str]:
    if uptime >= limits.strong_uptime_seconds:
        return Grade.STRONG, "a day or more since startup"
    if uptime >= limits.fair_uptime_seconds:
        return Grade.FAIR, "averages since startup over less than a day"
    return Grade.WEAK, "less than an hour since startup: warm-up and the first load dominate the averages"


def _between(window: float, started: int | None, limits: EvidenceThresholds) -> tuple[Grade, str]:
    if window < limits.fair_window_seconds:
        return Grade.WEAK, "under a minute between the snapshots: one burst or stall decides the rate"
    if started is not None and started < limits.warmup_seconds:
        return Grade.FAIR, f"the window starts {started} s after startup, while caches warm up"
    if window < limits.strong_window_seconds:
        return Grade.FAIR, "under 10 minutes between the snapshots"
    return Grade.STRONG, "10 minutes or more between the snapshots"


def grade_status(status: StatusView, limits: EvidenceThresholds) -> WindowGrade:
    """The grade of a status view's window (pure; `window_grade` caches it per audit)."""
    window = status.describe_window()
    if status.window_seconds is None:
        return WindowGrade(Grade.WEAK, window, "no Uptime in the status, so no window to divide by")
    if status.restarted:
        return WindowGrade(Grade.WEAK, window, "a restart between the snapshots")
    if status.status_flushed:
        return WindowGrade(Grade.WEAK, window, "FLUSH STATUS ran between the snapshots")
    if status.since_startup or status.earlier is None:
        grade, reason = _since_startup(status.window_seconds, limits)
    else:
        grade, reason = _between(status.window_seconds, status.earlier.uptime, limits)
    return WindowGrade(grade, window, reason)


@once_per_audit
def window_grade(ctx: AuditContext) -> WindowGrade | None:
    """The grade of this audit's status window; None without status."""
    if ctx.status is None:
        return None
    return grade_status(ctx.status, ctx.thresholds.evidence)


def graded_window(ctx: AuditContext) -> str:
    """The status window in words with its grade, for an Evidence source ("" without status)."""
    grade = window_grade(ctx)
    return grade.describe() if grade is not None else ""


def evidence_suffix(ctx: AuditContext) -> str:
    """` — weak evidence (…)` to append to a rate's text; "" without status or for strong evidence."""
    grade = window_grade(ctx)
    if grade is None or grade.grade is Grade.STRONG:
        return ""
    return f" — {grade.grade} evidence ({grade.reason})"


def cap_severity(severity: Severity, grade: WindowGrade | Grade | None) -> Severity:
    """Weak evidence alone never drives a warning or worse: it is capped at a notice."""
    level = grade.grade if isinstance(grade, WindowGrade) else grade
    if level is Grade.WEAK and severity.rank < Severity.NOTICE.rank:
        return Severity.NOTICE
    return severity


def cap_change(
    current: int, proposed: int, grade: WindowGrade | Grade | None, limits: EvidenceThresholds
) -> int:
    """Weak evidence moves a size by at most `weak_max_change_factor` either way; otherwise `proposed`."""
    level = grade.grade if isinstance(grade, WindowGrade) else grade
    if level is not Grade.WEAK or current <= 0:
        return proposed
    factor = limits.weak_max_change_factor
    return max(int(current / factor), min(proposed, int(current * factor)))


def what_to_measure(ctx: AuditContext) -> str:
    """How to get strong evidence: the sentence a weak-evidence finding ends with."""
    limits = ctx.thresholds.evidence
    return (
        f"Measure before a large change: take two SHOW GLOBAL STATUS snapshots at least "
        f"{limits.strong_window_seconds // 60} minutes apart under typical load, once the server has run "
        f"for {limits.fair_uptime_seconds // 3600} hour or more (or one snapshot after a day of uptime)."
    )


def too_short_to_change(ctx: AuditContext, what: str) -> str | None:
    """On weak evidence, the sentence that says why `what` is left alone; None on fair or strong evidence."""
    grade = window_grade(ctx)
    if grade is None or not grade.weak:
        return None
    return (
        f"The status window ({grade.span}) is too short to change {what} on: {grade.reason}. "
        f"{what_to_measure(ctx)}"
    )
