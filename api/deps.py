"""Dependencies shared by the routers: the request's unit of work, the caller's organisation,
pagination, and the content types a body must have.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import Depends, Header, Query, Request
from fastapi.concurrency import contextmanager_in_threadpool, run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from api.problems import BEARER_CHALLENGE, Problem
from api.ratelimit import enforce_rate_limit
from services.errors import InvalidInput
from services.jobs.buffer import collecting_jobs
from services.orgs import organization_for_key
from services.pagination import DEFAULT_LIMIT, MAX_LIMIT, decode_cursor
from store.db import unit_of_work as transaction
from store.models import Organization

JSON_MEDIA_TYPE = "application/json"
MULTIPART_MEDIA_TYPE = "multipart/form-data"
#: the longest a request may long-poll; a larger ?wait is quietly capped to this.
MAX_WAIT_SECONDS = 60.0


async def get_session() -> AsyncIterator[Session]:
    """One unit of work per request: committed when the handler returns cleanly, else rolled back;
    the jobs the request enqueued are sent after the commit (and dropped with a rollback).

    The job buffer is opened here, in the request's task, so the handler's threadpool calls (which
    run in copies of this context) enqueue into it; the transaction itself runs in the threadpool.
    """
    with collecting_jobs() as jobs:
        async with contextmanager_in_threadpool(transaction()) as session:
            yield session
        await run_in_threadpool(jobs.flush)


# scope="function": the commit (and the jobs' sending) happens before the response is sent, so a
# client that reads right after a 201 finds what it created.
DbSession = Annotated[Session, Depends(get_session, scope="function")]

_bearer = HTTPBearer(auto_error=False, description="An API key of your organisation.")


def current_organization(
    request: Request,
    session: DbSession,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Organization:
    """The organisation of the Bearer key (401 without a valid key), after its rate limit (429)."""
    if credentials is None or not credentials.credentials:
        raise Problem(401, "Send an API key as `Authorization: Bearer <key>`.", headers=BEARER_CHALLENGE)
    organization = organization_for_key(session, credentials.credentials)
    if organization is None:
        raise Problem(401, "The API key is unknown or revoked.", headers=BEARER_CHALLENGE)
    request.state.organization_id = organization.id  # for the access log
    enforce_rate_limit(request.app.state.rate_limiter, organization.id)
    # End the lookup's read-only transaction: its connection goes back to the pool while an upload
    # streams in or a long-poll waits. The organisation stays usable (expire_on_commit is off).
    session.commit()
    return organization


CurrentOrg = Annotated[Organization, Depends(current_organization)]


@dataclass(frozen=True)
class PageQuery:
    """Where a list resumes (an opaque cursor from the previous page) and how many items it holds."""

    cursor: str | None
    limit: int
    #: newest first (`order=newest`) instead of oldest first.
    newest: bool = False


def page_query(
    cursor: Annotated[str | None, Query(description="`next_cursor` of the previous page.")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT, description="Items per page.")] = DEFAULT_LIMIT,
    order: Annotated[
        Literal["oldest", "newest"],
        Query(
            description="`oldest` first (the default) or `newest` first; pass the same order with a cursor."
        ),
    ] = "oldest",
) -> PageQuery:
    """Read ?cursor=&limit=; a cursor that is not one of ours is a 400."""
    if cursor:
        try:
            decode_cursor(cursor)
        except InvalidInput as exc:
            raise Problem(400, exc.detail.capitalize()) from None
    return PageQuery(cursor=cursor or None, limit=limit, newest=order == "newest")


Pagination = Annotated[PageQuery, Depends(page_query)]

IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        max_length=200,
        description="Retries with the same key return the same audit; another body with it is a 409.",
    ),
]

WaitSeconds = Annotated[
    float,
    Query(
        ge=0,
        description=f"Long-poll up to this many seconds for the audit to finish (at most {MAX_WAIT_SECONDS:g}).",
    ),
]


def media_type(request: Request) -> str:
    """The request's media type without parameters, lower-cased ('' when absent)."""
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower()


def is_json(request: Request) -> bool:
    kind = media_type(request)
    return kind == JSON_MEDIA_TYPE or (kind.startswith("application/") and kind.endswith("+json"))


def require_json(request: Request) -> None:
    """415 unless the body is declared as JSON."""
    if not is_json(request):
        raise Problem(415, "Send the request body as application/json.")


JsonBody = Depends(require_json)
