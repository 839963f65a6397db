"""judge(): one option-file line against the server's option parser, per flavor and version."""

from __future__ import annotations

from functools import lru_cache

from advisor.optioncheck import data as catalogs
from advisor.optioncheck import names as naming
from advisor.optioncheck.model import OptionFacts, Outcome, Verdict
from advisor.optioncheck.mysql_values import MYSQL_NAMED_VALUES, mysql_named_value
from advisor.optioncheck.names import Resolution
from advisor.optioncheck.plugins import owned_by_unlisted
from advisor.optioncheck.setvalues import mariadb_set, mysql_set
from advisor.optioncheck.state import Judgement, line, parse_version
from advisor.optioncheck.unknown import (
    absent_here,
    ambiguous,
    not_in_version,
    plugin_words,
    stub,
    stub_by_prefix,
    unknown,
    unlisted_plugin,
)
from advisor.optioncheck.validated import check_validated
from advisor.optioncheck.values import ValueCheck, check_value


# A pure function of the line, the server and the plugins loaded (the option data is read once per process):
# a line config_validity cannot pass over as fine (a removed option MariaDB ignores, say) is judged in every
# audit of every server that has it, and the frozen Verdict can be shared.
@lru_cache(maxsize=4096)
def judge(name: str, value: str | None, *, flavor: str, version: str | tuple[int, ...], os: str = "linux",
          loose: bool = False, prefix_matching: bool = True, plugins: frozenset[str] = frozenset()) -> Verdict:  # fmt: skip
    """What `flavor` `version` does at startup with the option-file line `name = value`.

    `value` is None for a bare name; `loose` says the line carried `loose-` (also detected in name);
    `prefix_matching` False: an earlier line turned MariaDB's getopt-prefix-matching off; `plugins` the
    plugin libraries and names the option files load (`file_key_management`, `ha_rocksdb`): their options
    are the server's too.
    """
    flavor = "mariadb" if flavor.lower().startswith("maria") else "mysql"
    state = Judgement(name, value, flavor, parse_version(version), os.lower(), plugins)
    current = catalogs.canonical(name)
    resolution = state.resolve(current)
    while resolution.facts is None and not resolution.ambiguous and (split := naming.strip_special(current)):
        state.specials.append(split[0])
        current = split[1]
        resolution = state.resolve(current)
    loose = loose or "loose" in state.specials
    if resolution.ambiguous:
        return ambiguous(state, current, resolution, loose)
    if resolution.facts is None:
        if absent_here(state, current):  # an option of other versions, whose list the target's lacks
            return not_in_version(state, current, loose)
        if owner := owned_by_unlisted(current, plugins):
            return unlisted_plugin(state, owner)
        swallowed_as = stub_by_prefix(state, current) if flavor == "mariadb" and prefix_matching else None
        return stub(state, swallowed_as) if swallowed_as else unknown(state, current, loose)
    if resolution.by_prefix and (not prefix_matching or (flavor == "mysql" and state.version >= (5, 7))):
        return unknown(state, current, loose, prefix_of=resolution.facts.name)
    if absent_here(state, resolution.facts.name):
        return not_in_version(state, resolution.facts.name, loose)
    return _known(state, resolution, loose)


def _os_check(state: Judgement, facts: OptionFacts, value: str | None) -> ValueCheck | None:
    rule = catalogs.foreign().windows_only_values.get(facts.name)
    if rule is None or value is None or value.lower() not in [v.lower() for v in rule["values"]]:
        return None
    if state.os == "windows":
        return ValueCheck("ok", effective=value)
    return ValueCheck("error", f"{facts.name}={value} exists only on Windows servers",
                      suggested_value=str(rule["instead"]))  # fmt: skip


def _known(state: Judgement, resolution: Resolution, loose: bool) -> Verdict:
    facts = resolution.facts
    assert facts is not None
    full = line([s for s in state.specials if s != "loose"], facts.name, state.value)
    extra: dict[str, object] = {"option": facts.name, "certain": facts.source != "mysql name only"}
    abbreviation = ""
    if resolution.by_prefix:
        abbreviation = (
            f"'{state.written}' abbreviates {facts.name}; write the full name before an upgrade breaks it. "
        )
        extra["suggestion"] = full
    check = _check(state, facts)
    if not check.certain:
        extra.update(certain=False, value_seen=False)
    if check.suggested_value is not None:
        specials = [s for s in state.specials if s != "loose"]
        extra["suggestion"] = line(specials, facts.name, check.suggested_value)
    return _outcome(state, facts, check, loose, abbreviation, extra)


