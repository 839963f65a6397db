"""`innotune collect`: snapshot a running server. The collector package is imported only when the
command runs, so `innotune audit` and `--help` stay fast."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from collector.connection import ConnectionOptions
    from collector.hardware import LocalFacts
    from collector.snapshot import Snapshot

EXIT_FAILED = 1


def _check_destination(
    output: str | None, upload: str | None, api_key: str | None, server: str | None
) -> None:
    if (output is None) == (upload is None):
        raise click.UsageError("give either --output DIR or --upload URL (with --api-key and --server)")
    if upload is not None and not (api_key and server):
        raise click.UsageError("--upload needs --api-key and --server")
    if output is not None and (api_key or server):
        raise click.UsageError("--api-key and --server go with --upload, not --output")


def _note(message: str) -> None:
    click.echo(f"innotune collect: {message}", err=True)


@click.command(name="collect")
@click.option("--host", metavar="H", help="Server host name or address.")
@click.option(
    "--port", metavar="P", type=click.IntRange(1, 65535), default=3306, show_default=True, help="TCP port."
)
@click.option("--socket", metavar="S", help="Unix socket path (instead of --host and --port).")
@click.option(
    "--user", metavar="U", required=True, help="Account to log in as (see docs/collector.md for its grants)."
)
@click.option(
    "--password-file",
    metavar="F",
    type=click.Path(dir_okay=False),
    help="File whose first line is the password; without it, $INNOTUNE_COLLECT_PASSWORD. Never on the command line.",
)
@click.option(
    "--interval",
    metavar="SECONDS",
    type=int,
    default=60,
    show_default=True,
    help="Seconds between the two SHOW GLOBAL STATUS samples (rates are measured over it; at least 10).",
)
@click.option(
    "--output",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="Write the files here for `innotune audit`.",
)
@click.option(
    "--upload", metavar="URL", help="Upload to the InnoTune service at URL as a snapshot of --server."
)
@click.option(
    "--api-key", metavar="K", envvar="INNOTUNE_API_KEY", help="API key for --upload (or $INNOTUNE_API_KEY)."
)
@click.option("--server", metavar="ID", help="Id of the server in the service, for --upload.")
@click.option(
    "--no-local-facts",
    is_flag=True,
    help="The server runs on another machine: leave out this machine's memory, CPUs and storage.",
)
@click.option(
    "--probe-storage/--no-probe-storage",
    default=True,
    help="Measure the datadir's storage (fsync and 16 KiB read latency, at most 3 s and 4 MiB; the "
    "file is removed). Default: on when the datadir is on this machine and writable.",
)
@click.option(
    "--audit",
    "then_audit",
    is_flag=True,
    help="With --output: audit the files at once, printing the report `innotune audit` prints.",
)
def collect_command(
    host: str | None,
    port: int,
    socket: str | None,
    user: str,
    password_file: str | None,
    interval: int,
    output: str | None,
    upload: str | None,
    api_key: str | None,
    server: str | None,
    no_local_facts: bool,
    probe_storage: bool,
    then_audit: bool,
) -> None:
    """Collect variables, status and InnoDB status from a running server.

    Reads SHOW GLOBAL VARIABLES, SHOW GLOBAL STATUS twice --interval seconds apart, SHOW ENGINE
    INNODB STATUS and the schema facts, plus this machine's hardware unless --no-local-facts.
    Passwords, statements and row data are removed before anything is written or sent. Writes the
    files `innotune audit` reads (--output) or uploads them as a snapshot (--upload).

    Exit status: 0 on success, 1 when the server or the service refused, 2 on bad usage.
    """
    _check_destination(output, upload, api_key, server)
    if host is None and socket is None:
        raise click.UsageError("give --host (and --port) or --socket")
    if then_audit and output is None:
        raise click.UsageError("--audit goes with --output DIR (it audits the files written there)")
    from collector.snapshot import MIN_INTERVAL_SECONDS

    if interval < MIN_INTERVAL_SECONDS:
        raise click.UsageError(
            f"--interval {interval} is too short: rates over less than {MIN_INTERVAL_SECONDS} s say little "
            f"(one flush, one burst); give {MIN_INTERVAL_SECONDS} or more (default 60)"
        )
    from collector.connection import ConnectionOptions, read_password
    from collector.errors import CollectError

    upload_to = (upload, api_key, server) if upload and api_key and server else None
    try:
        password = read_password(password_file, os.environ)
        options = ConnectionOptions(user=user, host=host, port=port, socket=socket, password=password)
        result = _collect(
            options, interval, Path(output) if output else None, upload_to, probe_storage, no_local_facts
        )
    except CollectError as exc:
        _note(str(exc))
        sys.exit(EXIT_FAILED)
    if isinstance(result, str):
        click.echo(result)
        return
    command = shlex.join(["innotune", "audit", *result])
    if not then_audit:
        click.echo(command)
        return
    from cli.audit_command import audit_command

    _note(f"auditing as: {command}")
    audit_command.main(args=result, prog_name="innotune audit", standalone_mode=True)


def _collect(
    options: ConnectionOptions,
    interval: int,
    output: Path | None,
    upload_to: tuple[str, str, str] | None,
    probe: bool,
    no_local_facts: bool,
) -> str | list[str]:
    """Take the snapshot and deliver it: the snapshot id when uploading, else the `innotune audit`
    arguments for the files written to `output`. Every note is printed and kept in the manifest.

    `upload_to` is (service URL, API key, server id) when uploading, None when writing to `output`.
    """
    from collector.connection import connect
    from collector.files import snapshot_files
    from collector.snapshot import take_snapshot

    connection = connect(options)
    try:
        snapshot = take_snapshot(
            connection,
            interval,
            on_wait=lambda seconds: _note(f"waiting {seconds} s for the second status sample"),
        )
    finally:
        if connection.open:  # a connection the server dropped mid-way is already closed
            connection.close()
    notes = list(snapshot.notes)
    facts = None if no_local_facts else _local_hardware(snapshot, probe, notes)
    for note in notes:
        _note(note)
    hardware = facts.spec if facts is not None else None
    if upload_to is None:
        from collector.output import write_snapshot

        return write_snapshot(snapshot, hardware, output or Path("."), notes, _host(facts))
    from collector.upload import upload_snapshot

    url, api_key, server_id = upload_to
    return upload_snapshot(snapshot_files(snapshot, hardware), url, api_key, server_id, snapshot.role)


def _host(facts: LocalFacts | None) -> dict[str, object] | None:
    """The manifest's account of this machine: the server process found, the storage and its probe."""
    if facts is None:
        return None
    return {
        "server_process": {"pid": facts.process.pid, "how": facts.process.how},
        "storage": {
            "kind": facts.spec.get("storage"),
            "how": facts.storage_how,
            "probe": facts.probe.to_dict() if facts.probe is not None else None,
        },
    }


def _local_hardware(snapshot: Snapshot, probe: bool, notes: list[str]) -> LocalFacts:
    """This machine's facts, with a warning when the server says it runs on another host."""
    import socket as socket_module

    from collector.hardware import local_hardware

    here, server_hostname = socket_module.gethostname(), snapshot.server_hostname
    if server_hostname and server_hostname.split(".")[0] != here.split(".")[0]:
        notes.append(
            f"the server calls itself {server_hostname}, this machine is {here}: the hardware facts describe "
            "this machine (use --no-local-facts if the server runs elsewhere)"
        )
    facts = local_hardware(snapshot.identity, probe=probe)
    notes.extend(f"hardware: {note}" for note in facts.notes)
    if facts.probe is not None:
        notes.append(f"storage probe: {facts.probe.describe()}")
    return facts
