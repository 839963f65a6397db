"""SHOW GLOBAL VARIABLES and SHOW GLOBAL STATUS in every layout people paste; rates from two snapshots.

CONTRACT (fixed: the engine and the advisors rely on these names; add what you need, rename nothing):

* `parse_variables(text, file) -> VariablesDump`; `parse_status(text, file) -> tuple[StatusSample, ...]`
  (several samples when the file holds several, e.g. `mysqladmin ext -i`); the layout is detected.
* Names are looked up case-insensitively (`get("Innodb_os_log_written")` == `get("innodb_os_log_written")`).
* `build_status_view(samples)` uses the first and the last sample: two give per-second rates over the
  Uptime difference; one gives since-startup averages (`since_startup` True); Uptime going down is a
  restart (`restarted` True, rates fall back to the last sample's since-startup averages, a warning).
* Errors: `advisor.errors.InputError(message, file=..., line=...)` and nothing else.

Layouts are read by advisor.inputs.tabular (table, `-B`, `\\G`), tabular_columns (side by side,
`mysqld --help`) and tabular_exports (JSON, CSV). `mysqladmin ext -r -i` prints the first sample
absolute and later ones as differences; parse_status adds them back up (advisor.inputs.status_relative
says how the mode is recognised).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from msgspec import Struct

from advisor.errors import InputError, InputWarning
from advisor.inputs.listing_kind import (
    example_counters,
    looks_like_status,
    looks_like_variables,
    missing_core,
)
from advisor.inputs.status_relative import accumulate, looks_relative, to_int
from advisor.inputs.tabular import (
    Collector,
    Layout,
    RawSamples,
    detect_layout,
    read_table,
    read_tsv,
    read_vertical,
)
from advisor.inputs.tabular_columns import read_columns, read_help
from advisor.inputs.tabular_exports import read_json, read_plain_csv, read_quoted_csv
from advisor.inputs.tabular_fast import plain_tsv
from advisor.inputs.text_encoding import refuse_utf16


class VariablesDump(Struct, frozen=True):
    """SHOW GLOBAL VARIABLES: lower-case name → value as printed."""

    file: str
    values: Mapping[str, str]
    warnings: tuple[InputWarning, ...] = ()
    #: The whole listing of its server (advisor.inputs.listing_kind): a name it lacks does not exist
    #: there. False for an excerpt (`SHOW GLOBAL VARIABLES LIKE ...`), whose values still count.
    complete: bool = False

    def get(self, name: str) -> str | None:
        return self.values.get(name.lower())


class StatusSample(Struct, frozen=True):
    """One SHOW GLOBAL STATUS snapshot: lower-case name → value as printed."""

    file: str
    values: Mapping[str, str]
    index: int = 0
    #: Odd-but-ok findings of the parse (carried by the file's first sample).
    warnings: tuple[InputWarning, ...] = ()

    def get(self, name: str) -> str | None:
        return self.values.get(name.lower())

    def number(self, name: str) -> int | None:
        """The value as an integer; None when absent or not an integer."""
        return to_int(self.values.get(name.lower()))

    @property
    def uptime(self) -> int | None:
        return self.number("Uptime")


def describe_duration(seconds: float) -> str:
    """`30 s`, `1.5 min`, `3.0 h`, `10.0 d`: a status window for a sentence."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.1f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} d"


