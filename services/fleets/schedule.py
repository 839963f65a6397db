"""A fleet's schedule: a five-field cron expression (UTC) or an interval, and its next run."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

from croniter import croniter

from services.errors import InvalidInput
from store.models import Fleet

MAX_CRON_CHARS = 120
MIN_INTERVAL_SECONDS = 1
MAX_INTERVAL_SECONDS = 366 * 86400


def aware(moment: datetime) -> datetime:
    # SQLite hands timestamps back without a zone; they were written in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def check_cron(expression: Any) -> str:
    """A five-field cron expression (or an @alias such as @daily), evaluated in UTC; InvalidInput else."""
    if not isinstance(expression, str) or not expression.strip() or len(expression) > MAX_CRON_CHARS:
        raise InvalidInput(f"schedule_cron must be a cron expression of at most {MAX_CRON_CHARS} characters")
    text = " ".join(expression.split())
    if not (text.startswith("@") or len(text.split(" ")) == 5) or not croniter.is_valid(text):
        raise InvalidInput(
            f"schedule_cron {expression!r} is not a five-field cron expression such as '0 3 * * *' (UTC)"
        )
    return text


def check_interval(seconds: Any) -> int:
    if not isinstance(seconds, int) or isinstance(seconds, bool):
        raise InvalidInput("schedule_interval_seconds must be a whole number of seconds")
    if not MIN_INTERVAL_SECONDS <= seconds <= MAX_INTERVAL_SECONDS:
        raise InvalidInput(
            f"schedule_interval_seconds must be between {MIN_INTERVAL_SECONDS} and {MAX_INTERVAL_SECONDS}"
        )
    return seconds


def next_run_after(fleet: Fleet, now: datetime, *, previous: datetime | None = None) -> datetime:
    """The first scheduled moment strictly after `now`.

    An interval keeps its phase from `previous` (the run just due) so a late dispatcher does not
    shift the schedule, and a dispatcher that was down starts one run, not a backlog of them.
    """
    now = aware(now)
    if fleet.schedule_cron is not None:
        found: datetime = croniter(fleet.schedule_cron, now.astimezone(UTC)).get_next(datetime)
        return aware(found)
    interval = timedelta(seconds=fleet.schedule_interval_seconds or MAX_INTERVAL_SECONDS)
    if previous is None:
        return now + interval
    previous = aware(previous)
    steps = max(1, math.floor((now - previous) / interval) + 1)
    return previous + steps * interval
