"""`innotune audit`: the offline audit, as a click command built from cli.audit_options.

The console script runs a plain audit command line without click (cli.audit_options.parse_plain);
this command serves everything else — help, usage errors, `--output-dir` — with the same body.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from cli.audit_options import OPTIONS, AuditOption
from cli.audit_run import UsageProblem, run_audit_command

_KINDS: dict[str, Any] = {
    "file": click.Path(dir_okay=False),
    "folder": click.Path(file_okay=False),
    "int": int,
    "text": None,
}


def _option(option: AuditOption) -> Callable[[Callable[..., None]], Callable[..., None]]:
    kind = click.Choice(list(option.choices)) if option.choices else _KINDS[option.kind]
    return click.option(
        option.flag,
        option.dest,
        type=kind,
        multiple=option.multiple,
        default=option.default,
        help=option.help,
    )


def _audit(**parameters: Any) -> None:
    """Audit a server offline: my.cnf, variables, status, hardware in; findings and a diff out.

    Exit status: 0 without a critical finding, 1 with one, 2 on bad input.
    """
    try:
        status = run_audit_command(**parameters)
    except UsageProblem as exc:
        raise click.UsageError(str(exc)) from exc
    sys.exit(status)


def _build() -> click.Command:
    command: Callable[..., None] = _audit
    for option in reversed(OPTIONS):
        command = _option(option)(command)
    return click.command(name="audit")(command)


audit_command = _build()