def _check(state: Judgement, facts: OptionFacts) -> ValueCheck:
    """The value's fate: my_getopt's parse, then the startup checks some options get."""
    if "maximum" in state.specials and not facts.maximum_ok and state.flavor == "mariadb":
        return ValueCheck("error", f"option '{facts.name}': its maximum cannot be set from an option file")
    value = naming.special_value(state.specials, state.value)
    older = _mysql_value(state, facts, value) if state.flavor == "mysql" and value is not None else None
    negative = facts.unsigned and bool(value) and str(value).strip().startswith("-")
    if older is None and state.flavor == "mariadb" and facts.type == "set" and value is not None:
        older = mariadb_set(facts, value, state.version)
        older = older if older is not None and older.status == "error" else None
    if older is None and state.flavor == "mariadb" and state.version < (10, 6) and negative:
        # 10.0.38-10.5.23: "unsigned value 18446744073709551611 adjusted to 100000" for max_connections=-5
        top = str(facts.max) if facts.max is not None else None
        older = ValueCheck(
            "adjusted", f"before 10.6 {value} wraps around and is adjusted to the maximum", top
        )
    if older is not None:
        return older
    quirks = state.data.quirks
    if value is None and facts.name in quirks.get("crash_without_value", {}):
        return ValueCheck("fatal", quirks["crash_without_value"][facts.name])
    check = _os_check(state, facts, value) or check_value(value, facts, state.flavor == "mariadb")
    crash = quirks.get("crash_below", {}).get(facts.name)
    if crash and check.status != "error" and check.effective and int(check.effective) < crash["minimum"]:
        return ValueCheck("fatal", crash["why"])
    if check.status in ("ok", "placeholder"):
        for kind, names in quirks.get("validated", {}).items():
            if facts.name in names:
                return check_validated(kind, facts.name, value, state.data.names) or check
    return check


def _mysql_value(state: Judgement, facts: OptionFacts, value: str) -> ValueCheck | None:
    """Where MySQL's option parser differs from MariaDB's (the 5.7.42 and 8.0.46 binaries, bench/results)."""
    if not value.strip() and facts.type in catalogs.NUMBER_TYPES:  # mariadbd 10.11.19 takes it
        return ValueCheck("error", f"an empty value for the number option {facts.name}")
    if facts.unsigned and value.strip().startswith("-"):  # 5.7.42: "value -5 adjusted to 1", and starts
        return ValueCheck("adjusted", f"MySQL adjusts the negative value {value} to the option's minimum")
    if facts.name in MYSQL_NAMED_VALUES:
        return mysql_named_value(facts.name, value, state.version)
    return mysql_set(facts, value, state.version) if facts.type == "set" else None


def _outcome(state: Judgement, facts: OptionFacts, check: ValueCheck, loose: bool, abbreviation: str,
             extra: dict[str, object]) -> Verdict:  # fmt: skip
    detail = abbreviation + (check.detail + ". " if check.detail else "")
    fatal_plugin = state.data.quirks.get("fatal_plugins", {}).get(facts.plugin or "")
    if check.status == "fatal" or (
        check.status == "error" and ((fatal_plugin and not loose) or (loose and facts.loose_bad_fatal))
    ):
        why = fatal_plugin or ("with loose- the option is left at 0, which kills the server" if loose else "")
        return state.verdict(Outcome.REFUSES_TO_START, "bad_value", f"{detail}{why + '. ' if why else ''}"
                             "The server refuses to start.", plugin=facts.plugin, **extra)  # fmt: skip
    if check.status == "error":
        # argument-count errors are not downgraded; MySQL's loose- only forgives an unknown name (8.0.46)
        if loose and not check.detail.startswith("option '") and state.flavor == "mariadb":
            return state.verdict(Outcome.IGNORES_WITH_WARNING, "loose_bad_value",
                                 f"{detail}With loose- the server logs an error and starts without your value.",
                                 plugin=facts.plugin, **extra)  # fmt: skip
        if facts.plugin is not None and (state.flavor == "mysql" or state.version >= (10, 6)):
            return state.verdict(Outcome.DISABLES_PLUGIN, "bad_value", plugin_words(detail.rstrip(". "), facts.plugin),
                                 plugin=facts.plugin, **extra)  # fmt: skip
        # before 10.6 the plugin's failed option is then an unknown variable to the server (10.0.38-10.5.23)
        return state.verdict(Outcome.REFUSES_TO_START, "bad_value",
                             f"{detail}The server refuses to start ('Error while setting value').",
                             plugin=facts.plugin, **extra)  # fmt: skip
    if check.status == "warn":
        return state.verdict(
            Outcome.IGNORES_WITH_WARNING, "bad_bool", detail.strip(), plugin=facts.plugin, **extra
        )
    if check.status in ("adjusted", "rounded"):
        return state.verdict(Outcome.CLAMPS, "out_of_range" if check.status == "adjusted" else "block_rounding",
                             detail.strip(), plugin=facts.plugin, value=check.effective, **extra)  # fmt: skip
    reason = (
        "unique_prefix"
        if abbreviation
        else "number_bool"
        if check.status == "first_digit"
        else ("placeholder" if check.detail else "ok")
    )
    message = detail.strip() or f"The server accepts {facts.name} = {check.effective}."
    return state.verdict(
        Outcome.ACCEPTS, reason, message, plugin=facts.plugin, value=check.effective, **extra
    )
