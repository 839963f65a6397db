"""How strong a rate's evidence is: every SHOW GLOBAL STATUS rate graded by its window.

A rate is an average over a window. One snapshot gives averages since startup (the window is Uptime);
two give the rate between them (their Uptime difference). A restart between them leaves only the
averages since the last start, and FLUSH STATUS resets counters mid-window: both weaken what the rate
says. The grades (thresholds in `advisor.thresholds.EvidenceThresholds`, which say why):

- `strong`: a day or more since startup, or two snapshots 10 min or more apart past warm-up;
- `fair`: an hour or more since startup, or two snapshots a minute or more apart;
- `weak`: less than that, a restart or FLUSH STATUS between the snapshots, or no Uptime at all. One
  snapshot is graded by the time since FLUSH STATUS when that ran after startup
  (Uptime_since_flush_status): the counters it resets have counted only that long.

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

High-water marks (Max_used_connections and its time, Memory_used_max, …) are not rates: the latest
snapshot holds the highest value since the last FLUSH STATUS, which resets them (MariaDB's FLUSH page:
FLUSH STATUS resets most status variables; checked on 10.11.19, Max_used_connections drops to the
connections open then). Their window is Uptime_since_flush_status when it is below Uptime, whatever
the two snapshots' distance; it is graded like one snapshot's since-startup window:

- `high_water_grade(ctx)`: the grade of that window (None without status);
- `high_water_source(ctx, name)`: the Evidence source for a high-water mark, with its window and grade;
- `high_water_too_short(ctx, what)`: on a weak high-water window, why `what` stays as it is. A weak
  high-water mark never drives a change or a warning: at most a notice that says the window is short.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from msgspec import Struct

from advisor.derived.cache import once_per_audit
from advisor.findings import Severity
from advisor.inputs.statusvars import describe_duration

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
        flushed = high_water_seconds(status)
        if flushed is not None and flushed < status.window_seconds:  # counters reset since: that long
            grade, reason = _since_startup(flushed, limits)
            if grade is not Grade.STRONG:
                reason = f"FLUSH STATUS ran {describe_duration(flushed)} ago: the counters it resets cover only that"
            return WindowGrade(grade, window, reason)
        grade, reason = _since_startup(status.window_seconds, limits)
    else:
        grade, reason = _between(status.window_seconds, status.earlier.uptime, limits)
    return WindowGrade(grade, window, reason)


#: Status variables that hold the highest value since the last FLUSH STATUS (or startup).
HIGH_WATER_MARKS = ("Max_used_connections", "Max_used_connections_time", "Memory_used_max")


def high_water_seconds(status: StatusView) -> int | None:
    """Seconds a high-water mark covers: since FLUSH STATUS when that ran after startup, else Uptime."""
    spans = [status.value(name) for name in ("Uptime", "Uptime_since_flush_status")]
    known = [span for span in spans if span is not None]
    return min(known) if known else None


def grade_high_water(status: StatusView, limits: EvidenceThresholds) -> WindowGrade:
    """The grade of the window a high-water mark covers (pure; `high_water_grade` caches it)."""
    seconds, uptime = high_water_seconds(status), status.value("Uptime")
    if seconds is None:
        return WindowGrade(Grade.WEAK, "highest since an unknown time", "no Uptime in the status")
    flushed = uptime is None or seconds < uptime
    window = (
        f"highest since FLUSH STATUS {describe_duration(seconds)} ago" if flushed else f"highest since startup "
        f"(uptime {describe_duration(seconds)})"
    )  # fmt: skip
    grade, reason = _since_startup(seconds, limits)
    if flushed and grade is not Grade.STRONG:
        reason = f"FLUSH STATUS reset it {describe_duration(seconds)} ago, so it has seen only that long"
    elif grade is not Grade.STRONG:
        reason = reason.replace("warm-up and the first load dominate the averages", "a peak seen only so far")
    return WindowGrade(grade, window, reason)


@once_per_audit
def high_water_grade(ctx: AuditContext) -> WindowGrade | None:
    """The grade of the window this audit's high-water marks cover; None without status."""
    if ctx.status is None:
        return None
    return grade_high_water(ctx.status, ctx.thresholds.evidence)


def high_water_source(ctx: AuditContext, name: str) -> str:
    """`SHOW GLOBAL STATUS Max_used_connections (highest since FLUSH STATUS 30 s ago — weak evidence (…))`."""
    grade = high_water_grade(ctx)
    return f"SHOW GLOBAL STATUS {name}" + (f" ({grade.describe()})" if grade is not None else "")


def high_water_too_short(ctx: AuditContext, what: str, name: str = "Max_used_connections") -> str | None:
    """On a weak high-water window, the sentence that says why `what` is left alone; None otherwise."""
    grade = high_water_grade(ctx)
    if grade is None or not grade.weak:
        return None
    return _left_alone(ctx, f"{name} covers too short a window ({grade.window})", what, grade.reason)


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
    return _left_alone(ctx, f"The status window ({grade.span}) is too short", what, grade.reason)


def _left_alone(ctx: AuditContext, window: str, what: str, reason: str) -> str:
    """The sentence a finding left unchanged on weak evidence says: which window, why, how to measure."""
    return f"{window} to change {what} on: {reason}. {what_to_measure(ctx)}"