class StatusView(Struct, frozen=True):
    """What the advisors read: absolute values from the latest sample and per-second rates."""

    latest: StatusSample
    earlier: StatusSample | None
    #: Seconds between the two samples, or the latest Uptime when only one (or after a restart).
    window_seconds: float | None
    since_startup: bool
    restarted: bool
    warnings: tuple[InputWarning, ...] = ()
    #: FLUSH STATUS ran between the samples (Uptime_since_flush_status went down while Uptime rose).
    status_flushed: bool = False

    def value(self, name: str) -> int | None:
        """The latest sample's value as a number (None when absent or not a number)."""
        return self.latest.number(name)

    def text(self, name: str) -> str | None:
        return self.latest.get(name)

    def delta(self, name: str) -> int | None:
        """Counter growth over the window (the latest value itself when since_startup).

        None when either sample lacks a number, and for a fall after FLUSH STATUS reset the counter.
        """
        now = self.latest.number(name)
        if now is None or self.since_startup or self.earlier is None:
            return now
        before = self.earlier.number(name)
        if before is None:
            return None
        growth = now - before
        return None if growth < 0 and self.status_flushed else growth

    def rate(self, name: str) -> float | None:
        """Per-second rate of a counter over the window."""
        growth = self.delta(name)
        if growth is None or not self.window_seconds:
            return None
        return growth / self.window_seconds

    def describe_window(self) -> str:
        """For evidence: `rate over 20 s between two snapshots` or `average since startup (uptime 3.2 d)`."""
        if not self.since_startup and self.window_seconds is not None:
            return f"rate over {describe_duration(self.window_seconds)} between two snapshots"
        uptime = "unknown" if self.window_seconds is None else describe_duration(self.window_seconds)
        restart = "; the server restarted between the snapshots" if self.restarted else ""
        return f"average since startup (uptime {uptime}{restart})"


def read_samples(text: str, file: str) -> RawSamples:
    """Detect the layout and read every sample; InputError naming the first line not understood."""
    refuse_utf16(text, file)
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    plain = plain_tsv(text)
    if plain is not None:  # every line `name<TAB>value`: what read_tsv would read, read at once
        return RawSamples(Layout.TSV, [plain])
    lines = text.split("\n")
    layout, start = detect_layout(text, lines, file)
    out = Collector(file)
    if layout is Layout.TSV:
        read_tsv(lines, start, out)
    elif layout is Layout.TABLE:
        read_table(lines, start, out)
    elif layout is Layout.VERTICAL:
        read_vertical(lines, start, out)
    elif layout is Layout.COLUMNS:
        read_columns(lines, start, out)
    elif layout is Layout.HELP:
        read_help(lines, out)
    elif layout is Layout.JSON:
        read_json(text, out)
    elif lines[start].lstrip()[:1] == '"':
        read_quoted_csv(text, out)
    else:
        read_plain_csv(lines, start, out)
    return out.result(layout)


def _listings_of_kind(raw: RawSamples, status: bool, file: str) -> list[dict[str, str]]:
    """The listings of one kind when a file holds both (STATUS has Uptime, VARIABLES has not).

    Pastes often put SHOW STATUS and SHOW VARIABLES one after the other in one file.
    """
    wanted = [sample for sample in raw.samples if ("uptime" in sample) == status]
    if not wanted or len(wanted) == len(raw.samples):
        return raw.samples
    skipped = len(raw.samples) - len(wanted)
    other = "variables (no Uptime)" if status else "status (with Uptime)"
    raw.warnings.append(InputWarning(f"ignored {skipped} listing(s) that look like {other}", file=file))
    return wanted


def parse_variables(text: str, file: str) -> VariablesDump:
    """SHOW GLOBAL VARIABLES in any layout (also `mysqld --verbose --help`); the last listing wins.

    A listing of status counters is refused (SHOW GLOBAL STATUS given as variables); one that lacks the
    core names of a full listing is an excerpt: used, with a warning, but not `complete`."""
    raw = read_samples(text, file)
    listings = _listings_of_kind(raw, False, file)
    if len(listings) > 1:
        raw.warnings.append(
            InputWarning(f"{len(listings)} variable listings in one file; using the last", file=file)
        )
    values = listings[-1]
    if looks_like_status(values):
        raise InputError(
            f"this is SHOW GLOBAL STATUS output ({example_counters(values)}, ...), not SHOW GLOBAL "
            "VARIABLES: give it as the status, and SHOW GLOBAL VARIABLES as the variables",
            file=file,
        )
    missing = missing_core(values, help_output=raw.layout is Layout.HELP)
    if missing:
        raw.warnings.append(_filtered_warning(len(values), missing, file))
    return VariablesDump(file, values, tuple(raw.warnings), complete=not missing)


