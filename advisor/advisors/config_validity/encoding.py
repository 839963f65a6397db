"""An option file that starts with a UTF-8 byte-order mark: the server reads the mark as text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from advisor.findings import Evidence, Severity
from advisor.rules import Proposal, rule

if TYPE_CHECKING:
    from advisor.context import AuditContext

MARIADB_OPTION_FILES: Final = "https://mariadb.com/kb/en/configuring-mariadb-with-option-files/"
MYSQL_OPTION_FILES: Final = "https://dev.mysql.com/doc/refman/8.0/en/option-files.html"
# What the binary printed when asked to read such a file (`mariadbd --defaults-file=F --verbose --help`).
OBSERVED: Final = "'Found option without preceding group in config file: F at line: 1', exit 1"


@rule("config_validity.byte_order_mark", Severity.CRITICAL, [MARIADB_OPTION_FILES, MYSQL_OPTION_FILES])
def byte_order_mark(ctx: AuditContext) -> Iterator[Proposal]:
    """What it checks: option files that start with a UTF-8 byte-order mark (the bytes EF BB BF), as
    editors on Windows save them.

    Why it matters: the server's option reader does not skip the mark: it takes line 1 for an option
    before any group, whatever follows the mark on it. MariaDB 10.11.19 (`mariadbd --defaults-file=F
    --verbose --help` here) stops with "Found option without preceding group in config file: F at line:
    1" and "Fatal error in defaults handling. Program aborted", exit 1: the server does not start.

    What we recommend: save the file without the mark. The recommended copy leaves it out, and the
    diff rewrites line 1 without it.

    Caveats: observed on MariaDB's binary; no MySQL binary was at hand to try, so on MySQL targets the
    finding is a warning.
    """
    if ctx.options is None:
        return
    severity = Severity.CRITICAL if ctx.version.is_mariadb else Severity.WARNING
    for path, file in ctx.options.files.items():
        if not file.has_bom:
            continue
        effect = "does not start" if ctx.version.is_mariadb else "may not start"
        yield Proposal(
            title=f"{path} starts with a UTF-8 byte-order mark: {ctx.version.describe()} {effect}",
            rationale=f"{path}:1 begins with the bytes EF BB BF, which the server reads as text before "
            "any group. MariaDB refuses such a file at startup (observed on mariadbd 10.11: "
            f"{OBSERVED}). Save the file without the mark; the recommended copy and the diff drop it.",
            evidence=(Evidence("first bytes", "EF BB BF (UTF-8 byte-order mark)", f"{path}:1"),),
            severity=severity,
            option_file=path,
            option_line=1,
        )
