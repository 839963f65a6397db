"""Derived facts are computed once per audit: `@once_per_audit` keeps them in the context's cache."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from advisor.context import AuditContext

T = TypeVar("T")


def once_per_audit(compute: Callable[[AuditContext], T]) -> Callable[[AuditContext], T]:
    """Memoise a pure function of the audit context in that context's `derived` cache.

    Several rules ask for the same fact (the memory budget, the pool target, the option-line
    classification); an audit builds one context, so each fact is computed once per audit.
    """

    @functools.wraps(compute)
    def wrapper(ctx: AuditContext) -> T:
        facts = ctx.__dict__.get("derived")  # the cache, once made (AuditContext.derived makes it)
        return (facts if facts is not None else ctx.derived).get(compute, ctx)

    return wrapper
