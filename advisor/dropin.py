"""A drop-in alternative to editing the user's files: one override file, read after them, holding every
setting the audit changes — for DBAs who never edit a vendor's `my.cnf`.

Where it goes: into the directory of the last `!includedir` the server reads (`conf.d/zz-innotune.cnf`:
the server reads a directory's `.cnf` files in name order, so `zz-` comes last there — with more `z`s
when an uploaded file of that directory would sort after it, such as a `zzz-local.cnf`). Without an
`!includedir`, beside the main file as `innotune.cnf`, with the `!include` line to append to the main
file (appended at its end, it is read last).

What it cannot do is said beside it: a line that must go (a refused or removed option) stays in force
however late the drop-in is read, and a setting written in the main file after its `!includedir` line
overrides the drop-in. Those are listed as `cannot_fix`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from msgspec import Struct

from advisor.catalog import normalize_name
from advisor.differ import note, spelling
from advisor.inputs.optionincludes import read_after
from advisor.inputs.optionsyntax import encode_value
from advisor.redact import is_secret_option

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.findings import Finding
    from advisor.inputs.optionfiles import OptionFileSet

DROPIN_NAME: Final = "zz-innotune.cnf"
BESIDE_NAME: Final = "innotune.cnf"


class DropIn(Struct, frozen=True):
    """The override file, and what the user must do besides installing it."""

    path: str
    text: str
    #: The line to append to `include_into` so the server reads the drop-in (None: already read).
    include_line: str | None
    include_into: str | None
    #: Plain words per change the drop-in cannot make (removals, later lines that override it).
    cannot_fix: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "text": self.text,
            "include_line": self.include_line,
            "include_into": self.include_into,
            "cannot_fix": list(self.cannot_fix),
        }


def _placement(options: OptionFileSet | None) -> tuple[str, str | None, tuple[str, int] | None]:
    """(drop-in path, `!include` line to add or None, (file, line) of the `!includedir` that reads it)."""
    if options is None or not options.files:
        return BESIDE_NAME, f"!include {BESIDE_NAME}", None
    chosen = None
    for path in options.paths_read:
        for include in options.files[path].includes:
            if include.directory:
                chosen = include
    if chosen is not None:
        folder = chosen.target.replace("\\", "/")
        if not folder.startswith("/"):
            folder = posixpath.join(posixpath.dirname(chosen.file), folder)
        folder = posixpath.normpath(folder)
        return posixpath.join(folder, _last_name(options, folder)), None, (chosen.file, chosen.line)
    main = next(iter(options.files))
    path = posixpath.join(posixpath.dirname(main), BESIDE_NAME)
    return path, f"!include {path}", None


def _last_name(options: OptionFileSet, folder: str) -> str:
    """`zz-innotune.cnf`, or a name that sorts after every uploaded `.cnf` file of the folder: the server
    reads a directory's `.cnf` files in name order (byte order), and the last one read wins — a user's
    `zzz-local.cnf` beside ours would override every line of it. `zzzz-innotune.cnf` after a few `z`s;
    past a name no run of `z`s passes (`~local.cnf`), that name's stem with `~innotune.cnf`, which sorts
    after it (`~` is above the `.` it replaces, and the rest of the name is the same up to there)."""
    siblings = sorted(
        posixpath.basename(path).encode("utf-8", "surrogateescape")
        for path in options.files
        if path.endswith(".cnf") and posixpath.dirname(posixpath.normpath(path.replace("\\", "/"))) == folder
    )
    if not siblings:
        return DROPIN_NAME
    last = siblings[-1]
    for zeds in range(4):
        name = "z" * zeds + DROPIN_NAME
        if name.encode() > last:
            return name
    return last[: -len(b".cnf")].decode("utf-8", "surrogateescape") + "~innotune.cnf"


def _overridden(ctx: AuditContext, name: str, reader: tuple[str, int] | None) -> str | None:
    """`file:line` of a setting of `name` read after the drop-in (so it wins), if any."""
    if reader is None or ctx.options is None:
        return None
    winner = ctx.options.effective(ctx.groups_read).get(name)
    if winner is None:
        return None
    entry = winner.entry
    if entry.file == reader[0] and entry.line > reader[1]:
        return f"{entry.file}:{entry.line}"
    if entry.file in read_after(ctx.options.files, *reader):  # an `!include` after the `!includedir`
        return f"{entry.file}:{entry.line}"
    return None


def render_dropin(ctx: AuditContext, findings: Sequence[Finding]) -> DropIn | None:
    """The override file for these findings; None when no finding changes anything."""
    path, include_line, reader = _placement(ctx.options)
    sections: dict[str, list[str]] = {}
    cannot_fix: list[str] = []
    for finding in findings:
        if finding.change == "comment_out" and finding.option_file is not None:
            where = f"{finding.option_file}:{finding.option_line}"
            cannot_fix.append(f"{where} must be commented out in the file itself ({note(finding)})")
        if finding.change != "set" or not finding.variable or finding.recommended is None:
            continue
        if is_secret_option(finding.variable):
            continue  # never written by us (advisor.secret_findings)
        spelled, group = spelling(ctx, normalize_name(finding.variable))
        sections.setdefault(group, []).extend(
            [f"# {note(finding)}", f"{spelled} = {encode_value(finding.recommended)}"]
        )
        later = _overridden(ctx, normalize_name(finding.variable), reader)
        if later is not None:
            cannot_fix.append(f"{later} sets {spelled} after the drop-in is read: change or remove it there")
    if not sections and not cannot_fix:
        return None
    lines = ["# Written by InnoTune: the settings this audit changes, read after your own files.", ""]
    for group, body in sections.items():
        lines.extend([f"[{group}]", *body, ""])
    if cannot_fix:
        lines.append("# Not done by this file (edit the files themselves):")
        lines.extend(f"#   {item}" for item in cannot_fix)
    text = "".join(f"{line}\n" for line in lines)
    main = next(iter(ctx.options.files), None) if ctx.options is not None else None
    return DropIn(path, text, include_line, main if include_line else None, tuple(cannot_fix))
