"""Encryption at startup: settings that need keys while no key management plugin starts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.advisors.startup.lines import comment_out, written
from advisor.derived.engines import innodb_stays_off, key_plugin_loaded
from advisor.findings import Severity
from advisor.references import MARIADB_INNODB_VARIABLES
from advisor.rules import Proposal, mariadb_only, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.optionfiles import OptionEntry

MARIADB_ENCRYPTION_KEYS = "https://mariadb.com/kb/en/encryption-key-management/"
# Settings that need keys at startup; mariadbd 10.11.19 without a key plugin: "InnoDB: cannot enable
# encryption, encryption plugin is not available" (the first three, ON and FORCE alike), "Failed to enable
# encryption of temporary files" (the last). encrypt_binlog, aria_encrypt_tables and
# encrypt_tmp_disk_tables start without keys.
_NEED_KEYS: Final = (
    "innodb_encrypt_tables", "innodb_encrypt_log", "innodb_encrypt_temporary_tables", "encrypt_tmp_files",
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
    innodb_encrypt_temporary_tables or encrypt_tmp_files turned on while no option file starts a key
    management plugin (file_key_management, hashicorp_key_management, aws_key_management).

    Why it matters: encryption needs keys at startup. mariadbd 10.11.19 says "InnoDB: cannot enable
    encryption, encryption plugin is not available", InnoDB fails to register and the server aborts
    ("Unknown/unsupported storage engine: InnoDB"); encrypt_tmp_files stops it with "Failed to enable
    encryption of temporary files".

    What we recommend: comment the line out, or load and configure a key management plugin
    (`plugin_load_add = file_key_management` with `file_key_management_filename`) and keep the line.

    Caveats: MariaDB only. A key plugin loaded but switched OFF gives no keys. A server that runs without
    InnoDB (see startup.innodb_disabled) starts with the InnoDB ones. encrypt_binlog,
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
        yield comment_out(
            entry,
            f"{written(entry)}: {ctx.version.describe()} does not start",
            f"{name} needs encryption keys, and no option file starts a key management plugin: the server "
            "aborts at startup ('cannot enable encryption, encryption plugin is not available'). Comment the "
            "line out, or load a key plugin (plugin_load_add = file_key_management, with its key file).",
            name,
        )
