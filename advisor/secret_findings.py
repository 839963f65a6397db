"""Secrets in what we hand back: which option lines hold one, and findings that never quote it.

A line holds a secret when its option name is a secret (`advisor.redact.is_secret_option`) or misspells
one (`misspelt_secret`: `pasword = x`, which the server refuses and a finding would quote), when its
value holds a secret pair (`wsrep_provider_options = "socket.ssl_password=…"`), when it
holds a redacted placeholder, or when a finding reads it as a secret option — a misspelt
`wsrep_sst_auht = root:pw` whose correction is `wsrep_sst_auth`. Such lines stay in the user's own
files: the differ never shows them, not even when a finding comments them out or respells them, and a
finding about one carries `[REDACTED]` in place of the value (a redacted copy of its title, rationale,
evidence and values). A correction of a secret is advice only: the user renames the option in their
own file, the value stays there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from msgspec.structs import replace

from advisor.findings import Evidence, Finding
from advisor.redact import REDACTED, holds_secret_pair, is_secret_option, misspelt_secret

if TYPE_CHECKING:
    from advisor.inputs.optionfiles import OptionFile, OptionFileSet

Location = tuple[str, int]  # (path, 1-based line)


def secret_lines(file: OptionFile) -> frozenset[int]:
    """0-based indexes of the lines that hold a secret option or a redacted placeholder."""
    found = {
        entry.line - 1
        for entry in file.entries()
        if is_secret_option(entry.raw_name)
        or misspelt_secret(entry.raw_name) is not None
        or holds_secret_pair(entry.value)
    }
    if REDACTED in file.serialise():  # seldom: look for the lines only then (no line breaks in REDACTED)
        found.update(index for index, text in enumerate(file.lines()) if REDACTED in text)
    return frozenset(found)


def _location(source: str) -> Location | None:
    path, _, line = source.rpartition(":")
    return (path, int(line)) if path and line.isdigit() else None


def _read_as_secret(findings: Iterable[Finding]) -> set[Location]:
    """Lines a finding about a secret variable points at (its own line, or its evidence's)."""
    found: set[Location] = set()
    for finding in findings:
        if finding.variable and is_secret_option(finding.variable):
            if finding.option_file is not None and finding.option_line is not None:
                found.add((finding.option_file, finding.option_line))
            found.update(filter(None, (_location(item.source) for item in finding.evidence)))
    return found


def secret_locations(options: OptionFileSet | None, findings: Sequence[Finding]) -> frozenset[Location]:
    """Every (path, line) holding a secret, in the uploaded files."""
    if options is None:
        return frozenset()
    found = {(path, index + 1) for path, file in options.files.items() for index in secret_lines(file)}
    found.update(where for where in _read_as_secret(findings) if where[0] in options.files)
    return frozenset(found)


def _values(options: OptionFileSet, locations: frozenset[Location]) -> tuple[str, ...]:
    """The values written on the secret lines, longest first (as given, and unquoted)."""
    values: set[str] = set()
    for path, line in locations:
        for entry in options.files[path].entries():
            if entry.line == line:
                values.update(v for v in (entry.given, entry.value) if v and v != REDACTED)
    return tuple(sorted(values, key=len, reverse=True))


def _touches(finding: Finding, locations: frozenset[Location]) -> bool:
    if finding.variable and is_secret_option(finding.variable):
        return True
    if (finding.option_file, finding.option_line) in locations:
        return True
    return any(_location(item.source) in locations for item in finding.evidence)


def _redact(text: str, values: tuple[str, ...]) -> str:
    for value in values:
        text = text.replace(value, REDACTED)
    return text


def _redacted(finding: Finding, values: tuple[str, ...]) -> Finding:
    """The finding with the secret replaced everywhere it is quoted; a correction becomes advice."""
    own = (finding.current, finding.recommended)
    values = tuple(sorted({*values, *(v for v in own if v and v != REDACTED)}, key=len, reverse=True))
    rationale = _redact(finding.rationale, values)
    change = finding.change
    if change == "set":
        change = None
        rationale += (
            f" The value is a secret, kept out of what we hand back: rename the option to "
            f"{finding.variable} in your own file, the value stays there."
        )
    return replace(
        finding,
        title=_redact(finding.title, values),
        rationale=rationale,
        evidence=tuple(
            Evidence(_redact(item.label, values), _redact(item.value, values), item.source)
            for item in finding.evidence
        ),
        current=None if finding.current is None else REDACTED,
        recommended=None if finding.recommended is None else REDACTED,
        current_value=None,
        recommended_value=None,
        apply_sql=None,
        change=change,
        notes=tuple(_redact(item, values) for item in finding.notes),
    )


def keep_secrets_out(options: OptionFileSet | None, findings: list[Finding]) -> list[Finding]:
    """The findings, those about a secret line or a secret variable redacted (see the module doc)."""
    locations = secret_locations(options, findings)
    if options is None and not any(f.variable and is_secret_option(f.variable) for f in findings):
        return findings
    values = _values(options, locations) if options is not None else ()
    return [_redacted(f, values) if _touches(f, locations) else f for f in findings]
