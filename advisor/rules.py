"""A rule is data plus a pure function over the immutable audit context.

The function's docstring is the rule's documentation, with the headings
What it checks / Why it matters / What we recommend / Caveats; `docs/advisors.md` is
generated from it. The function yields `Proposal`s; the engine turns them into findings
(adding the current value, restart and live-apply facts from the catalog) and settles
conflicts between advisors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING

from msgspec import Struct, field

from advisor.findings import ChangeKind, Evidence, Severity
from advisor.version import ServerVersion

if TYPE_CHECKING:
    from advisor.context import AuditContext

DOC_HEADINGS = ("What it checks", "Why it matters", "What we recommend", "Caveats")


class Proposal(Struct, frozen=True):
    """What a rule found. `variable` + `recommended` make it a change to the my.cnf.

    `recommended` is written as in a my.cnf (`48G`, `O_DIRECT`, `0`). `change="comment_out"`
    comments out the option at `option_file:option_line` (removed or misplaced options).
    """

    title: str
    rationale: str
    evidence: tuple[Evidence, ...] = ()
    variable: str | None = None
    recommended: str | None = None
    severity: Severity | None = None
    change: ChangeKind | None = None
    option_file: str | None = None
    option_line: int | None = None
    #: A corrected spelling of the user's own line (a typo, an abbreviation, ON for a number): it keeps
    #: the user's value, so any other rule that proposes a value for the variable wins over it.
    correction: bool = False
    #: No server can be running from the file as it is (it refuses to start): the change is for the
    #: file and takes effect when the server starts from it, so no live SQL is offered.
    at_start: bool = False


class Versions(Struct, frozen=True):
    """The servers a rule applies to: per flavor, an inclusive lower and exclusive upper bound."""

    mysql: tuple[tuple[int, ...], tuple[int, ...]] | None = ((0,), (99,))
    mariadb: tuple[tuple[int, ...], tuple[int, ...]] | None = ((0,), (99,))

    def includes(self, version: ServerVersion) -> bool:
        bounds = self.mariadb if version.is_mariadb else self.mysql
        if bounds is None:
            return False
        low, high = bounds
        return low <= version.as_tuple() < high

    def describe(self) -> str:
        return _describe(self)


@cache  # a few dozen distinct rule ranges; every finding says which versions its rule applies to
def _describe(versions: Versions) -> str:
    """`MySQL/Percona 8.0.30+; MariaDB (all versions)`: the ranges in words."""
    parts = []
    for flavor, bounds in (("MySQL/Percona", versions.mysql), ("MariaDB", versions.mariadb)):
        if bounds is None:
            continue
        low, high = (".".join(str(n) for n in bound) for bound in bounds)
        if bounds == ((0,), (99,)):
            parts.append(f"{flavor} (all versions)")
        elif bounds[1] == (99,):
            parts.append(f"{flavor} {low}+")
        elif bounds[0] == (0,):
            parts.append(f"{flavor} before {high}")
        else:
            parts.append(f"{flavor} {low} to before {high}")
    return "; ".join(parts)


ALL_VERSIONS = Versions()


def mysql_only(low: tuple[int, ...] = (0,), high: tuple[int, ...] = (99,)) -> Versions:
    return Versions(mysql=(low, high), mariadb=None)


def mariadb_only(low: tuple[int, ...] = (0,), high: tuple[int, ...] = (99,)) -> Versions:
    return Versions(mysql=None, mariadb=(low, high))


Check = Callable[["AuditContext"], Iterable[Proposal]]


class Rule(Struct, frozen=True):
    """A rule: stable dotted id, default severity, versions, references and its check."""

    id: str
    severity: Severity
    check: Check
    references: tuple[str, ...]
    versions: Versions = ALL_VERSIONS
    aliases: tuple[str, ...] = field(default=())
    #: inputs the check cannot do without (advisor.derived.inputs.INPUTS): when one is missing and the
    #: check found nothing, the audit says the rule did not run, and which flag provides the input.
    needs: tuple[str, ...] = field(default=())

    @property
    def advisor(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def doc(self) -> str:
        return self.check.__doc__ or ""


def rule(
    rule_id: str,
    severity: Severity,
    references: Iterable[str],
    versions: Versions = ALL_VERSIONS,
    needs: Iterable[str] = (),
) -> Callable[[Check], Rule]:
    """Decorator: `@rule("buffer_pool.undersized", Severity.WARNING, [...])` over a check function."""

    def wrap(check: Check) -> Rule:
        return Rule(rule_id, severity, check, tuple(references), versions, needs=tuple(needs))

    return wrap
