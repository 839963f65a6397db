"""Verdicts on names the target server does not have: unknown, misspelt, abbreviated, of other versions."""

from __future__ import annotations

from advisor.optioncheck import data as catalogs
from advisor.optioncheck import names as naming
from advisor.optioncheck import settled
from advisor.optioncheck.model import PLUGIN_CONSEQUENCES, Outcome, Verdict
from advisor.optioncheck.names import Resolution
from advisor.optioncheck.state import Judgement, line


def absent_here(state: Judgement, name: str) -> bool:
    """A name that neither snapshot around the target lists: an option of other versions only. A name the test
    results hide counts only where real binaries' lists settle it (dropped before the target, or absent from
    the nearest complete lists on both sides)."""
    names = state.history
    return (
        names is not None
        and name in names.listed
        and names.covers(state.version)
        and not names.listed_near(name, state.version)
        and (
            not names.blind(name, state.version)
            or settled.removed(state.flavor, name, state.version)
            or settled.unseen_between(state.flavor, name, state.version)
        )
    )


def not_in_version(state: Judgement, name: str, loose: bool) -> Verdict:
    """Listed for other versions, not for the ones around the target. Certain only where real binaries' lists
    surround the target, one of its own series (`exact`); otherwise a copy of the source behind a snapshot
    may have dropped an option the release has, or the test filtered its help out."""
    assert state.history is not None
    if swallowed(state, name):  # not listed there, but taken with a warning (a removed option, say)
        return stub(state, name)
    # certain where real binaries' lists surround the target, one of its series; or where it was dropped before
    # the nearest real binary's list below the target and no later list has it (options do not come back)
    certain = state.history.exact(state.version) or settled.removed(state.flavor, name, state.version)
    seen = ", ".join(state.history.seen_in(name))
    product = "MariaDB" if state.flavor == "mariadb" else "MySQL"
    words = f"'{name}' is an option of other {product} versions (listed in {seen}), not of this one"
    if loose:
        return state.verdict(Outcome.IGNORES_WITH_WARNING, "loose_not_in_version",
                             f"{words}. The loose- prefix makes the server log a warning and skip the line.",
                             certain=certain)  # fmt: skip
    return state.verdict(Outcome.REFUSES_TO_START, "not_in_version",
                         f"{words}. The server refuses to start ('unknown variable').", certain=certain)  # fmt: skip


def swallowed(state: Judgement, name: str) -> bool:
    """Taken with a warning and ignored: by a real binary around the target, or — where no complete list of the
    target's own series says otherwise — by 10.11 (the optimistic side: never a false 'refuses')."""
    if state.history is not None and state.history.swallowed_near(name, state.version):
        return True
    exact = state.history is not None and state.history.exact(state.version)
    return not exact and name in state.data.names.get("compatibility_stubs", ())


def stub_by_prefix(state: Judgement, name: str) -> str | None:
    """The one removed option MariaDB still swallows that `name` abbreviates (innodb_buffer_pool_instance on
    10.11: mariadbd 10.11.19 takes it as innodb_buffer_pool_instances, warns and starts); None otherwise."""
    names = state.history
    stubs: set[str] = set()
    if names is not None:
        stubs.update(*(names.snapshots[i].swallowed for i in names.neighbours(state.version)))
    if names is None or not names.exact(state.version):
        stubs.update(state.data.names.get("compatibility_stubs", ()))
    reached = [stub for stub in stubs if stub.startswith(name)]
    return reached[0] if len(reached) == 1 else None


def unlisted_plugin(state: Judgement, library: str) -> Verdict:
    """An option of a plugin the files load but whose options we have no list for: taken, unjudged."""
    return state.verdict(Outcome.ACCEPTS, "loaded_plugin_unlisted",
                         f"'{state.written}' looks like an option of the {library} plugin the option files load; "
                         "its options are not known here, so the line is not judged.", certain=False)  # fmt: skip


def stub(state: Judgement, name: str) -> Verdict:
    return state.verdict(Outcome.IGNORES_WITH_WARNING, "compatibility_stub",
                         f"'{name}' is an option {state.data.flavor} still takes and ignores with a warning "
                         "('MySQL 5.6 / 5.7 compatible option' or 'was removed'); it does nothing here.")  # fmt: skip


