"""Each organisation's webhook secret: derived, never stored.

secret = HMAC-SHA256(the server's `webhook` key, organisation id and generation), written the
Standard Webhooks way (`whsec_` + base64 of 32 bytes). The database keeps only the generation number,
so a dump of it cannot sign a callback; rotating adds one to the generation (the old secret stops
signing at once).
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from sqlalchemy.orm import Session

from conf.server_secret import derived_key
from services.errors import NotFound
from store.models import Organization
from store.repositories import organizations as repository

SECRET_PREFIX = "whsec_"


def webhook_secret(organization: Organization) -> str:
    """The organisation's current webhook secret (`whsec_…`)."""
    message = f"{organization.id}|{organization.webhook_secret_generation}".encode()
    raw = hmac.new(derived_key("webhook"), message, hashlib.sha256).digest()
    return SECRET_PREFIX + base64.b64encode(raw).decode()


def organization_or_404(session: Session, organization_id: str) -> Organization:
    organization = repository.get_organization(session, organization_id)
    if organization is None:
        raise NotFound(f"no organisation {organization_id}")
    return organization


def rotate_webhook_secret(session: Session, organization_id: str) -> str:
    """Replace the organisation's webhook secret; the new one is returned (the old one stops at once)."""
    organization = organization_or_404(session, organization_id)
    organization.webhook_secret_generation += 1
    session.flush()
    return webhook_secret(organization)