def _filtered_warning(count: int, missing: tuple[str, ...], file: str) -> InputWarning:
    shown = ", ".join(missing[:4]) + (f" and {len(missing) - 4} more" if len(missing) > 4 else "")
    return InputWarning(
        f"looks like a filtered listing: {count} variable(s), without {shown}, which every full "
        "SHOW GLOBAL VARIABLES has; its values are used, but a variable it leaves out is not taken as "
        "absent from the server (give the full SHOW GLOBAL VARIABLES for that)",
        file=file,
    )


def parse_status(text: str, file: str) -> tuple[StatusSample, ...]:
    """SHOW GLOBAL STATUS in any layout; one StatusSample per snapshot the file holds, values absolute."""
    raw = read_samples(text, file)
    if raw.layout is Layout.HELP:
        raise InputError("this is mysqld --help output: it lists variables, not status counters", file=file)
    samples = _listings_of_kind(raw, True, file)
    if any(looks_like_variables(sample) for sample in samples):
        raise InputError(
            "this is SHOW GLOBAL VARIABLES output (version, datadir, max_connections, ...), not SHOW "
            "GLOBAL STATUS: give it as the variables, and SHOW GLOBAL STATUS as the status",
            file=file,
        )
    warnings = list(raw.warnings)
    if len(samples) > 1 and looks_relative(samples):
        samples = accumulate(samples)
        warnings.append(
            InputWarning(
                "samples after the first are differences (mysqladmin -r); added up to absolute values",
                file=file,
            )
        )
    return tuple(
        StatusSample(file, values, index, tuple(warnings) if index == 0 else ())
        for index, values in enumerate(samples)
    )


def build_status_view(samples: Sequence[StatusSample]) -> StatusView:
    """Rates between the first and the last sample, or since-startup averages from the last."""
    if not samples:
        raise InputError("no SHOW GLOBAL STATUS sample to read")
    first, latest = samples[0], samples[-1]
    warnings = list(dict.fromkeys(warning for sample in samples for warning in sample.warnings))
    now, then = latest.uptime, first.uptime
    if now is None:
        warnings.append(
            InputWarning("no Uptime in the status: per-second rates are unavailable", file=latest.file)
        )
        return StatusView(latest, None, None, True, False, tuple(warnings))
    if len(samples) == 1 or then is None:
        if len(samples) > 1:
            warnings.append(
                InputWarning(
                    "the first snapshot has no Uptime: averages since startup instead", file=first.file
                )
            )
        return StatusView(latest, None, float(now), True, False, tuple(warnings))
    if now <= then:
        restarted = now < then
        problem = "the server restarted" if restarted else "the two snapshots show the same Uptime"
        if restarted:  # the counters cannot tell the two apart: they fall alike
            problem += " between them, or they were given newest first (give the older snapshot first)"
        warnings.append(
            InputWarning(
                f"Uptime went from {then} s to {now} s: {problem}; rates are averages since the last start",
                file=latest.file,
            )
        )
        return StatusView(latest, None, float(now), True, restarted, tuple(warnings))
    flushed = _flushed_between(first, latest)
    if flushed:
        warnings.append(
            InputWarning(
                "FLUSH STATUS ran between the snapshots: counters it reset have no rate", file=latest.file
            )
        )
    return StatusView(latest, first, float(now - then), False, False, tuple(warnings), flushed)


def _flushed_between(first: StatusSample, latest: StatusSample) -> bool:
    before, after = first.number("Uptime_since_flush_status"), latest.number("Uptime_since_flush_status")
    return before is not None and after is not None and after < before
