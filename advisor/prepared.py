"""Dumps parsed once, kept in a prepared form: what a re-audit reads instead of parsing the texts again.

A fleet re-audit runs the advisor over snapshots it already parsed at upload; parsing their
SHOW VARIABLES/STATUS, InnoDB status and schema texts again was a third of an audit's time. The
parsed structures are encoded with msgpack behind a fingerprint of the parser's own source: a
prepared form written by another parser (any change under advisor/inputs/) reads as absent, and the
caller parses the texts as before — a prepared form can be stale, never wrong.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Protocol

import msgspec

from advisor.inputs.statusvars import StatusSample, VariablesDump, parse_status, parse_variables

if (
    TYPE_CHECKING
):  # imported when a prepared form is read or written: the CLI given no InnoDB status never needs them
    from pathlib import Path  # (pathlib takes ~3 ms to import: not on the CLI's path)

    from advisor.inputs.innodb_status import InnodbStatus
    from advisor.inputs.schema_facts import SchemaFacts

_FINGERPRINT_BYTES = 16
#: the modules whose code decides what a parse yields and how it is laid out, with every advisor
#: module they import (advisor.patterns, advisor.units, …), found by reading their imports
_PARSER_SOURCES = ("inputs/*.py", "prepared.py")
#: `from advisor.x import a, b` / `from advisor.x import (a, b)` / `import advisor.x` (reading imports with
#: a pattern: parsing two dozen modules with `ast` took ~90 ms, the first upload of every process)
_IMPORT_RE = re.compile(r"^\s*(?:from|import)\s+(advisor(?:\.\w+)*)(?:\s+import\s+(\([^)]*\)|[^\n]*))?", re.M)
_NAME_RE = re.compile(r"\b(\w+)\b(?:\s+as\s+\w+)?")


class PreparedDumps(msgspec.Struct, frozen=True, array_like=True):
    """The parsed dumps of one snapshot (status samples in upload order, before the window is built)."""

    variables: VariablesDump | None
    status: tuple[StatusSample, ...]
    innodb: InnodbStatus | None
    schema: SchemaFacts | None


class DumpTexts(Protocol):
    """The dump texts of an audit's inputs (advisor.model.AuditInputs has them; not imported here, so that
    the fingerprint covers the parsing, not the whole model)."""

    @property
    def variables(self) -> str | None: ...
    @property
    def variables_name(self) -> str: ...
    @property
    def status(self) -> tuple[str, ...]: ...
    @property
    def status_names(self) -> tuple[str, ...]: ...
    @property
    def innodb_status(self) -> str | None: ...
    @property
    def innodb_status_name(self) -> str: ...
    @property
    def schema(self) -> str | None: ...
    @property
    def schema_name(self) -> str: ...


def parse_dumps(texts: DumpTexts) -> PreparedDumps:
    """Parse the dump texts; the first bad one raises InputError naming its file and line. Here, not in
    the engine: how texts pair with names and in what order samples come is part of what is prepared."""
    # An empty file given is an error naming it, not a dump left out.
    given = texts.variables is not None
    variables = parse_variables(texts.variables or "", texts.variables_name) if given else None
    names = texts.status_names or tuple(f"status{i + 1}" for i in range(len(texts.status)))
    samples = tuple(
        sample for text, name in zip(texts.status, names, strict=False) for sample in parse_status(text, name)
    )
    return PreparedDumps(variables, samples, _innodb_status(texts), _schema(texts))


def _innodb_status(texts: DumpTexts) -> InnodbStatus | None:
    """The InnoDB status, its parser (some thirty patterns to compile) imported only when one is given."""
    if not texts.innodb_status:
        return None
    from advisor.inputs.innodb_status import parse_innodb_status

    return parse_innodb_status(texts.innodb_status, texts.innodb_status_name)


def _schema(texts: DumpTexts) -> SchemaFacts | None:
    """Schema facts, their readers imported only when some are given."""
    if not texts.schema:
        return None
    from advisor.inputs.schema import parse_schema

    return parse_schema(texts.schema, texts.schema_name)


@cache
def _decoder() -> msgspec.msgpack.Decoder[PreparedDumps]:
    """msgspec resolves the field types from this module's names when the decoder is built."""
    from advisor.inputs.innodb_status import InnodbStatus
    from advisor.inputs.schema_facts import SchemaFacts

    globals().update(InnodbStatus=InnodbStatus, SchemaFacts=SchemaFacts)
    return msgspec.msgpack.Decoder(PreparedDumps)


def _advisor_imports(source: str, root: Path) -> set[Path]:
    """The files of the `advisor.*` modules a source imports, at any level (lazy imports too)."""
    found: set[Path] = set()
    for module, names in _IMPORT_RE.findall(source):
        for name in (module, *(f"{module}.{item}" for item in _NAME_RE.findall(names))):
            module_path = root.joinpath(*name.split(".")[1:])
            found.update((module_path.with_name(f"{module_path.name}.py"), module_path / "__init__.py"))
    return {path for path in found if path.is_file()}


def parser_sources() -> list[Path]:
    """The parser's modules and every advisor module they import, transitively."""
    from pathlib import Path

    root = Path(__file__).parent
    pending = [path for pattern in _PARSER_SOURCES for path in root.glob(pattern)]
    seen: set[Path] = set()
    while pending:
        path = pending.pop()
        if path not in seen:
            seen.add(path)
            pending.extend(_advisor_imports(path.read_text(), root) - seen)
    return sorted(seen)


@cache
def parser_fingerprint() -> bytes:
    """A digest of the parser's source files, read once per process."""
    import hashlib
    from pathlib import Path

    root = Path(__file__).parent
    digest = hashlib.sha256()
    for path in parser_sources():
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.digest()[:_FINGERPRINT_BYTES]


def prepare(dumps: PreparedDumps) -> bytes:
    """The prepared form of parsed dumps: fingerprint, then msgpack; empty when msgpack cannot hold them
    (an integer beyond 64 bits: two numbers of a paste run together) — the texts are parsed instead."""
    try:
        return parser_fingerprint() + msgspec.msgpack.encode(dumps)
    except OverflowError:
        return b""


def is_current(blob: bytes) -> bool:
    """Whether this parser wrote the prepared form."""
    return blob[:_FINGERPRINT_BYTES] == parser_fingerprint()


def read_prepared(blob: bytes | None) -> PreparedDumps | None:
    """The dumps of a prepared form; None when absent, written by another parser, or unreadable."""
    if not blob or not is_current(blob):
        return None
    try:
        return _decoder().decode(blob[_FINGERPRINT_BYTES:])
    except msgspec.DecodeError:
        return None
