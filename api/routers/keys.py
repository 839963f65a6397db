"""/v1/keys and /v1/webhook-secret: an organisation manages its own API keys and callback secret.

Any key of the organisation may do this (keys are the organisation's admin credentials). Revoking or
rotating a key ends its web sessions too; the key making the request may revoke itself.
"""

from __future__ import annotations

from fastapi import APIRouter, Response

from api.deps import CurrentOrg, DbSession, JsonBody
from api.schemas.common import AUTHENTICATED, problem_responses
from api.schemas.keys import ApiKeyCreate, ApiKeyCreated, ApiKeyList, ApiKeyRead, WebhookSecret
from services import orgs, webhooks

router = APIRouter(prefix="/v1", tags=["keys"])


def _created(issued: orgs.IssuedKey) -> ApiKeyCreated:
    return ApiKeyCreated.model_validate(
        {**ApiKeyRead.model_validate(issued.row).model_dump(), "key": issued.key}
    )


@router.get("/keys", summary="List API keys", responses=problem_responses(*AUTHENTICATED))
def list_keys(org: CurrentOrg, session: DbSession) -> ApiKeyList:
    """Every key of the organisation, revoked ones too, oldest first, with when each was last used."""
    return ApiKeyList(items=[ApiKeyRead.model_validate(row) for row in orgs.list_api_keys(session, org.id)])


@router.post(
    "/keys",
    status_code=201,
    summary="Create an API key",
    dependencies=[JsonBody],
    responses=problem_responses(400, 415, 422, *AUTHENTICATED),
)
def create_key(body: ApiKeyCreate, org: CurrentOrg, session: DbSession, response: Response) -> ApiKeyCreated:
    """A new named key; the key itself is in this response only."""
    issued = orgs.issue_api_key(session, org.id, body.name)
    response.headers["Location"] = f"/v1/keys/{issued.row.id}"
    return _created(issued)


@router.post(
    "/keys/{key_id}/rotate",
    status_code=201,
    summary="Rotate an API key",
    responses=problem_responses(400, 404, *AUTHENTICATED),
)
def rotate_key(key_id: str, org: CurrentOrg, session: DbSession) -> ApiKeyCreated:
    """A new key with the same name; the old key (and its web sessions) stop working at once."""
    return _created(orgs.rotate_key(session, org.id, key_id))


@router.delete(
    "/keys/{key_id}",
    status_code=204,
    summary="Revoke an API key",
    responses=problem_responses(404, *AUTHENTICATED),
)
def revoke_key(key_id: str, org: CurrentOrg, session: DbSession) -> Response:
    """The key, and the web sessions it opened, stop working at once. Revoking twice is no error."""
    orgs.revoke_key(session, org.id, key_id)
    return Response(status_code=204)


@router.get("/webhook-secret", summary="Get the webhook secret", responses=problem_responses(*AUTHENTICATED))
def get_webhook_secret(org: CurrentOrg) -> WebhookSecret:
    """The secret that signs this organisation's audit callbacks."""
    return WebhookSecret(secret=webhooks.webhook_secret(org))


@router.post(
    "/webhook-secret/rotate",
    summary="Rotate the webhook secret",
    responses=problem_responses(404, *AUTHENTICATED),
)
def rotate_webhook_secret(org: CurrentOrg, session: DbSession) -> WebhookSecret:
    """A new secret; callbacks sent from now on are signed with it, and the old one no longer verifies."""
    return WebhookSecret(secret=webhooks.rotate_webhook_secret(session, org.id))
