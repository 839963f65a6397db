"""`innotune admin`: organisations, API keys and webhook secrets, for the operator at the server.

In the embedded default there is one organisation (`local`, the one the pages show): key commands
use it without `--org`, and `create-org` is refused. With a broker, name the organisation with `--org`.
Keys and secrets are printed once, as the last line, so `... | tail -n 1` captures them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import click
from sqlalchemy.orm import Session

ORG_OPTION = click.option(
    "--org", "org_id", default=None, help="Organisation id (not needed in the embedded default)."
)


@contextmanager
def _unit_of_work() -> Iterator[Session]:
    """A unit of work on a current schema; service errors become usage errors (exit 2)."""
    from conf.settings import get_settings
    from services.errors import ServiceError
    from store.db import build_engine, unit_of_work

    settings = get_settings()
    if settings.is_sqlite:  # the embedded default: make sure its database exists and is current
        from migrations.commands import upgrade

        build_engine(settings.database_url).dispose()
        upgrade(settings.database_url)
    try:
        with unit_of_work() as session:
            yield session
    except ServiceError as exc:
        raise click.UsageError(exc.detail) from None


def _organization_id(session: Session, org_id: str | None) -> str:
    from conf.settings import get_settings
    from services.orgs import local_organization
    from services.webhooks import organization_or_404

    if org_id:
        return organization_or_404(session, org_id).id
    if get_settings().embedded:
        return local_organization(session).id
    raise click.UsageError("name the organisation with --org (see `innotune admin orgs`)")


def _when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S") if moment is not None else "-"


@click.group()
def admin() -> None:
    """Administration: organisations, API keys and webhook secrets."""


@admin.command("create-org")
@click.argument("name")
def create_org(name: str) -> None:
    """Create an organisation and print its first API key as the last line (with a broker only).

    Prints the organisation's id, its webhook secret (verifies audit callbacks) and, last, the API
    key: `innotune admin create-org acme | tail -n 1` is the key.
    """
    from conf.settings import get_settings
    from services.orgs import create_organization
    from services.webhooks import webhook_secret

    if get_settings().embedded:
        raise click.UsageError(
            "the embedded default has one organisation, the one the pages show: "
            "`innotune admin create-key --name NAME` adds a key to it"
        )
    with _unit_of_work() as session:
        organization, key = create_organization(session, name)
        organization_id, secret = organization.id, webhook_secret(organization)
    click.echo(f"organization_id: {organization_id}")
    click.echo(f"webhook_secret: {secret}")
    click.echo(key)


@admin.command("orgs")
def list_orgs() -> None:
    """List the organisations (id, name, created)."""
    from store.repositories.organizations import list_organizations

    with _unit_of_work() as session:
        for organization in list_organizations(session):
            click.echo(f"{organization.id}  {_when(organization.created_at)}  {organization.name}")


@admin.command("create-key")
@click.option("--name", required=True, help="What the key is for (shown in listings).")
@ORG_OPTION
def create_key(name: str, org_id: str | None) -> None:
    """Add an API key and print it as the last line (shown only this once)."""
    from services.orgs import issue_api_key

    with _unit_of_work() as session:
        issued = issue_api_key(session, _organization_id(session, org_id), name)
        key_id, key = issued.row.id, issued.key
    click.echo(f"key_id: {key_id}")
    click.echo(key)


@admin.command("keys")
@ORG_OPTION
def list_keys(org_id: str | None) -> None:
    """List the organisation's keys: id, prefix, created, last used, revoked, name."""
    from services.orgs import list_api_keys

    with _unit_of_work() as session:
        rows = list_api_keys(session, _organization_id(session, org_id))
        click.echo("id  prefix  created  last_used  revoked  name")
        for row in rows:
            click.echo(
                f"{row.id}  {row.prefix}  {_when(row.created_at)}  {_when(row.last_used_at)}  "
                f"{_when(row.revoked_at)}  {row.name}"
            )


@admin.command("revoke-key")
@click.argument("key_id")
@ORG_OPTION
def revoke_key(key_id: str, org_id: str | None) -> None:
    """Revoke a key (by id): its requests and web sessions stop at once."""
    from services.orgs import revoke_key as revoke

    with _unit_of_work() as session:
        revoke(session, _organization_id(session, org_id), key_id)
    click.echo(f"revoked {key_id}", err=True)


@admin.command("rotate-key")
@click.argument("key_id")
@ORG_OPTION
def rotate_key(key_id: str, org_id: str | None) -> None:
    """Replace a key: print a new one with the same name (last line); the old one is revoked."""
    from services.orgs import rotate_key as rotate

    with _unit_of_work() as session:
        issued = rotate(session, _organization_id(session, org_id), key_id)
        new_id, key = issued.row.id, issued.key
    click.echo(f"key_id: {new_id}")
    click.echo(key)


@admin.command("webhook-secret")
@click.option("--rotate", is_flag=True, help="Replace the secret first (the old one stops at once).")
@ORG_OPTION
def show_webhook_secret(rotate: bool, org_id: str | None) -> None:
    """Print the secret that signs the organisation's audit callbacks (Standard Webhooks, `whsec_…`)."""
    from services.webhooks import organization_or_404, rotate_webhook_secret, webhook_secret

    with _unit_of_work() as session:
        organization_id = _organization_id(session, org_id)
        if rotate:
            secret = rotate_webhook_secret(session, organization_id)
        else:
            secret = webhook_secret(organization_or_404(session, organization_id))
    click.echo(secret)
