"""`mysqladmin ext -r -i` and `pt-mext -r`: the first sample absolute, later ones as differences.

parse_status detects the mode and adds the differences back up, so every StatusSample it returns
holds absolute values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

# Status values that never change while the server runs: a later sample reading 0 is a difference.
_CONSTANT_WHILE_RUNNING = ("innodb_page_size", "innodb_buffer_pool_pages_total")
# Gauges that are never negative as absolute readings: a negative one is a difference.
_NEVER_NEGATIVE = ("threads_connected", "threads_running", "threads_cached", "open_files", "open_tables")
_MAX_DIGITS = 30  # beyond any server counter; also keeps int() far from its digit limit


def to_int(text: str | None) -> int | None:
    """`134217728` or `-3` as an int; None for anything else (`ON`, `0.5`, empty, absent)."""
    if not text:
        return None
    digits = text[1:] if text[0] == "-" else text
    if not digits.isascii() or not digits.isdigit() or len(digits) > _MAX_DIGITS:
        return None
    return int(text)


def looks_relative(samples: Sequence[Mapping[str, str]]) -> bool:
    """Whether samples after the first are differences (`mysqladmin ext -r -i`, `pt-mext -r`).

    Any one of: a value constant while the server runs (Innodb_page_size, Innodb_buffer_pool_pages_total)
    reads 0 where the first sample had it non-zero; a gauge that is never negative (Threads_connected,
    Open_tables …) is negative; or every later Uptime is below the first and they do not keep growing
    (differences stay near the interval, 3, 4, 3; absolute Uptimes after a restart grow: 3, 6, 9).
    """
    first, later = samples[0], samples[1:]
    for name in _CONSTANT_WHILE_RUNNING:
        if (to_int(first.get(name)) or 0) > 0 and any(to_int(sample.get(name)) == 0 for sample in later):
            return True
    for sample in later:
        if any((to_int(sample.get(name)) or 0) < 0 for name in _NEVER_NEGATIVE):
            return True
    start = to_int(first.get("uptime"))
    uptimes = [uptime for uptime in (to_int(sample.get("uptime")) for sample in later) if uptime is not None]
    if start is None or len(uptimes) != len(later) or len(uptimes) < 2 or max(uptimes) >= start:
        return False
    return any(after <= before for before, after in pairwise(uptimes))


def accumulate(samples: Sequence[dict[str, str]]) -> list[dict[str, str]]:
    """Absolute values from a first absolute sample and later differences (running sums).

    A name whose first value is text (printed as 0 by mysqladmin -r) keeps its first text.
    """
    running = dict(samples[0])
    result = [samples[0]]
    for differences in samples[1:]:
        absolute = dict(running)
        for name, text in differences.items():
            if text == "0" and name in running:
                continue  # most counters did not move: the running value stands
            step, base = to_int(text), to_int(running.get(name))
            if step is None or name not in running:
                absolute[name] = text
            elif base is not None:
                absolute[name] = str(base + step)
        result.append(absolute)
        running = absolute
    return result
