"""The evidence-quality model: every status window graded, and what a grade allows."""

from __future__ import annotations

import pytest

from advisor.derived.evidence import Grade, cap_change, cap_severity, grade_high_water, grade_status
from advisor.findings import Severity
from advisor.inputs.statusvars import StatusView, build_status_view, parse_status
from advisor.thresholds import THRESHOLDS

LIMITS = THRESHOLDS.evidence


def _view(*samples: str) -> StatusView:
    parsed = [s for i, text in enumerate(samples) for s in parse_status(text, f"status{i + 1}")]
    return build_status_view(parsed)


def _grade(*samples: str) -> Grade:
    return grade_status(_view(*samples), LIMITS).grade


def _status(uptime: int, extra: str = "") -> str:
    return f"Variable_name\tValue\nUptime\t{uptime}\nQuestions\t10\n{extra}"


@pytest.mark.parametrize(
    ("uptime", "grade"),
    [(9, Grade.WEAK), (65, Grade.WEAK), (3_599, Grade.WEAK), (3_600, Grade.FAIR), (86_400, Grade.STRONG)],
)
def test_one_snapshot_is_graded_by_uptime(uptime: int, grade: Grade) -> None:
    """One snapshot: averages since startup, graded by how long the server has run."""
    assert _grade(_status(uptime)) is grade


@pytest.mark.parametrize(
    ("first", "second", "grade"),
    [
        (94, 114, Grade.WEAK),  # 20 s apart
        (5_000, 5_059, Grade.WEAK),
        (5_000, 5_060, Grade.FAIR),
        (5_000, 5_600, Grade.STRONG),
        (30, 1_000, Grade.FAIR),  # ten minutes and more, but starting in warm-up
    ],
)
def test_two_snapshots_are_graded_by_their_window(first: int, second: int, grade: Grade) -> None:
    """Two snapshots: the Uptime difference is the window; a window in warm-up is at most fair."""
    assert _grade(_status(first), _status(second)) is grade


def test_restart_and_flush_status_make_evidence_weak() -> None:
    """A restart (Uptime falls) or FLUSH STATUS between the snapshots leaves weak evidence."""
    assert _grade(_status(200_000), _status(100_000)) is Grade.WEAK
    flushed = _grade(
        _status(100_000, "Uptime_since_flush_status\t100000\n"),
        _status(200_000, "Uptime_since_flush_status\t50\n"),
    )
    assert flushed is Grade.WEAK


def test_grade_is_shown_with_its_reason() -> None:
    """The grade and its reason follow the window in words."""
    text = grade_status(_view(_status(94), _status(114)), LIMITS).describe()
    assert text.startswith("rate over 20 s between two snapshots — weak evidence (under a minute")


def test_weak_evidence_caps_severity_and_change() -> None:
    """Weak evidence: at most a notice, at most a factor of two either way; other grades untouched."""
    assert cap_severity(Severity.WARNING, Grade.WEAK) is Severity.NOTICE
    assert cap_severity(Severity.CRITICAL, Grade.WEAK) is Severity.NOTICE
    assert cap_severity(Severity.INFO, Grade.WEAK) is Severity.INFO
    assert cap_severity(Severity.WARNING, Grade.FAIR) is Severity.WARNING
    assert cap_severity(Severity.WARNING, None) is Severity.WARNING
    assert cap_change(100, 2_200, Grade.WEAK, LIMITS) == 200
    assert cap_change(100, 10, Grade.WEAK, LIMITS) == 50
    assert cap_change(100, 2_200, Grade.STRONG, LIMITS) == 2_200


@pytest.mark.parametrize(
    ("uptime", "since_flush", "grade", "window"),
    [
        (864_000, "30", Grade.WEAK, "highest since FLUSH STATUS 30 s ago"),  # review 2 case 10
        (864_000, "7200", Grade.FAIR, "highest since FLUSH STATUS 2.0 h ago"),
        (864_000, "864000", Grade.STRONG, "highest since startup (uptime 10.0 d)"),
        (114, None, Grade.WEAK, "highest since startup (uptime 114 s)"),  # no Uptime_since_flush_status
    ],
)
def test_high_water_marks_are_graded_since_flush_status(
    uptime: int, since_flush: str | None, grade: Grade, window: str
) -> None:
    """Max_used_connections is the highest since FLUSH STATUS (which resets it), not since startup."""
    extra = f"Uptime_since_flush_status\t{since_flush}\n" if since_flush else ""
    graded = grade_high_water(_view(_status(uptime, extra)), LIMITS)
    assert (graded.grade, graded.window) == (grade, window)


def test_high_water_window_ignores_the_distance_between_snapshots() -> None:
    """Two snapshots 10 minutes apart after 2 minutes of uptime: strong rates, but the peak has seen
    only 12 minutes since startup — weak."""
    view = _view(_status(120), _status(720))
    assert grade_high_water(view, LIMITS).grade is Grade.WEAK


def test_one_snapshot_after_flush_status_is_graded_since_the_flush() -> None:
    """One snapshot 10 days after startup but 30 s after FLUSH STATUS: the counters it resets have
    counted 30 s, so since-startup averages are weak evidence."""
    graded = grade_status(_view(_status(864_000, "Uptime_since_flush_status\t30\n")), LIMITS)
    assert graded.grade is Grade.WEAK
    assert "FLUSH STATUS ran 30 s ago" in graded.reason
