"""What `innotune audit` does once its options are read — without click, so the console script can run
it directly (see cli.audit_options); click's command calls the same function."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, TextIO

from advisor.inputs.upload_text import decode_option_file
from advisor.model import Profile, Role
from advisor.patterns import lazy
from advisor.unidiff import relative_path

if TYPE_CHECKING:
    from advisor.model import AuditResult

EXIT_OK, EXIT_CRITICAL, EXIT_BAD_INPUT = 0, 1, 2

#: the terminal escapes click.echo strips from text written to something that is not a terminal
_ANSI = lazy(r"\033\[[0-?]*[ -/]*[@-~]")


class UsageProblem(Exception):
    """A mistake on the command line; click's command reports it as a usage error."""


def echo(message: str, *, err: bool = False, nl: bool = True) -> None:
    """Write like click.echo does for text: escapes stripped unless the stream is a terminal."""
    stream: TextIO = sys.stderr if err else sys.stdout
    text = f"{message}\n" if nl else message
    if not text:
        stream.flush()
        return
    if "\033" in text and not stream.isatty():
        text = _ANSI().sub("", text)
    stream.write(text)
    stream.flush()


def _read(path: str | None, *, option_file: bool = False) -> str | None:
    """The file's text; an option file's Latin-1 comments read as such (advisor.inputs.upload_text)."""
    if path is None:
        return None
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as exc:
        raise UsageProblem(f"{path}: cannot read ({exc.strerror})") from exc
    return decode_option_file(data) if option_file else data.decode("utf-8", errors="surrogateescape")


def _print_or_write(result: AuditResult, output_dir: str | None) -> None:
    """Write each recommended file under `output_dir` with its path, or print the main one."""
    if output_dir is None:
        echo(result.mycnf, nl=False)
        if len(result.files) > 1:
            echo(
                f"innotune audit: {len(result.files) - 1} more recommended file(s); "
                "--output-dir DIR writes them all",
                err=True,
            )
        return
    from pathlib import Path  # only here: pathlib costs ~2 ms of start-up

    root = Path(output_dir)
    for file in result.files:
        path = file.installed_path or file.path  # where the server reads it, when an include said so
        relative = relative_path(path)
        if relative is None and not Path(path).is_absolute():
            # `../orig/my.cnf` climbs out of the folder: written under it by its absolute path instead
            relative = relative_path(str(Path(path).resolve()))
        if relative is None:
            raise UsageProblem(f"{path}: a path outside the output folder")
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(file.recommended.encode("utf-8", errors="surrogateescape"))
        echo(f"wrote {target}", err=True)
    for line in result.secrets_kept_out:
        echo(
            f"innotune audit: {line} holds a secret: kept out of the copy, copy your line back "
            "as the comment in its place says",
            err=True,
        )


def _print_dropin(result: AuditResult) -> None:
    """The override file, then (on stderr) where it goes and what it cannot do."""
    dropin = result.dropin
    if dropin is None:
        echo("innotune audit: nothing to change, no drop-in file", err=True)
        return
    echo(dropin.text, nl=False)
    echo(f"innotune audit: install it as {dropin.path}", err=True)
    if dropin.include_line:
        echo(f"innotune audit: and append `{dropin.include_line}` to {dropin.include_into}", err=True)
    if dropin.include_note:
        echo(f"innotune audit: the server does not read it yet: {dropin.include_note}", err=True)
    for item in dropin.cannot_fix:  # also at the file's end, but a tool installing it reads stderr
        echo(f"innotune audit: the drop-in cannot fix this: {item}", err=True)


def _manifest_role(path: str | None) -> Role:
    """The role the collector detected (manifest.json `role.role`); standalone without a manifest."""
    if path is None:
        return Role.STANDALONE
    text = _read(path) or ""
    try:
        found = (json.loads(text).get("role") or {}).get("role")
    except (ValueError, AttributeError):
        raise UsageProblem(f"{path}: not a manifest.json of `innotune collect`") from None
    if found is None:  # a manifest whose collector could not tell
        return Role.STANDALONE
    if found not in {role.value for role in Role}:
        raise UsageProblem(f"{path}: no known role in the manifest (got {found!r}); give --role")
    return Role(found)


def run_audit_command(
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
    persisted: str | None = None,
) -> int:
    """Audit, print in the chosen format and return the exit status; UsageProblem on a bad command line."""
    from advisor.audit import AuditInputs, run_audit
    from advisor.errors import InputError

    if output_dir is not None and output_format != "mycnf":
        raise UsageProblem("--output-dir goes with --format mycnf")
    if len(status) > 2:
        raise UsageProblem("--status takes one or two files")
    inputs = AuditInputs(
        mycnf={path: _read(path, option_file=True) or "" for path in mycnf},
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
        persisted=_read(persisted),
        persisted_name=persisted or "persisted",
    )
    try:
        result = run_audit(inputs)
    except InputError as exc:
        from advisor.redact_inputs import redact_message

        echo(f"innotune audit: {redact_message(exc.describe())}", err=True)  # it may quote a secret line
        return EXIT_BAD_INPUT
    if output_format == "json":
        echo(json.dumps(result.to_dict(), indent=2))
    elif output_format == "diff":
        echo(result.diff, nl=False)
    elif output_format == "mycnf":
        _print_or_write(result, output_dir)
    elif output_format == "dropin":
        _print_dropin(result)
    else:
        from cli.text_report import render_text

        echo(render_text(result, colour=sys.stdout.isatty()), nl=False)
    return EXIT_CRITICAL if result.worst_severity == "critical" else EXIT_OK
