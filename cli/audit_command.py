"""`innotune audit`: the offline audit. Imports only the core, so the process starts fast."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from advisor.model import Profile, Role
from advisor.unidiff import relative_path

if TYPE_CHECKING:
    from advisor.model import AuditResult

EXIT_OK, EXIT_CRITICAL, EXIT_BAD_INPUT = 0, 1, 2


def _read(path: str | None) -> str | None:
    if path is None:
        return None
    try:
        return Path(path).read_bytes().decode("utf-8", errors="surrogateescape")
    except OSError as exc:
        raise click.UsageError(f"{path}: cannot read ({exc.strerror})") from exc


def _print_or_write(result: AuditResult, output_dir: str | None) -> None:
    """Write each recommended file under `output_dir` with its path, or print the main one."""
    if output_dir is None:
        click.echo(result.mycnf, nl=False)
        if len(result.files) > 1:
            click.echo(
                f"innotune audit: {len(result.files) - 1} more recommended file(s); "
                "--output-dir DIR writes them all",
                err=True,
            )
        return
    root = Path(output_dir)
    for file in result.files:
        relative = relative_path(file.path)
        if relative is None:
            raise click.UsageError(f"{file.path}: a path outside the output folder")
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(file.recommended.encode("utf-8", errors="surrogateescape"))
        click.echo(f"wrote {target}", err=True)
    for line in result.secrets_kept_out:
        click.echo(
            f"innotune audit: {line} holds a secret: kept out of the copy, copy your line back", err=True
        )


def _print_dropin(result: AuditResult) -> None:
    """The override file, then (on stderr) where it goes and what it cannot do."""
    dropin = result.dropin
    if dropin is None:
        click.echo("innotune audit: nothing to change, no drop-in file", err=True)
        return
    click.echo(dropin.text, nl=False)
    click.echo(f"innotune audit: install it as {dropin.path}", err=True)
    if dropin.include_line:
        click.echo(f"innotune audit: and append `{dropin.include_line}` to {dropin.include_into}", err=True)


def _manifest_role(path: str | None) -> Role:
    """The role the collector detected (manifest.json `role.role`); standalone without a manifest."""
    if path is None:
        return Role.STANDALONE
    text = _read(path) or ""
    try:
        found = (json.loads(text).get("role") or {}).get("role")
    except (ValueError, AttributeError):
        raise click.UsageError(f"{path}: not a manifest.json of `innotune collect`") from None
    if found is None:  # a manifest whose collector could not tell
        return Role.STANDALONE
    if found not in {role.value for role in Role}:
        raise click.UsageError(f"{path}: no known role in the manifest (got {found!r}); give --role")
    return Role(found)


@click.command(name="audit")
@click.option(
    "--mycnf", "mycnf", multiple=True, type=click.Path(dir_okay=False), help="An option file (repeatable)."
)
@click.option("--variables", type=click.Path(dir_okay=False), help="SHOW GLOBAL VARIABLES output.")
@click.option(
    "--status", multiple=True, type=click.Path(dir_okay=False), help="SHOW GLOBAL STATUS (once or twice)."
)
@click.option("--innodb-status", type=click.Path(dir_okay=False), help="SHOW ENGINE INNODB STATUS output.")
@click.option("--schema", type=click.Path(dir_okay=False), help="Schema facts (JSON or the documented TSV).")
@click.option("--hardware", type=click.Path(dir_okay=False), help="Hardware spec as JSON.")
@click.option("--memory", help="Memory, e.g. 64G (replaces that field of --hardware; so do the next three).")
@click.option("--memory-limit", help="Container memory limit, e.g. 16G.")
@click.option("--cpus", type=int, help="CPU cores.")
@click.option("--storage", type=click.Choice(["hdd", "ssd", "nvme", "network"]), help="Storage type.")
@click.option("--server-version", help="e.g. 8.0.36 or 10.11.6-MariaDB (default: from --variables).")
@click.option(
    "--role",
    type=click.Choice([role.value for role in Role]),
    help="The server's place in replication (default: the role in --manifest, else standalone).",
)
@click.option(
    "--manifest",
    type=click.Path(dir_okay=False),
    help="manifest.json of `innotune collect`: the server's detected role, unless --role is given.",
)
@click.option(
    "--profile", type=click.Choice([item.value for item in Profile]), default=Profile.PRODUCTION.value
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "diff", "mycnf", "dropin"]),
    default="text",
    help="mycnf: the recommended files; dropin: one override file read after yours.",
)
@click.option(
    "--output-dir",
    type=click.Path(file_okay=False),
    help="With --format mycnf: write every recommended file under this folder, with its path.",
)
def audit_command(
    mycnf: tuple[str, ...],
    variables: str | None,
    status: tuple[str, ...],
    innodb_status: str | None,
    schema: str | None,
    hardware: str | None,
    memory: str | None,
    memory_limit: str | None,
    cpus: int | None,
    storage: str | None,
    server_version: str | None,
    role: str | None,
    manifest: str | None,
    profile: str,
    output_format: str,
    output_dir: str | None,
) -> None:
    """Audit a server offline: my.cnf, variables, status, hardware in; findings and a diff out.

    Exit status: 0 without a critical finding, 1 with one, 2 on bad input.
    """
    from advisor.audit import AuditInputs, run_audit
    from advisor.errors import InputError

    if output_dir is not None and output_format != "mycnf":
        raise click.UsageError("--output-dir goes with --format mycnf")
    if len(status) > 2:
        raise click.UsageError("--status takes one or two files")
    inputs = AuditInputs(
        mycnf={path: _read(path) or "" for path in mycnf},
        variables=_read(variables),
        status=tuple(_read(path) or "" for path in status),
        innodb_status=_read(innodb_status),
        schema=_read(schema),
        hardware=_read(hardware),
        memory=memory,
        memory_limit=memory_limit,
        cpus=cpus,
        storage=storage,
        server_version=server_version,
        role=Role(role) if role else _manifest_role(manifest),
        profile=Profile(profile),
        variables_name=variables or "variables",
        status_names=status,
        innodb_status_name=innodb_status or "innodb_status",
        schema_name=schema or "schema",
        hardware_name=hardware or "hardware.json",
    )
    try:
        result = run_audit(inputs)
    except InputError as exc:
        click.echo(f"innotune audit: {exc.describe()}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    if output_format == "json":
        click.echo(json.dumps(result.to_dict(), indent=2))
    elif output_format == "diff":
        click.echo(result.diff, nl=False)
    elif output_format == "mycnf":
        _print_or_write(result, output_dir)
    elif output_format == "dropin":
        _print_dropin(result)
    else:
        from cli.text_report import render_text

        click.echo(render_text(result, colour=sys.stdout.isatty()), nl=False)
    sys.exit(EXIT_CRITICAL if result.worst_severity == "critical" else EXIT_OK)
