"""One pass over an option file's lines: groups, options and includes, read with the server's rules.

This is the hot path of every audit (a 100-line my.cnf is read in a few tens of microseconds), so the
common line kinds — blank, comment, plain `name = value` — are handled inline in one loop with local
names; group headers, directives and anything unusual go to helper functions.
"""

from __future__ import annotations

import re
from typing import Final

from msgspec import Struct

from advisor.errors import InputError, InputWarning
from advisor.inputs.optionnames import name_cache, prefixed_value, split_option_name
from advisor.inputs.optionsyntax import WHITESPACE, cut_comment, decode_value, quote_of
from advisor.patterns import lazy

_BINARY_RE: Final = lazy(r"[\x00-\x08\x0e-\x1f\x7f\ufffd\ud800-\udfff]")
# Template markup (Jinja2, ERB/EPP, shell/Compose) and CMake/autoconf build placeholders.
TEMPLATE_RE: Final = lazy(r"\{\{|\{%|\{#|<%|%>|\$\{[A-Za-z_]")
PLACEHOLDER_RE: Final = lazy(r"@[A-Za-z_][A-Za-z0-9_]{2,}@")
# NDB Cluster config.ini default sections (MySQL Cluster manual, "NDB Cluster Configuration Files").
_NDB_GROUP_RE: Final = lazy(r"(ndbd|ndb_mgmd|mysqld|api|tcp|shm|sci) default\Z", re.I)


class OptionEntry(Struct, frozen=True):
    """One option line as the server reads it.

    `name` is normalised (lower case, dashes → underscores, prefixes removed); `value` is the value
    unquoted and unescaped, None for a bare key (a bare boolean flag means ON); `skip-x`/`disable-x`
    give value "OFF" and `enable-x` gives "ON" (given exactly `0`, the other way round: optionnames.prefixed_value). `prefix` is the server prefix that was stripped
    (`skip`, `disable`, `enable`, `maximum`, `autoset`) and `loose` says whether `loose-` was present.
    `maximum-x` entries keep name `x` and prefix `maximum`: they do not set `x` itself.
    `given` is the value as written (unquoted, unescaped; None when bare), before a prefix replaced it.
    """

    file: str
    line: int
    group: str
    raw_name: str
    name: str
    value: str | None
    prefix: str | None = None
    loose: bool = False
    given: str | None = None

    @property
    def key(self) -> str:
        """What the entry sets: its name, or `maximum_<name>` for a `maximum-` limit."""
        return f"maximum_{self.name}" if self.prefix == "maximum" else self.name


#: A Struct's `__init__` is C code: no faster constructor is needed for the many option lines.
new_entry: Final = OptionEntry


class Include(Struct, frozen=True):
    """An `!include` (`directory=False`) or `!includedir` line."""

    file: str
    line: int
    target: str
    directory: bool


class Scan(Struct, frozen=True):
    """What one pass over a file found."""

    entries: tuple[OptionEntry, ...]
    #: (line, group) for each group header, in file order.
    headers: tuple[tuple[int, str], ...]
    includes: tuple[Include, ...]
    warnings: tuple[InputWarning, ...]


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


# Bytes of an everyday option file. What is left after deleting them (one C-speed pass) tells whether
# the slower checks are needed: control bytes (binary), `{ < % $ @` (template markup), non-ASCII.
_ORDINARY: Final = bytes(range(0x20, 0x7F)).translate(None, b"{<%$@") + b"\t\n\r\v\f"
_CONTROL: Final = frozenset(range(0x20)) - frozenset(b"\t\n\r\v\f") | {0x7F}


def _binary_error(text: str, path: str) -> InputError:
    found = _BINARY_RE().search(text)
    line = _line_of(text, found.start()) if found is not None else 1
    if found is not None and found.group() == "\ufffd" and _CONTROL.isdisjoint(text.encode(errors="ignore")):
        # Text in another 8-bit encoding: its comments were read (advisor.inputs.upload_text), not this line.
        return InputError(
            "bytes that are not UTF-8 in an option line (a file saved as Latin-1 or Windows-1252?): the "
            "server would read them as they are, but we cannot write them back faithfully; save the file "
            "as UTF-8",
            file=path,
            line=line,
        )
    return InputError(
        "binary or undecodable content (control byte or invalid UTF-8): not a text option file "
        "(an encrypted .mylogin.cnf cannot be read)",
        file=path,
        line=line,
    )


def check_text(text: str, path: str) -> bool:
    """Refuse binary or undecodable content, naming the line of the first bad character; return
    whether the text may hold template markup (for `scan`)."""
    try:
        unusual = text.encode().translate(None, _ORDINARY)
    except UnicodeEncodeError as error:  # lone surrogates: bytes that were not UTF-8
        raise _binary_error(text, path) from error
    if not unusual:
        return False
    if not _CONTROL.isdisjoint(unusual) or (not text.isascii() and "\ufffd" in text):
        raise _binary_error(text, path)
    braces = b"{" in unusual or (b"<" in unusual and b"%" in unusual)
    if braces and TEMPLATE_RE().search(text) is not None:
        return True
    return b"@" in unusual and PLACEHOLDER_RE().search(text) is not None


