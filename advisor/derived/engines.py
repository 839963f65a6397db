"""What the option files give the server to start with: the plugins they load, whether InnoDB is on, and
which storage engines exist. One fact read by the option checker (config_validity), the startup rules and
the engine (no InnoDB advice for a server that runs without InnoDB).

Semantics as mariadbd 10.11 has them (sql/mysqld.cc): `plugin_load_add` lines accumulate, a `plugin_load`
line drops every library named before it; each value is a `;`-separated list of `library` or
`name=library` items (with or without `.so`). The `innodb` plugin switch is last-wins (`skip-innodb`,
`disable-innodb`, `innodb = OFF`).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from functools import cache
from typing import TYPE_CHECKING, Final

from advisor.derived.cache import once_per_audit
from advisor.optioncheck.mysql_charsets import has_engine, speaking_for
from advisor.optioncheck.plugins import library_options_by_library

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.optionfiles import OptionEntry

# information_schema.ENGINES of a default mariadbd 10.11.19 (a private instance started here)
BUILTIN_ENGINES: Final = frozenset(
    {"csv", "mrg_myisam", "memory", "aria", "myisam", "sequence", "innodb", "performance_schema"}
)
# Engine names MariaDB also takes (sql/handler.cc: the historic aliases)
ENGINE_ALIASES: Final = {"heap": "memory", "merge": "mrg_myisam", "mrg_isam": "mrg_myisam", "maria": "aria"}
# Plugins that provide encryption keys (MariaDB KB "Encryption Key Management")
KEY_PLUGINS: Final = frozenset(
    {"file_key_management", "hashicorp_key_management", "aws_key_management", "example_key_management"}
)
_OFF: Final = frozenset({"off", "0"})


def _stem(item: str) -> str:
    """`file_key_management.so` → `file_key_management`; the server adds the suffix when it is missing."""
    library = item.strip().strip("'\"").replace("\\", "/").rsplit("/", 1)[-1].lower()
    for suffix in (".so", ".dll"):
        library = library.removesuffix(suffix)
    return library


def plugin_words(value: str) -> set[str]:
    """Library stems and plugin names in a `plugin_load_add` value: `a;NAME=b.so` → {a, b, name}."""
    words: set[str] = set()
    for item in value.split(";"):
        name, _, library = item.partition("=") if "=" in item else ("", "", item)
        if _stem(library):
            words.add(_stem(library))
        if name.strip():
            words.add(name.strip().lower().replace("-", "_"))
    return words


def _server_lines(ctx: AuditContext) -> tuple[OptionEntry, ...]:
    return ctx.options.entries(ctx.groups_read) if ctx.options is not None else ()


def _plugin_list_line(entry: OptionEntry) -> bool:
    return (entry.name == "plugin_load_add" and entry.prefix is None) or (
        entry.name == "plugin_load" and entry.prefix in (None, "skip", "disable")
    )


def plugin_list_lines(ctx: AuditContext) -> tuple[OptionEntry, ...]:
    """The lines that build the plugin list, in the order read: `plugin_load_add`, `plugin_load` and
    `skip-plugin-load` (which empties the list; mariadbd 10.11.19 then refuses the plugin's options).
    `skip-plugin_load_add` changes nothing (a private instance started with the plugin still loaded)."""
    return tuple(entry for entry in _server_lines(ctx) if _plugin_list_line(entry))


def _resets(entry: OptionEntry) -> bool:
    return entry.name == "plugin_load"


def plugins_loaded_by(entries: Iterable[OptionEntry]) -> frozenset[str]:
    """The plugin libraries (stems) and plugin names that option lines (in read order) load."""
    loaded: set[str] = set()
    for entry in entries:
        if not _plugin_list_line(entry):
            continue
        if _resets(entry):
            loaded.clear()
        if entry.prefix is None:
            loaded |= plugin_words(entry.value or "")
    return frozenset(loaded)


@once_per_audit
def file_plugins(ctx: AuditContext) -> frozenset[str]:
    """The plugin libraries (stems) and plugin names the option files load, in the groups the server reads."""
    return plugins_loaded_by(_server_lines(ctx))


def dropped_by(ctx: AuditContext, plugins: frozenset[str]) -> OptionEntry | None:
    """The `plugin_load` / `skip-plugin-load` line that emptied the list after one of `plugins` was named."""
    named = False
    dropper: OptionEntry | None = None
    for entry in plugin_list_lines(ctx):
        if _resets(entry) and named:
            dropper, named = entry, False
        if entry.prefix is None and plugin_words(entry.value or "") & plugins:
            named, dropper = True, None
    return dropper


@once_per_audit
def installed_plugins(ctx: AuditContext) -> frozenset[str]:
    """Libraries whose variables the live SHOW GLOBAL VARIABLES (a complete dump) lists: loaded at that start,
    by the option files or by INSTALL SONAME (the mysql.plugin table, read at every start without any
    plugin_load_add line; mariadbd 10.11.19 then takes `server_audit_logging = ON` in the file)."""
    live = ctx.config.live
    return plugins_shown_by(live.names) if live is not None else frozenset()


def plugins_shown_by(names: AbstractSet[str]) -> frozenset[str]:
    """The libraries whose variables a complete SHOW GLOBAL VARIABLES (`names`, a dict's key view) lists;
    asked, the view goes over the smaller side (a library's few options)."""
    return frozenset(
        library for library, options in _options_beside_library() if not names.isdisjoint(options)
    )


@cache
def _options_beside_library() -> tuple[tuple[str, frozenset[str]], ...]:
    """Each library with the options it adds, less one named as the library itself (which does not show
    the library loaded): worked out once per process."""
    return tuple(
        (library, frozenset(options) - {library}) for library, options in library_options_by_library().items()
    )


@once_per_audit
def loaded_plugins(ctx: AuditContext) -> frozenset[str]:
    """The plugins the server has at startup: those the option files load and those the live dump shows
    loaded (installed with INSTALL SONAME)."""
    return file_plugins(ctx) | installed_plugins(ctx)


def engine_available(ctx: AuditContext, engine: str) -> bool:
    """Is `engine` (as a default_storage_engine value) built in or a loaded plugin's (`ha_rocksdb` → RocksDB)?
    MySQL: the engines of the real binary of its line (optioncheck.mysql_charsets)."""
    name = engine.strip().strip("'\"").lower()
    if ctx.version.is_mysql and _mysql_has(ctx, name):
        return True
    if ctx.version.is_mysql:
        return _loaded_engine(ctx, name)
    name = ENGINE_ALIASES.get(name, name)
    if name == "innodb":
        return innodb_disabled_by(ctx) is None
    if name in BUILTIN_ENGINES:
        return True
    return _loaded_engine(ctx, name)


def _loaded_engine(ctx: AuditContext, name: str) -> bool:
    loaded = loaded_plugins(ctx)
    return name in loaded or any(word.removeprefix("ha_") in (name, name + "x") for word in loaded)


def _mysql_has(ctx: AuditContext, name: str) -> bool:
    server, _ = speaking_for(ctx.version.as_tuple())
    return has_engine(server, name, federated_on=_switched_on(ctx, "federated"))


def mysql_engines_certain(ctx: AuditContext) -> bool:
    """Are the MySQL engine facts certain for the target (its own line's binary, at or after its release)?"""
    return speaking_for(ctx.version.as_tuple())[1]


def nearest_mysql(ctx: AuditContext) -> str:
    """The release of the MySQL binary whose engines speak for the target (`8.0.46`)."""
    return ".".join(map(str, speaking_for(ctx.version.as_tuple())[0].version))


def _switched_on(ctx: AuditContext, plugin: str) -> bool:
    """`federated` (or `federated = ON`), last line wins; skip-/disable- turn it off."""
    last = [entry for entry in _server_lines(ctx) if entry.name == plugin and entry.prefix != "maximum"]
    if not last:
        return False
    if last[-1].prefix in ("skip", "disable"):
        return False
    return (last[-1].value or "ON").strip().lower() not in _OFF


@once_per_audit
def innodb_disabled_by(ctx: AuditContext) -> OptionEntry | None:
    """The line that leaves InnoDB off (`skip-innodb`, `innodb = OFF`: the last `innodb` line wins), else None."""
    last: OptionEntry | None = None
    for entry in _server_lines(ctx):
        if entry.name == "innodb" and entry.prefix in (None, "skip", "disable", "enable"):
            last = entry
    value = (last.value or "ON").strip().lower() if last is not None else "on"
    return last if value in _OFF else None


def innodb_lines(ctx: AuditContext) -> tuple[OptionEntry, ...]:
    """Every `innodb` switch line that turns InnoDB off (all must go for it to come back)."""
    return tuple(
        entry
        for entry in _server_lines(ctx)
        if entry.name == "innodb" and (entry.value or "ON").strip().lower() in _OFF
    )


def default_engine_lines(ctx: AuditContext) -> dict[str, OptionEntry]:
    """The winning default_storage_engine / default_tmp_storage_engine lines of the files."""
    found: dict[str, OptionEntry] = {}
    for entry in _server_lines(ctx):
        if entry.prefix is None and entry.name in ("default_storage_engine", "default_tmp_storage_engine"):
            found[entry.name] = entry
    return found


@once_per_audit
def innodb_stays_off(ctx: AuditContext) -> bool:
    """InnoDB is disabled and the server still starts once the lines naming InnoDB as an engine are fixed:
    the default engine is set to another engine it has, and the temporary one is not InnoDB (unset, it
    follows the default; started on mariadbd 10.11.19). `enforce_storage_engine = InnoDB` then aborts the
    start ("Unknown/unsupported storage engine: InnoDB"): startup.unknown_storage_engine comments it out."""
    if innodb_disabled_by(ctx) is None:
        return False
    lines = default_engine_lines(ctx)
    default = lines.get("default_storage_engine")
    temporary = lines.get("default_tmp_storage_engine")
    default_ok = default is not None and _other_engine(ctx, default.value)
    return default_ok and (temporary is None or _other_engine(ctx, temporary.value))


def _other_engine(ctx: AuditContext, value: str | None) -> bool:
    name = (value or "").strip().strip("'\"").lower()
    return bool(name) and name != "innodb" and engine_available(ctx, name)


def _switched_off(ctx: AuditContext, plugin: str) -> bool:
    """`file_key_management = OFF` (or skip-): the library is loaded, the plugin not started."""
    last = [entry for entry in _server_lines(ctx) if entry.name == plugin and entry.prefix != "maximum"]
    return bool(last) and (last[-1].value or "ON").strip().lower() in _OFF


def _has_value(ctx: AuditContext, name: str) -> bool:
    last = [entry for entry in _server_lines(ctx) if entry.name == name and entry.prefix is None]
    return bool(last) and bool((last[-1].value or "").strip().strip("'\""))


@once_per_audit
def key_plugin_loaded(ctx: AuditContext) -> bool:
    """Does the configuration start a key management plugin (needed to encrypt anything)? Only the option
    files count: keys are needed while InnoDB starts, before the mysql.plugin table is read. A plugin
    switched OFF gives no keys (mariadbd 10.11.19 then aborts on innodb_encrypt_tables = ON, as without it),
    nor does file_key_management without file_key_management_filename ("file-key-management-filename is not
    set"; the server starts with it as long as nothing is encrypted)."""
    return any(
        not _switched_off(ctx, plugin)
        and (plugin != "file_key_management" or _has_value(ctx, "file_key_management_filename"))
        for plugin in file_plugins(ctx) & KEY_PLUGINS
    )
