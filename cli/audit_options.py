"""The options of `innotune audit`, as data: click's command is built from this table, and the console
script reads a plain command line with it directly, without importing click.

Importing click and building its command costs more than the audit itself (~45 M instructions of a
~400 M start), so `innotune audit ...` parses here when every argument is an option of this table
with a valid value. Anything else — `--help`, an unknown option, a stray argument, a bad number or
choice, a directory given as a file, `--output-dir`, shell completion — returns None and click runs
the command instead, so click's usage and error messages stay the only ones.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from advisor.model import Profile, Role

FORMATS = ("text", "json", "diff", "mycnf", "dropin")
STORAGE = ("hdd", "ssd", "nvme", "network")


class AuditOption(NamedTuple):
    """One option: its flag, the parameter it fills, and what it accepts."""

    flag: str
    dest: str
    help: str | None
    #: "file" (a path, not a directory), "folder" (a path, not a file), "int" or "text"
    kind: str = "text"
    multiple: bool = False
    choices: tuple[str, ...] = ()
    default: str | None = None


OPTIONS: tuple[AuditOption, ...] = (
    AuditOption("--mycnf", "mycnf", "An option file (repeatable).", "file", multiple=True),
    AuditOption("--variables", "variables", "SHOW GLOBAL VARIABLES output.", "file"),
    AuditOption("--status", "status", "SHOW GLOBAL STATUS (once or twice).", "file", multiple=True),
    AuditOption("--innodb-status", "innodb_status", "SHOW ENGINE INNODB STATUS output.", "file"),
    AuditOption("--schema", "schema", "Schema facts (JSON or the documented TSV).", "file"),
    AuditOption("--hardware", "hardware", "Hardware spec as JSON.", "file"),
    AuditOption(
        "--persisted",
        "persisted",
        "MySQL 8.0+: performance_schema.persisted_variables, or the datadir's mysqld-auto.cnf (SET PERSIST).",
        "file",
    ),
    AuditOption(
        "--memory", "memory", "Memory, e.g. 64G (replaces that field of --hardware; so do the next three)."
    ),
    AuditOption("--memory-limit", "memory_limit", "Container memory limit, e.g. 16G."),
    AuditOption("--cpus", "cpus", "CPU cores.", "int"),
    AuditOption("--storage", "storage", "Storage type.", choices=STORAGE),
    AuditOption(
        "--server-version", "server_version", "e.g. 8.0.36 or 10.11.6-MariaDB (default: from --variables)."
    ),
    AuditOption(
        "--role",
        "role",
        "The server's place in replication (default: the role in --manifest, else standalone).",
        choices=tuple(role.value for role in Role),
    ),
    AuditOption(
        "--manifest",
        "manifest",
        "manifest.json of `innotune collect`: the server's detected role, unless --role is given.",
        "file",
    ),
    AuditOption(
        "--profile",
        "profile",
        None,
        choices=tuple(item.value for item in Profile),
        default=Profile.PRODUCTION.value,
    ),
    AuditOption(
        "--format",
        "output_format",
        "mycnf: the recommended files; dropin: one override file read after yours.",
        choices=FORMATS,
        default="text",
    ),
    AuditOption(
        "--output-dir",
        "output_dir",
        "With --format mycnf: write every recommended file under this folder, with its path.",
        "folder",
    ),
)

_BY_FLAG = {option.flag: option for option in OPTIONS}
#: click handles these itself: its shell completion, and writing files (an error may come midway).
_CLICK_ONLY = {"--output-dir"}


def _convert(option: AuditOption, value: str) -> object:
    """The value as click would pass it, or None where click would refuse it (click then says why)."""
    if option.choices:
        return value if value in option.choices else None
    if option.kind == "int":
        try:
            return int(value)
        except ValueError:
            return None
    if option.kind == "file" and os.path.isdir(value):
        return None
    return value


def parse_plain(argv: list[str]) -> dict[str, object] | None:
    """The parameters of a plain `innotune audit` command line, or None when click must read it."""
    if "_INNOTUNE_COMPLETE" in os.environ:
        return None
    values: dict[str, object] = {option.dest: option.default for option in OPTIONS if not option.multiple}
    many: dict[str, list[object]] = {option.dest: [] for option in OPTIONS if option.multiple}
    position = 0
    while position < len(argv):
        flag, equals, value = argv[position].partition("=")
        option = _BY_FLAG.get(flag)
        if option is None or flag in _CLICK_ONLY:
            return None
        if not equals:
            position += 1
            if position == len(argv):
                return None
            value = argv[position]
        converted = _convert(option, value)
        if converted is None:
            return None
        if option.multiple:
            many[option.dest].append(converted)
        else:
            values[option.dest] = converted
        position += 1
    return {**values, **{dest: tuple(items) for dest, items in many.items()}}
