"""Space-separated layouts: `name value [value …]` side by side, and `mysqld --verbose --help`.

Side-by-side samples (pt-mysql-summary's `mysql-status-defer`, pt-mext) separate columns with
single spaces, so a multi-word value (`Buffer pool(s) load completed at …`) cannot be told apart
from the next column by spacing alone. A line splits into its columns by, in turn: whitespace
runs when that gives exactly one word per sample; single spaces when that does (empty values);
equal runs of words per sample (the same wording in each column). When none fits, every sample
gets the whole text and a warning says so; counters are single numbers and always split.
"""

from __future__ import annotations

from advisor.errors import InputError, InputWarning
from advisor.inputs.tabular import (
    HEADER_NAMES,
    HELP_MARKER,
    TS_RE,
    Collector,
    not_understood,
    skip_or_fail,
)

_COUNT_PROBE_LINES = 50  # the column count is taken from the first all-numeric row among these
_HELP_UNSET = "(No default value)"
_EXPECTED_COLUMNS = "`name value` separated by spaces"


def _is_number(word: str) -> bool:
    return word.lstrip("-").isdigit()


def column_count(lines: list[str], start: int, file: str) -> int:
    """Values per row, from the first row whose values are all numbers (every real dump has one)."""
    for line in lines[start : start + _COUNT_PROBE_LINES]:
        name, _, rest = line.partition(" ")
        words = rest.split()
        if name.isidentifier() and words and all(_is_number(word) for word in words):
            return len(words)
    raise not_understood(
        file, start + 1, lines[start], "a `name value` row with a number among the first rows"
    )


def split_columns(rest: str, count: int) -> list[str] | None:
    """The `count` values of one side-by-side row, or None when the spacing is ambiguous."""
    words = rest.split()
    if len(words) == count:
        return words
    pieces = rest.split(" ")
    if len(pieces) == count:
        return [piece.strip() for piece in pieces]
    if len(pieces) % count == 0:
        size = len(pieces) // count
        return [" ".join(pieces[at : at + size]).strip() for at in range(0, len(pieces), size)]
    return None


def read_columns(lines: list[str], start: int, out: Collector) -> None:
    """`name value` (one sample) or `name v1 v2 …` (samples side by side), space-separated."""
    count = column_count(lines, start, out.file)
    group = out.open_many(count)
    for index in range(start, len(lines)):
        line = lines[index]
        name, _, rest = line.partition(" ")
        key = name.lower()
        if not name.isidentifier() or (key == "ts" and TS_RE.match(line)):
            skip_or_fail(line, index + 1, out, _EXPECTED_COLUMNS)
            if out.current is not group[-1]:  # a TS stamp began a new set of samples
                group = out.open_many(count)
            continue
        if key in HEADER_NAMES:
            group = out.open_many(count)
            continue
        if count == 1:
            group[0][key] = rest.strip()
            continue
        values: list[str] | None = rest.split()
        if len(values) != count:  # type: ignore[arg-type]
            values = split_columns(rest, count)
        if values is None:
            out.warnings.append(
                InputWarning(
                    f"cannot tell the {count} values of {name} apart; each sample keeps the whole text",
                    file=out.file,
                    line=index + 1,
                )
            )
            values = [rest.strip()] * count
        for sample, value in zip(group, values, strict=False):
            sample[key] = value


def read_help(lines: list[str], out: Collector) -> None:
    """`mysqld --verbose --help`: the `name value` table after `Variables (--variable-name=value)`.

    Names are printed with dashes (`innodb-buffer-pool-size`) and become server variable names
    (underscores); `(No default value)` becomes an empty value.
    """
    marker = HELP_MARKER.strip()
    start = next((index for index, line in enumerate(lines) if line.startswith(marker)), None)
    if start is None:
        raise InputError("mysqld --help output without its variables table", file=out.file)
    first_row = start + 1
    while first_row < len(lines) and (
        lines[first_row].startswith("and boolean options") or lines[first_row][:3] == "---"
    ):
        first_row += 1  # the column header of older servers
    values = out.current
    for index in range(first_row, len(lines)):
        line = lines[index]
        if not line.strip():
            break  # the table ends at the first blank line
        name, _, rest = line.strip().partition(" ")
        name = name.replace("-", "_")
        if not name.isidentifier():
            raise not_understood(
                out.file, index + 1, line, "`variable-name value` in the mysqld --help table"
            )
        value = rest.strip()
        values[name.lower()] = "" if value == _HELP_UNSET else value
    out.warnings.append(
        InputWarning(
            "mysqld --help lists the values the server would start with, not a running server's values",
            file=out.file,
            line=start + 1,
        )
    )
