"""Encryption at startup: settings that need keys while no key management plugin starts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.advisors.startup.lines import comment_out, written
from advisor.derived.engines import (
    KEY_PLUGINS,
    dropped_by,
    file_plugins,
    innodb_stays_off,
    key_plugin_loaded,
)
from advisor.derived.replication import binlog_enabled
from advisor.findings import Severity
from advisor.references import MARIADB_INNODB_VARIABLES
from advisor.rules import Proposal, mariadb_only, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.optionfiles import OptionEntry

MARIADB_ENCRYPTION_KEYS = "https://mariadb.com/kb/en/encryption-key-management/"
# Settings that need keys at startup; mariadbd 10.11.19 without a key plugin: "InnoDB: cannot enable
# encryption, encryption plugin is not available" (the first three, ON and FORCE alike), "Failed to enable
# encryption of temporary files" (the last). encrypt_binlog with log_bin on: "Failed to enable encryption
# of binary logs", Aborting; without log_bin it starts. aria_encrypt_tables and encrypt_tmp_disk_tables
# start without keys.
_NEED_KEYS: Final = (
    "innodb_encrypt_tables", "innodb_encrypt_log", "innodb_encrypt_temporary_tables", "encrypt_tmp_files",
    "encrypt_binlog",
)  # fmt: skip
_OFF_WORDS: Final = frozenset({"off", "0", "false", "no"})


@rule(
    "startup.encryption_without_keys",
    Severity.CRITICAL,
    [MARIADB_ENCRYPTION_KEYS, f"{MARIADB_INNODB_VARIABLES}#innodb_encrypt_tables"],
    versions=mariadb_only(),
)
def encryption_without_keys(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: innodb_encrypt_tables (ON or FORCE), innodb_encrypt_log,
    innodb_encrypt_temporary_tables, encrypt_tmp_files, or encrypt_binlog with the binary log on, turned on
    while no option file starts a key management plugin (file_key_management with its
    file_key_management_filename, hashicorp_key_management, aws_key_management).

    Why it matters: encryption needs keys at startup. mariadbd 10.11.19 says "InnoDB: cannot enable
    encryption, encryption plugin is not available", InnoDB fails to register and the server aborts
    ("Unknown/unsupported storage engine: InnoDB"); encrypt_tmp_files stops it with "Failed to enable
    encryption of temporary files", encrypt_binlog with log_bin with "Failed to enable encryption of binary
    logs". file_key_management without its key file says "file-key-management-filename is not set".

    What we recommend: comment the line out, or load and configure a key management plugin
    (`plugin_load_add = file_key_management` with `file_key_management_filename`) and keep the line.

    Caveats: MariaDB only. A key plugin loaded but switched OFF, or dropped from the list by a later
    plugin_load or skip-plugin-load line (named in the finding), gives no keys; one installed with INSTALL
    SONAME comes too late (InnoDB starts first). A server that runs without InnoDB (see
    startup.innodb_disabled) starts with the InnoDB ones. encrypt_binlog without log_bin,
    aria_encrypt_tables and encrypt_tmp_disk_tables start without keys and are left alone.
    """
    if key_plugin_loaded(ctx) or ctx.options is None:
        return
    last: dict[str, OptionEntry] = {}
    for entry in ctx.options.entries(ctx.groups_read):
        if entry.name in _NEED_KEYS and entry.prefix in (None, "skip", "disable", "enable"):
            last[entry.name] = entry
    for name, entry in last.items():
        if (entry.value or "ON").strip().lower() in _OFF_WORDS or (
            name.startswith("innodb") and innodb_stays_off(ctx)
        ):
            continue  # off, or an InnoDB setting of a server that runs without InnoDB (it starts)
        if name == "encrypt_binlog" and binlog_enabled(ctx) is not True:
            continue  # without the binary log, encrypt_binlog starts without keys
        yield comment_out(
            entry,
            f"{written(entry)}: {ctx.version.describe()} does not start",
            f"{name} needs encryption keys, and {_no_keys(ctx)}: the server aborts at startup ('{_error(name)}')."
            f" Comment the line out, or {_remedy(ctx)}.",
            name,
        )


def _error(name: str) -> str:
    if name == "encrypt_binlog":
        return "Failed to enable encryption of binary logs"
    if name == "encrypt_tmp_files":
        return "Failed to enable encryption of temporary files"
    return "cannot enable encryption, encryption plugin is not available"


def _remedy(ctx: AuditContext) -> str:
    dropper = dropped_by(ctx, KEY_PLUGINS)
    if dropper is not None and dropper.prefix is not None:
        return f"remove {dropper.file}:{dropper.line} so the key plugin stays loaded"
    if dropper is not None:
        return f"make {dropper.file}:{dropper.line} a plugin_load_add line so the key plugin stays loaded"
    if "file_key_management" in file_plugins(ctx):
        return "set file_key_management_filename to the key file"
    return (
        "load a key plugin (plugin_load_add = file_key_management, with file_key_management_filename "
        "naming its key file)"
    )


def _no_keys(ctx: AuditContext) -> str:
    """Why no key plugin starts, naming the line to blame where there is one."""
    dropper = dropped_by(ctx, KEY_PLUGINS)
    if dropper is not None:
        return (
            f"{dropper.file}:{dropper.line} ({written(dropper)}) replaces the plugin list that loaded the key "
            "management plugin before it"
        )
    if "file_key_management" in file_plugins(ctx):
        return "file_key_management is loaded without file_key_management_filename (no keys to read)"
    return "no option file starts a key management plugin"
