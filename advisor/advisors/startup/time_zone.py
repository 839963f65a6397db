"""The default time zone at startup: an offset the server cannot read stops it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.advisors.startup.lines import comment_out, winning_lines, written
from advisor.findings import Severity
from advisor.patterns import lazy
from advisor.references import MARIADB_SERVER_VARIABLES
from advisor.rules import Proposal, mariadb_only, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext

_OFFSET: Final = lazy(r"([+-]?)([0-9]+):([0-9]+)")
# Zone names (tz database, SYSTEM) never start with a sign or a digit: such a value is a mistyped offset.
# mariadbd 10.11.19 aborts on +05:30:00, -03:00:00, +0530 and +5 (a private instance each).
_OFFSET_LIKE: Final = lazy(r"[+-]?[0-9][0-9:.]*|[+-].*")


def _offset_problem(value: str) -> str | None:
    """Why mariadbd refuses a `±HH:MM` default_time_zone, or None (names are looked up in the time zone
    tables at startup: not judged here). Started on mariadbd 10.11.19: -12:59, +13:00, +1:5, +013:00 start;
    -13:00, +13:01, +14:00, +25:00, +12:60 and an offset without its sign (13:00) abort."""
    match = _OFFSET().fullmatch(value.strip())
    if match is None:
        if _OFFSET_LIKE().fullmatch(value.strip()):
            return f"{value.strip()} is not an offset the server reads (it takes ±H:MM, no seconds)"
        return None
    sign, hours, minutes = match.group(1), int(match.group(2)), int(match.group(3))
    if not sign:
        return "an offset needs its sign (+ or -); without it the server looks for a zone of that name"
    if minutes > 59:
        return f"{minutes} is not a number of minutes (0 to 59)"
    total = hours * 60 + minutes
    if total > (13 * 60 if sign == "+" else 12 * 60 + 59):
        return "an offset must lie between -12:59 and +13:00"
    return None


@rule(
    "startup.bad_time_zone",
    Severity.CRITICAL,
    [f"{MARIADB_SERVER_VARIABLES}#time_zone"],
    versions=mariadb_only(),
)
def bad_time_zone(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: a default_time_zone written as an offset (`+25:00`, `+14:00`, `13:00`, `+05:30:00`,
    `+0530`) that the server cannot read.

    Why it matters: the option parser takes any text; at startup mariadbd 10.11.19 stops with "Fatal error:
    Illegal or unknown default time zone '+25:00'". It reads offsets from -12:59 to +13:00, with a sign and
    minutes below 60, as H:MM: seconds (`+05:30:00`) or no colon (`+0530`) abort as well.

    What we recommend: comment the line out (the server then runs on the system's zone), then set the
    offset you mean, between -12:59 and +13:00, or a named zone once the time zone tables are loaded.

    Caveats: MariaDB only. Named zones (`Europe/Berlin`) depend on the time zone tables of the data
    directory and are not judged.
    """
    found = winning_lines(ctx, ("default_time_zone",)).get("default_time_zone")
    problem = _offset_problem(found.value or "") if found is not None else None
    if found is None or problem is None:
        return
    yield comment_out(
        found,
        f"{written(found)}: {ctx.version.describe()} does not start",
        f'{problem}: the server stops at startup ("Illegal or unknown default time zone"). Comment the line '
        "out and write the offset you mean, between -12:59 and +13:00.",
        "default_time_zone",
    )
