"""Organisations and API keys: keys are shown once, stored hashed, and revocable."""

from __future__ import annotations

import hashlib

from sqlalchemy import select

from services.orgs import create_api_key, create_organization, organization_for_key, revoke_api_key
from store.db import unit_of_work
from store.models import ApiKey, Organization
from tests.fixtures.real_services import ServiceUrls
from tests.fixtures.service_data import OrganizationHandle


def test_key_is_stored_as_its_sha256_only(service_settings: ServiceUrls) -> None:
    """The api_keys row holds the SHA-256 of the key and a short prefix, never the key itself."""
    with unit_of_work() as session:
        organization, key = create_organization(session, "hash-check")
        organization_id = organization.id
    assert key.startswith("itk_") and len(key) >= 40
    with unit_of_work() as session:
        rows = session.scalars(select(ApiKey).where(ApiKey.organization_id == organization_id)).all()
        stored = session.get(Organization, organization_id)
    assert len(rows) == 1
    assert rows[0].key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert rows[0].prefix == key[:12] and key not in (rows[0].key_hash, rows[0].prefix)
    assert stored is not None and rows[0].name == "first key"


def test_key_finds_its_organisation(organization: OrganizationHandle) -> None:
    """A key authenticates as its own organisation; an unknown or mangled key as nobody."""
    with unit_of_work() as session:
        found = organization_for_key(session, organization.key)
        assert found is not None and found.id == organization.id
        assert organization_for_key(session, organization.key[:-1] + "x") is None
        assert organization_for_key(session, "not-a-key") is None


def test_revoked_key_authenticates_nobody(organization: OrganizationHandle) -> None:
    """After revocation the key is refused; another key of the organisation still works."""
    with unit_of_work() as session:
        second = create_api_key(session, organization.id)
        assert revoke_api_key(session, organization.id, organization.key)
        assert not revoke_api_key(session, organization.id, organization.key)
    with unit_of_work() as session:
        assert organization_for_key(session, organization.key) is None
        found = organization_for_key(session, second)
        assert found is not None and found.id == organization.id


def test_keys_differ_between_organisations(
    organization: OrganizationHandle, other_organization: OrganizationHandle
) -> None:
    """Each organisation gets its own key and webhook secret."""
    assert organization.key != other_organization.key
    assert organization.webhook_secret != other_organization.webhook_secret
    with unit_of_work() as session:
        found = organization_for_key(session, other_organization.key)
        assert found is not None and found.id == other_organization.id