def _template_error(stripped: str, path: str, number: int) -> InputError | None:
    body = cut_comment(stripped)  # markup inside an inline comment is only a comment
    found = TEMPLATE_RE().search(body)
    if found is None:
        value = body.partition("=")[2].strip(WHITESPACE)
        found = None if quote_of(value) else PLACEHOLDER_RE().search(body)
    if found is None:
        return None
    return InputError(
        f"template placeholder {found.group(0)!r}: this is a template, not an option file the server "
        "reads; upload the rendered file",
        file=path,
        line=number,
    )


class _State:
    """The rarely-changing part of the scan, handled outside the hot loop."""

    def __init__(self, path: str, strict: bool) -> None:
        self.path = path
        self.strict = strict
        self.headers: list[tuple[int, str]] = []
        self.includes: list[Include] = []
        self.warnings: list[InputWarning] = []

    def warn(self, message: str, number: int) -> None:
        self.warnings.append(InputWarning(message, self.path, number))

    def header(self, stripped: str, number: int) -> str | None:
        """The group a `[...]` line opens (lower case), or None when it is broken (lenient mode)."""
        end = stripped.find("]")
        if end < 0:
            if self.strict:
                raise InputError(
                    f"group header without a closing ']': {stripped[:60]!r}", file=self.path, line=number
                )
            self.warn(f"group header without a closing ']' is not read: {stripped[:60]!r}", number)
            return None
        group = stripped[1:end].rstrip(WHITESPACE).lower()
        if self.strict and _NDB_GROUP_RE().match(group):
            raise InputError(
                f"[{group}] is an NDB Cluster section: this is a cluster config.ini, not a server option file",
                file=self.path,
                line=number,
            )
        rest = stripped[end + 1 :].lstrip(WHITESPACE)
        if rest and rest[0] not in "#;":
            self.warn(f"text after [{group}] is ignored by the server: {rest[:40]!r}", number)
        self.headers.append((number, group))
        return group

    def directive(self, stripped: str, number: int) -> None:
        """`!include path`, `!includedir dir`; any other `!` line is ignored by the server."""
        word = stripped[1:].lstrip(WHITESPACE)
        for keyword, directory in (("includedir", True), ("include", False)):
            size = len(keyword)
            if word.startswith(keyword) and (len(word) == size or word[size] in WHITESPACE):
                target = word[size:].strip(WHITESPACE)
                if target:
                    self.includes.append(Include(self.path, number, target, directory))
                elif self.strict:
                    raise InputError(f"!{keyword} without a path", file=self.path, line=number)
                return
        self.warn(f"unknown directive {stripped[:40]!r} is ignored by the server", number)

    def orphan(self, stripped: str, number: int) -> None:
        """An option before any group: the server refuses the file."""
        if self.strict:
            flags = stripped.lstrip("\"'").startswith("--")
            hint = " (these look like command-line flags, as in a mysqld .opt file)" if flags else ""
            raise InputError(
                f"option before any [group]: the server refuses this file{hint}", file=self.path, line=number
            )

    def not_an_option(self, stripped: str, number: int) -> None:
        if self.strict:
            raise InputError(
                f"not an option, group, comment or directive: {stripped[:60]!r}", file=self.path, line=number
            )
        self.warn(f"not an option line: {stripped[:60]!r}", number)


def scan(path: str, lines: list[str], strict: bool, markup: bool) -> Scan:
    """Read `lines` (the file split on LF) as the server does; see `optionfiles` for the policies.

    `markup`: `check_text` saw template markup somewhere (it is refused on non-comment lines).
    """
    state = _State(path, strict)
    markup = markup and strict
    entries: list[OptionEntry] = []
    append = entries.append
    cached = name_cache.get
    whitespace = WHITESPACE
    group: str | None = None
    number = 0
    for raw in lines:
        number += 1
        stripped = raw.strip(whitespace)
        if not stripped:
            continue
        first = stripped[0]
        if first == "#" or first == ";":
            continue
        if markup:
            problem = _template_error(stripped, path, number)
            if problem is not None:
                raise problem
        if first == "[":
            opened = state.header(stripped, number)
            if opened is not None:
                group = opened
            continue
        if first == "!":
            state.directive(stripped, number)
            continue
        if group is None:
            state.orphan(stripped, number)
            current = ""
        else:
            current = group
        body = cut_comment(stripped) if "#" in stripped else stripped
        raw_name, equals, given = body.partition("=")
        if equals:
            raw_name = raw_name.rstrip(whitespace)
            given = given.strip(whitespace)
            if "\\" in given or "'" in given or '"' in given:
                given = decode_value(given)
            value: str | None = given
        else:
            raw_name = raw_name.rstrip(whitespace)
            value = None
        parts = cached(raw_name) or split_option_name(raw_name)
        if parts is None:
            state.not_an_option(stripped, number)
            continue
        name, prefix, loose = parts
        if prefix is None:
            append(new_entry(path, number, current, raw_name, name, value, None, loose, value))
        else:
            chosen = prefixed_value(prefix, value)
            append(new_entry(path, number, current, raw_name, name, chosen, prefix, loose, value))
    return Scan(tuple(entries), tuple(state.headers), tuple(state.includes), tuple(state.warnings))