def unknown(state: Judgement, name: str, loose: bool, prefix_of: str | None = None) -> Verdict:
    if swallowed(state, name):
        return stub(state, name)
    intended: str | None
    if prefix_of is not None:
        words = f"'{name}' abbreviates {prefix_of}; " + (
            "MySQL 5.7 and later refuse abbreviated names (WL#6978)"
            if state.flavor == "mysql"
            else "an earlier line turned getopt-prefix-matching off, so the server matches full names only"
        )
        reason, intended = "refused_prefix", prefix_of
    else:
        known = settled.correction_names(state.flavor, state.version) if state.history is not None else None
        reason, words, intended = naming.classify_unknown(
            name, state.flavor, state.data, catalogs.foreign(), known
        )
    # The test results leave plugin options out (InnoDB, Aria, NDB, X Plugin...): no certain verdict on those
    # names, unless a real binary's list of the target's own series (with a list of the series below it) holds
    # none, or the name is a misspelling that no list of the flavor ever held (refused by every version)
    unsure = (
        state.history is not None
        and state.history.blind(name, state.version)
        and not state.history.settled_by_binary(name, state.version)
        and not (reason == "misspelling" and settled.never_an_option(state.flavor, name))
    )
    suggestion = (
        line([s for s in state.specials if s != "loose"], intended, state.value) if intended else None
    )
    if loose:
        return state.verdict(Outcome.IGNORES_WITH_WARNING, "loose_" + reason,
                             f"{words}. The loose- prefix makes the server log a warning and skip the line.",
                             suggestion=suggestion, certain=not unsure)  # fmt: skip
    return state.verdict(Outcome.REFUSES_TO_START, reason,
                         f"{words}. The server refuses to start ('unknown variable').",
                         suggestion=suggestion, certain=not unsure)  # fmt: skip


def ambiguous(state: Judgement, name: str, resolution: Resolution, loose: bool) -> Verdict:
    listed = ", ".join(resolution.ambiguous[:6])
    words = f"'{name}' abbreviates several options ({listed})"
    fatal_plugin = state.data.quirks.get("fatal_plugins", {}).get(resolution.plugin or "")
    if fatal_plugin:
        return state.verdict(Outcome.REFUSES_TO_START, "ambiguous_prefix", f"{words}; {fatal_plugin}.",
                             plugin=resolution.plugin)  # fmt: skip
    if resolution.plugin is not None and (state.flavor == "mysql" or state.version >= (10, 6)):
        return state.verdict(Outcome.DISABLES_PLUGIN, "ambiguous_prefix", plugin_words(words, resolution.plugin),
                             plugin=resolution.plugin)  # fmt: skip
    if resolution.plugin is not None:  # before 10.6 the core then calls the line unknown (10.0.38-10.5.23)
        return state.verdict(Outcome.REFUSES_TO_START, "ambiguous_prefix",
                             f"{words}. The server refuses to start ('ambiguous option').", plugin=resolution.plugin)  # fmt: skip
    # a plugin option the test results do not list; or, on MariaDB other than 10.11, where a prefix is
    # taken when unique, candidates that differ from version to version
    # (MySQL before 5.7 takes a unique prefix too, and the lists around it may hold more candidates)
    unsure = state.history is not None and (
        state.history.blind(name, state.version)
        or (state.flavor == "mariadb" and (not state.history.exact(state.version) or state.version < (10, 6)))
        or state.version < (5, 7)
    )
    return state.verdict(Outcome.REFUSES_TO_START, "ambiguous_prefix",
                         f"{words}. The server refuses to start ('ambiguous option').", certain=not unsure)  # fmt: skip


def plugin_words(words: str, plugin: str) -> str:
    consequence = PLUGIN_CONSEQUENCES.get(
        plugin, f"whatever the {plugin} plugin provides becomes unavailable"
    )
    return f"{words}. The server disables the {plugin} plugin ('Parsing options for plugin failed'): {consequence}."
