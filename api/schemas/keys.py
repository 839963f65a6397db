"""API keys and the webhook secret, as the API shows them."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from api.schemas.common import InputModel, ReadModel


class ApiKeyCreate(InputModel):
    name: str = Field(min_length=1, max_length=200, description="What the key is for, e.g. `provisioning`.")


class ApiKeyRead(ReadModel):
    id: str
    name: str
    prefix: str = Field(description="The key's first characters, to tell keys apart; never the whole key.")
    created_at: datetime
    last_used_at: datetime | None = Field(description="The last request made with it (to the minute).")
    revoked_at: datetime | None


class ApiKeyCreated(ApiKeyRead):
    key: str = Field(description="The key itself: shown only in this response, stored only as a hash.")


class ApiKeyList(ReadModel):
    items: list[ApiKeyRead]


class WebhookSecret(ReadModel):
    secret: str = Field(
        description="Verifies the `webhook-signature` header of audit callbacks (Standard Webhooks, `whsec_…`)."
    )
