"""What the startup rules share: the winning line of an option, and the proposal that comments a line out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from advisor.findings import Evidence
from advisor.rules import Proposal

if TYPE_CHECKING:
    from advisor.context import AuditContext
    from advisor.inputs.optionfiles import OptionEntry


def written(entry: OptionEntry) -> str:
    """The line as written, without its comment."""
    return entry.raw_name if entry.given is None else f"{entry.raw_name} = {entry.given}"


def comment_out(entry: OptionEntry, title: str, rationale: str, variable: str) -> Proposal:
    """Turn the line into a comment (the differ adds a note naming the finding)."""
    where = f"{entry.file}:{entry.line}"
    return Proposal(
        title=title,
        rationale=f"{where}: {rationale}",
        evidence=(Evidence(f"option line in [{entry.group}]", written(entry), where),),
        variable=variable,
        change="comment_out",
        option_file=entry.file,
        option_line=entry.line,
    )


def winning_lines(ctx: AuditContext, names: tuple[str, ...]) -> dict[str, OptionEntry]:
    """The winning line of each of `names` in the groups the server reads (the last one read)."""
    found: dict[str, OptionEntry] = {}
    entries = ctx.options.entries(ctx.groups_read) if ctx.options is not None else ()
    for entry in entries:
        if entry.prefix is None and entry.name in names:
            found[entry.name] = entry
    return found
