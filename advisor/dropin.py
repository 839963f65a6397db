"""A drop-in alternative to editing the user's files: one override file, read after them, holding every
setting the audit changes — for DBAs who never edit a vendor's `my.cnf`.

Where it goes: into the folder of the `!includedir` the server finishes reading last
(`conf.d/zz-innotune.cnf`: the server reads a directory's `.cnf` files in name order, so `zz-` comes
last there — with more `z`s when an uploaded file of that directory would sort after it, such as a
`zzz-local.cnf`). That is the folder whose files are read last overall, not the last `!includedir` line
read: a `mariadb.conf.d/10-nest.cnf` holding `!includedir extra.d/` is followed by the rest of
mariadb.conf.d, so the drop-in goes after `mariadb.conf.d/~override.cnf`, not into extra.d. Without an
`!includedir`, beside the main file as `innotune.cnf`, with the `!include` line to append to the main
file (appended at its end, it is read last). That line always names an absolute path: mariadbd reads a
relative `!include` from its own working directory (`/` under systemd), not from the including file's
folder, and skips a missing file without a word (10.11.19, `--print-defaults` from `/`). When the main
file was uploaded by a relative path its folder on the server is not known, so no line is given:
`include_note` says what to write instead.

The directory's files are the ones include resolution (`optionincludes`) matched to that `!includedir`,
so relative uploads (`etc/mysql/conf.d/zzz-local.cnf` under `!includedir /etc/mysql/conf.d/`) count,
and files the server passes over (`x.cnf.bak`, `old/y.cnf`) do not.

What it cannot do is said beside it: a line that must go (a refused or removed option) stays in force
however late the drop-in is read, and a setting read after the drop-in's overrides it (a line of the
main file after its `!includedir`, a file `!include`d after it, an upload nobody includes, read after
the main file, a value MySQL 8.0+ persisted in mysqld-auto.cnf). Those are listed as `cannot_fix`: the
uploads are read again with the drop-in installed.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from msgspec import Struct

from advisor.catalog import normalize_name
from advisor.differ import note, spelling
from advisor.inputs.optionfiles import OptionFileSet, parse_option_file
from advisor.inputs.optionincludes import directory_read, is_absolute, last_directory_read, normpath
from advisor.inputs.optionsyntax import encode_value
from advisor.redact import is_secret_option

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.findings import Finding

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
    #: Why no `include_line` can be given though one is needed (the main file's folder on the server is
    #: not known), and what to write instead; None otherwise.
    include_note: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "text": self.text,
            "include_line": self.include_line,
            "include_into": self.include_into,
            "cannot_fix": list(self.cannot_fix),
            "include_note": self.include_note,
        }


class _Placement(Struct, frozen=True):
    """Where the drop-in goes, and how the audit finds out what would override it there."""

    #: Where to install it (the `!includedir` folder as the line names it, or beside the main file).
    path: str
    #: The `!include` line to add to the main file (None: an `!includedir` already reads it, or the
    #: main file's folder is not known and `include_note` says so).
    include_line: str | None
    #: The same file among the uploads, named so include resolution lists it with its uploaded siblings
    #: (their folder spelling when they are given relative); None without an `!includedir`.
    upload_path: str | None
    include_note: str | None = None


def _placement(options: OptionFileSet | None) -> _Placement:
    """Into the folder of the `!includedir` read last, after every file of that folder; else beside the
    main file."""
    if options is None or not options.files:
        return _Placement(BESIDE_NAME, None, None, _NO_MAIN_NOTE)
    chosen = last_directory_read(options.files)
    if chosen is not None:
        # The folder and its files exactly as include resolution matched them (a relative upload
        # `etc/mysql/conf.d/zzz-local.cnf` is read by `!includedir /etc/mysql/conf.d/`), so the name
        # sorts after every file the server reads there and after nothing else (`x.cnf.bak`, `old/y.cnf`).
        folder, siblings = directory_read(options.files, chosen)
        name = _last_name(siblings)
        beside = posixpath.dirname(normpath(siblings[-1])) if siblings else folder
        return _Placement(posixpath.join(folder, name), None, posixpath.join(beside, name))
    main = next(iter(options.files))
    path = posixpath.join(posixpath.dirname(normpath(main)), BESIDE_NAME)
    if not is_absolute(main):
        return _Placement(path, None, None, _relative_note(main))
    return _Placement(path, f"!include {path}", None)


_NO_MAIN_NOTE: Final = (
    f"no option file was given, so no `!include` line can be given: audit again with the server's main "
    f"option file under its absolute path (`--mycnf /etc/mysql/my.cnf`, say), or install {BESIDE_NAME} "
    f"beside it and append `!include ` followed by {BESIDE_NAME}'s absolute path to it. Never a "
    f"relative path: the server looks a relative `!include` up from its own working directory (`/` "
    f"under systemd) and skips it without a word"
)


def _relative_note(main: str) -> str:
    return (
        f"{main} was given by a relative path, so its folder on the server is not known and no `!include` "
        f"line can be given: audit again with {main}'s absolute path (`--mycnf /etc/mysql/my.cnf`, say), "
        f"or install {BESIDE_NAME} beside {main} and append `!include ` followed by {BESIDE_NAME}'s "
        f"absolute path to {main}. Never a relative path: the server looks a relative `!include` up from "
        f"its own working directory (`/` under systemd), not from {main}'s folder, and skips it without "
        f"a word"
    )


def _last_name(siblings: Sequence[str]) -> str:
    """`zz-innotune.cnf`, or a name that sorts after every file the server reads from the folder: it reads
    them in name order (byte order), and the last one read wins — a user's `zzz-local.cnf` beside ours
    would override every line of it. `zzzz-innotune.cnf` after a few `z`s; past a name no run of `z`s
    passes (`~local.cnf`), that name's stem with `~innotune.cnf`, which sorts after it (`~` is above the
    `.` it replaces, and the rest of the name is the same up to there)."""
    if not siblings:
        return DROPIN_NAME
    last = max(posixpath.basename(normpath(path)).encode("utf-8", "surrogateescape") for path in siblings)
    for zeds in range(4):
        name = "z" * zeds + DROPIN_NAME
        if name.encode() > last:
            return name
    stem = last.rpartition(b".")[0]  # `.cnf`, or `.ini` in a Windows folder
    return stem.decode("utf-8", "surrogateescape") + "~innotune.cnf"


def _overriding(ctx: AuditContext, upload_path: str | None, text: str) -> dict[str, str]:
    """Name → `file:line` of the setting read after the drop-in's own line for it (so it wins): the uploads
    read again with the drop-in installed, through the same include resolution as the audit — a later
    line of the file holding the `!includedir`, a file `!include`d after it, a file of the folder or of
    an enclosing `!includedir` read after it."""
    if upload_path is None or ctx.options is None:
        return {}
    installed = OptionFileSet({**ctx.options.files, upload_path: parse_option_file(text, upload_path)})
    found = {}
    for name, winner in installed.effective(ctx.groups_read).items():
        if winner.entry.file != upload_path and any(e.file == upload_path for e in winner.shadowed):
            found[name] = f"{winner.entry.file}:{winner.entry.line}"
    return found


def render_dropin(ctx: AuditContext, findings: Sequence[Finding]) -> DropIn | None:
    """The override file for these findings; None when no finding changes anything."""
    place = _placement(ctx.options)
    sections: dict[str, list[str]] = {}
    #: In finding order: a removal to do by hand, or (name, spelling) of a setting to check once the
    #: drop-in's text is known (what overrides it is found by reading the uploads with it installed).
    notes: list[str | tuple[str, str]] = []
    for finding in findings:
        if finding.change == "comment_out" and finding.option_file is not None:
            where = f"{finding.option_file}:{finding.option_line}"
            notes.append(f"{where} must be commented out in the file itself ({note(finding)})")
        if finding.change != "set" or not finding.variable or finding.recommended is None:
            continue
        if is_secret_option(finding.variable):
            continue  # never written by us (advisor.secret_findings)
        spelled, group = spelling(ctx, normalize_name(finding.variable))
        sections.setdefault(group, []).extend(
            [f"# {note(finding)}", f"{spelled} = {encode_value(finding.recommended)}"]
        )
        notes.append((normalize_name(finding.variable), spelled))
    if not sections and not any(isinstance(item, str) for item in notes):
        return None
    lines = ["# Written by InnoTune: the settings this audit changes, read after your own files.", ""]
    for group, body in sections.items():
        lines.extend([f"[{group}]", *body, ""])
    later = _overriding(ctx, place.upload_path, "".join(f"{line}\n" for line in lines))
    cannot_fix: list[str] = []
    for item in notes:
        if isinstance(item, str):
            cannot_fix.append(item)
        elif item[0] in later:
            cannot_fix.append(
                f"{later[item[0]]} sets {item[1]} after the drop-in is read: change or remove it there"
            )
        elif (persisted := _persisted(ctx, item[0])) is not None:
            cannot_fix.append(
                f"mysqld-auto.cnf persists {item[1]} = {persisted} (SET PERSIST), read after every option "
                "file: run the finding's SQL (SET PERSIST, or RESET PERSIST before the restart)"
            )
    if cannot_fix:
        lines.append("# Not done by this file (edit the files themselves):")
        lines.extend(f"#   {item}" for item in cannot_fix)
    text = "".join(f"{line}\n" for line in lines)
    main = next(iter(ctx.options.files), None) if ctx.options is not None else None
    include_into = main if place.include_line or place.include_note else None
    return DropIn(place.path, text, place.include_line, include_into, tuple(cannot_fix), place.include_note)


def _persisted(ctx: AuditContext, name: str) -> str | None:
    setting = ctx.config.get(name)
    return setting.persisted_value if setting is not None else None
