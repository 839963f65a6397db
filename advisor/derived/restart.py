"""The two contexts an audit with drift judges: the running server's, and the file's at the next restart.

Rules judge the effective configuration, in which the live value wins. When the option file departs
from the live server (drift), advisor.after_restart reruns the rules that read a drifted setting over
the file's values (`restart_context`). Two facts follow for every derived fact that combines settings
with measurements or with another advisor's advice:

- a measurement (a status counter, the checkpoint age, the miss rate) was taken under the settings
  that ran when it was taken: compare it with those (`measured_context`), never with the file's
  values, which have never run;
- a change another advisor recommends is the one that survives the merge of the two runs
  (advisor.derived.pool_plan.final_pool_plan): the file's, when the file's run speaks about it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from msgspec.structs import replace

from advisor.context import AuditContext, EffectiveConfig, Setting
from advisor.derived.cache import once_per_audit

#: where the file's context keeps the context it was made from (the running server's)
_MEASURED_UNDER = "measured_under"


class _Overlay(Mapping[str, Setting]):
    """The live settings with some replaced, without building every setting of the catalog."""

    def __init__(self, overrides: dict[str, Setting], settings: Mapping[str, Setting]) -> None:
        self._overrides = overrides
        self._settings = settings

    def __getitem__(self, name: str) -> Setting:
        found = self._overrides.get(name)
        return found if found is not None else self._settings[name]

    def get(self, name: str, default: Setting | None = None) -> Setting | None:  # type: ignore[override]
        """What `__getitem__` finds, else `default` (without a KeyError: many names are absent)."""
        found = self._overrides.get(name)
        return found if found is not None else self._settings.get(name, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._settings)

    def __len__(self) -> int:
        return len(self._settings)


@once_per_audit
def restart_context(ctx: AuditContext) -> AuditContext | None:
    """The context with every drifted setting at its value after a restart (the persisted one over the
    file's); None when none drifted (and in the
    file's context itself, which has no drift). One per audit, so both runs share its derived facts."""
    overrides = {
        setting.name: replace(
            setting, value=setting.restart_value, source="persisted" if setting.persisted_value else "cnf"
        )
        for setting in ctx.config.drift
        if setting.restart_value is not None
    }
    if not overrides:
        return None
    config = EffectiveConfig(
        settings=_Overlay(overrides, ctx.config.settings),
        live=ctx.config.live,
        persisted=ctx.config.persisted,
    )
    restarted = replace(ctx, config=config)
    # The derived facts that read no drifted setting are the same in the file's context: reuse them.
    restarted.__dict__["derived"] = ctx.derived.carried_over(overrides)
    ctx.share_settled_answers(restarted)
    restarted.__dict__[_MEASURED_UNDER] = ctx
    return restarted


def measured_context(ctx: AuditContext) -> AuditContext:
    """The context whose settings ran while the status and InnoDB status were taken: the running
    server's. In the file's context that is the context it came from; elsewhere `ctx` itself."""
    measured = ctx.__dict__.get(_MEASURED_UNDER)
    return measured if measured is not None else ctx
