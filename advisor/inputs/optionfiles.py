"""my.cnf option files: a lossless document model, server-style name normalisation and read groups.

CONTRACT (fixed: the engine, the effective config, the differ and the advisors rely on these names;
add what you need, rename nothing):

* `parse_option_file(text, path) -> OptionFile`; `OptionFile.serialise() == text` byte for byte.
* `OptionFileSet.from_texts({path: text})` parses every upload, resolves `!include`/`!includedir`
  against the uploaded paths (a missing one is an `InputWarning` naming the path) and keeps `warnings`.
* `OptionFileSet.entries(groups)` — every option line in the server's read order, restricted to
  `groups` (None: all groups); `OptionFileSet.effective(groups)` — last one wins per name, earlier
  occurrences kept as `shadowed`.
* `groups_read(version)` — the groups mysqld of that flavor and version reads.
* Edits on an `OptionFile` (`set_value`, `add_option`, `comment_out`, `remove`) touch only their own
  lines; `copy()` first to keep the original.
* Errors: `advisor.errors.InputError(message, file=path, line=n)` and nothing else.

The document is the file's lines exactly as uploaded (split on LF only; a CR before it stays part of
the line; a UTF-8 byte-order mark is kept aside), so serialising is a join. Lines are read with the
server's rules (`optionsyntax`, `optionscan`, checked against MariaDB's `my_print_defaults` on the
corpus), names normalised as the server matches them (`optionnames`), includes followed as the
server follows them (`optionincludes`), groups chosen per version (`optiongroups`).

Refused with an InputError naming the line (`strict=True`, the default):

* binary or undecodable content (NUL and other control bytes, invalid UTF-8, U+FFFD), e.g. an
  encrypted `.mylogin.cnf` — refused in lenient mode too;
* what the server itself refuses: an option before any `[group]` ("Found option without preceding
  group"), a group header without `]`, `!include`/`!includedir` without a path;
* a line that cannot be an option (`--flag`, prose), e.g. a mysqld `.opt` file of command-line flags;
* InnoTune policy: template markup on a non-comment line (`{{ }}`, `{% %}`, `<% %>`, `${VAR}`, and
  unquoted build placeholders `@WORD@` as in MySQL's `my-*.cnf.sh`) — the server would read them
  literally and fail later, and advice about a template is advice about the wrong file — and an NDB
  Cluster `config.ini` (`[ndbd default]` and friends), which is not a server option file.

`strict=False` reads the rest literally (options before any group under group "", which nothing
reads) and skips unreadable lines with a warning, to show or round-trip a refused file.
Warnings: a byte-order mark (MySQL and MariaDB stop at line 1 of such a file, so the warning says to
remove it), an unknown `!` directive or text after a group header (the server ignores both), and —
on the set — includes that match no upload, and include cycles.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Mapping
from typing import Final

from msgspec import Struct

from advisor.errors import InputError, InputWarning
from advisor.inputs.optionedits import OptionFileEdits
from advisor.inputs.optiongroups import groups_read
from advisor.inputs.optionincludes import installed_paths, resolve_includes
from advisor.inputs.optionscan import Include, OptionEntry, Scan, check_text, scan
from advisor.inputs.text_encoding import refuse_utf16

__all__ = [
    "EffectiveOption",
    "Include",
    "OptionEntry",
    "OptionFile",
    "OptionFileSet",
    "groups_read",
    "last_lines",
    "parse_option_file",
]

_BOM: Final = "\ufeff"


class EffectiveOption(Struct, frozen=True):
    """The winning entry for one name across the groups read, and the earlier ones it shadows."""

    entry: OptionEntry
    shadowed: tuple[OptionEntry, ...] = ()


class OptionFile(OptionFileEdits):
    """One option file's lines, in order, losslessly.

    Line numbers are 1-based and always refer to the current text: edits that add or remove lines
    renumber what follows (apply in-place edits before additions, or work from the bottom up).
    """

    path: str

    def __init__(self, path: str, bom: str, lines: list[str], found: Scan | None, strict: bool) -> None:
        self.path = path
        self._bom = bom
        #: The text split on LF: a CR before the LF stays on the line; the last item is what follows
        #: the final LF ("" when the file ends with a newline).
        self._lines = lines
        self._found = found
        self._strict = strict
        #: Per line: its number when parsed, 0 once added or edited (None: nothing edited yet).
        self._origin: list[int] | None = None
        self._crlf: bool | None = None

    # ------------------------------------------------------------------ reading
    @property
    def _scan(self) -> Scan:
        if self._found is None:
            self._found = scan(self.path, self._lines, self._strict, check_text(self.serialise(), self.path))
        return self._found

    def serialise(self) -> str:
        """The file's text, byte for byte as uploaded plus the edits made."""
        return self._bom + "\n".join(self._lines)

    def entries(self) -> tuple[OptionEntry, ...]:
        """Every option line of this file, in line order (includes are not followed here)."""
        return self._scan.entries

    def groups(self) -> tuple[str, ...]:
        """The groups this file opens, lower case, in order of first appearance."""
        return tuple(dict.fromkeys(group for _, group in self._scan.headers))

    @property
    def headers(self) -> tuple[tuple[int, str], ...]:
        """(line, group) for every group header, in file order."""
        return self._scan.headers

    @property
    def includes(self) -> tuple[Include, ...]:
        """The `!include` and `!includedir` lines, in file order."""
        return self._scan.includes

    @property
    def warnings(self) -> tuple[InputWarning, ...]:
        """Odd but accepted lines (unknown directives, text after a group header, a byte-order mark)."""
        found = self._scan.warnings
        if self._bom:
            bom = InputWarning(
                "the file starts with a UTF-8 byte-order mark: MySQL and MariaDB stop at line 1 with "
                "'Found option without preceding group'; save it without the BOM",
                self.path,
                1,
            )
            found = (bom, *found)
        return found

    @property
    def has_bom(self) -> bool:
        """Whether the file starts with a UTF-8 byte-order mark (which the server reads as text)."""
        return bool(self._bom)

    def line_text(self, line: int) -> str:
        """The text of `line` without its line ending."""
        return self._lines[self._index(line)].removesuffix("\r")

    def lines(self) -> list[str]:
        """The current lines, each with its own ending (the last may have none); a byte-order mark stays
        on the first line, so `"".join(lines()) == serialise()`."""
        text = self._lines
        found = [line + "\n" for line in text[:-1]] + ([text[-1]] if text[-1] else [])
        if self._bom:
            found = [self._bom + found[0], *found[1:]] if found else [self._bom]
        return found

    def origins(self) -> list[int | None]:
        """For each line of `lines()`: its line number when parsed if unchanged since, else None."""
        origin = self._origin if self._origin is not None else range(1, len(self._lines) + 1)
        return [number or None for number in origin[: self.line_count]]

    # ------------------------------------------------------------------ editing
    def drop_bom(self) -> None:
        """Leave the byte-order mark out: line 1 counts as edited, so a diff rewrites it without."""
        if self._bom:
            self._bom = ""
            self._touch()[0] = 0

    def copy(self) -> OptionFile:
        """An independent copy: edit it and compare with the original."""
        twin = OptionFile(self.path, self._bom, list(self._lines), self._found, self._strict)
        twin._origin = list(self._origin) if self._origin is not None else None
        twin._crlf = self._crlf
        return twin


