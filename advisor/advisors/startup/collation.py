"""MySQL: a collation_server of another character set than the server's aborts the start."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.advisors.startup.lines import comment_out, winning_lines, written
from advisor.findings import Severity
from advisor.optioncheck.mysql_charsets import charset_of, has_charset, same_charset, speaking_for
from advisor.rules import Proposal, mysql_only, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext

MYSQL_COLLATION_SERVER = (
    "https://dev.mysql.com/doc/refman/8.0/en/server-system-variables.html#sysvar_collation_server"
)
_NAMES: Final = ("character_set_server", "collation_server")


@rule(
    "startup.collation_charset_mismatch", Severity.CRITICAL, [MYSQL_COLLATION_SERVER], versions=mysql_only()
)
def collation_charset_mismatch(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: collation_server naming a collation of another character set than the server's:
    character_set_server's, or when the files set none — or one the server does not know, which
    config_validity comments out — the built-in default (latin1 on 5.7, utf8mb4 on 8.0).

    Why it matters: each name passes on its own, the pair does not: MySQL 8.0.46 says "COLLATION
    'utf8mb4_general_ci' is not valid for CHARACTER SET 'latin1'" and aborts, whichever line comes first;
    5.7.42 aborts alike, also on `collation_server = utf8mb4_unicode_ci` alone (its default is latin1).
    Private instances of both, started with each pair.

    What we recommend: comment collation_server out: the server then takes its character set's default
    collation. To keep the collation, set character_set_server to its character set instead.

    Caveats: MySQL 5.7 and 8.0 up to the binaries' own releases are certain; a later release, 8.4 and 9.x
    (no binary here) get 8.0.46's facts as a warning, and the line stays. A collation or character set the
    server does not know is config_validity.invalid_value's.
    """
    lines = winning_lines(ctx, _NAMES)
    collation = lines.get("collation_server")
    if collation is None:
        return
    server, certain = speaking_for(ctx.version.as_tuple())
    wanted = charset_of(server, (collation.value or "").strip("'\""))
    charset_line = lines.get("character_set_server")
    charset = (charset_line.value or "").strip("'\"") if charset_line is not None else server.default_charset
    source = "character_set_server" if charset_line is not None else "the default character set"
    if charset_line is not None and not has_charset(server, charset):
        # config_validity comments that line out: the default is what the collation must fit (review 7:
        # `character-set-server = utf8mb4_unicode_ci` went, the collation stayed, 5.7.42 aborted on latin1)
        charset = server.default_charset
        source = f"the default character set, as {written(charset_line)} is no character set the server knows"
    if wanted is None or wanted == same_charset(charset):
        return
    words = (
        f"{written(collation)} is a collation of {wanted}, and the server's character set is {charset} "
        f"({source}): MySQL {'.'.join(map(str, server.version))} aborts ('COLLATION ... is not valid for "
        f"CHARACTER SET'). Comment the line out, or set character_set_server = {wanted} to keep the collation."
    )
    if certain:
        yield comment_out(collation, f"{written(collation)}: {ctx.version.describe()} does not start", words,
                          "collation_server")  # fmt: skip
        return
    yield Proposal(
        title=f"{written(collation)}: {ctx.version.describe()} probably does not start",
        rationale=f"{collation.file}:{collation.line}: {words} No {ctx.version.describe()} was watched "
        "refusing it, so the line is kept.",
        variable="collation_server",
        severity=Severity.WARNING,
    )