def parse_option_file(text: str, path: str, *, strict: bool = True) -> OptionFile:
    """Parse one option file; raises InputError naming the file and line of the first problem.

    `strict=False` keeps going where InnoTune or the server would stop (options before any group go
    under group "", which nothing reads; template markup is read literally; unreadable lines are
    skipped with a warning) — for showing or round-tripping a file the server would refuse. Binary
    content is refused either way.
    """
    if not isinstance(text, str):
        raise InputError(f"an option file must be text, not {type(text).__name__}", file=path)
    refuse_utf16(text, path)
    markup = check_text(text, path)
    bom = _BOM if text.startswith(_BOM) else ""
    lines = text[len(bom) :].split("\n")
    return OptionFile(path, bom, lines, scan(path, lines, strict, markup), strict)


class OptionFileSet:
    """Several uploaded option files with their includes resolved by path."""

    files: Mapping[str, OptionFile]
    warnings: tuple[InputWarning, ...]

    def __init__(self, files: Mapping[str, OptionFile]) -> None:
        """Put already parsed `files` (upload order, the first is the main file) in read order."""
        self.files = dict(files)
        order, paths, unread, warnings = resolve_includes(self.files)
        self._order = order
        #: Uploads in an `!includedir` directory that the server passes over (name or subdirectory).
        self.unread = unread
        #: Paths in the order the server reads them (an included file where its `!include` stands).
        self.paths_read = paths
        self.warnings = warnings
        self._effective: dict[frozenset[str], dict[str, EffectiveOption]] = {}

    @classmethod
    def from_texts(cls, texts: Mapping[str, str]) -> OptionFileSet:
        """Parse each upload (in upload order) and follow `!include`/`!includedir` among them."""
        return cls({path: parse_option_file(text, path) for path, text in texts.items()})

    @functools.cached_property
    def installed_paths(self) -> dict[str, str]:
        """Upload path → where the server reads it, for uploads with a relative path that an include with
        an absolute path resolved to (advisor.inputs.optionincludes.installed_paths)."""
        return installed_paths(self.files)

    @property
    def main(self) -> OptionFile | None:
        """The first uploaded file: the one the server is started with."""
        return next(iter(self.files.values()), None)

    def entries(self, groups: Collection[str] | None = None) -> tuple[OptionEntry, ...]:
        """Every option line in the server's read order; only those in `groups` when given."""
        if groups is None:
            return self._order
        wanted = {group.lower() for group in groups}
        return tuple(entry for entry in self._order if entry.group in wanted)

    def effective(self, groups: Collection[str]) -> dict[str, EffectiveOption]:
        """Name → the last entry for it in `groups` (read order), with the earlier entries it shadows.

        Keyed by `OptionEntry.key`: a `maximum-x` limit is `maximum_x` and does not shadow `x`.
        """
        wanted = frozenset(group.lower() for group in groups)
        cached = self._effective.get(wanted)
        if cached is None:
            cached = self._effective[wanted] = self._compute_effective(wanted)
        return dict(cached)

    def _compute_effective(self, groups: frozenset[str]) -> dict[str, EffectiveOption]:
        return last_lines(self.entries(groups))


def last_lines(entries: Iterable[OptionEntry]) -> dict[str, EffectiveOption]:
    """Key → the last of `entries` (read order) with that key, with the earlier ones it shadows."""
    winners: dict[str, OptionEntry] = {}
    shadowed: dict[str, list[OptionEntry]] = {}
    for entry in entries:
        key = entry.key
        earlier = winners.get(key)
        if earlier is not None:
            shadowed.setdefault(key, []).append(earlier)
        winners[key] = entry
    return {key: EffectiveOption(entry, tuple(shadowed.get(key, ()))) for key, entry in winners.items()}
