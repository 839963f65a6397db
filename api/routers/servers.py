"""/v1/servers: the servers an organisation audits."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from api.deps import CurrentOrg, DbSession, JsonBody, Pagination
from api.schemas.common import AUTHENTICATED, Page, problem_responses
from api.schemas.servers import ServerCreate, ServerRead, ServerUpdate
from services import servers
from services.servers import ServerFields

router = APIRouter(prefix="/v1/servers", tags=["servers"])


@router.post(
    "",
    status_code=201,
    summary="Register a server",
    dependencies=[JsonBody],
    responses=problem_responses(400, 409, 413, 415, 422, *AUTHENTICATED),
)
def create_server(body: ServerCreate, org: CurrentOrg, session: DbSession, response: Response) -> ServerRead:
    """Create a server; a name already used in the organisation is a 409."""
    fields = ServerFields(
        name=body.name,
        labels=body.labels,
        flavor=body.flavor,
        version=body.version,
        hardware=body.hardware_dict(),
        role=body.role,
        profile=body.profile,
        fleet=body.fleet,
        fleet_id=body.fleet_id,
    )
    server = servers.create_server(session, org.id, fields)
    response.headers["Location"] = f"{router.prefix}/{server.id}"
    return ServerRead.model_validate(server)


@router.get("", summary="List servers", responses=problem_responses(400, 422, *AUTHENTICATED))
def list_servers(
    org: CurrentOrg,
    session: DbSession,
    page: Pagination,
    fleet: Annotated[
        str | None, Query(description="Only servers of this fleet (its id or its name).")
    ] = None,
) -> Page[ServerRead]:
    """Servers oldest first, a page at a time."""
    found = servers.list_servers(
        session, org.id, fleet=fleet, cursor=page.cursor, limit=page.limit, newest=page.newest
    )
    return Page[ServerRead](
        items=[ServerRead.model_validate(server) for server in found.items], next_cursor=found.next_cursor
    )


@router.get("/{server_id}", summary="Get a server", responses=problem_responses(404, *AUTHENTICATED))
def get_server(server_id: str, org: CurrentOrg, session: DbSession) -> ServerRead:
    """One server of the caller's organisation (another organisation's is a 404)."""
    return ServerRead.model_validate(servers.get_server(session, org.id, server_id))


@router.patch(
    "/{server_id}",
    summary="Change a server",
    dependencies=[JsonBody],
    responses=problem_responses(400, 404, 409, 413, 415, 422, *AUTHENTICATED),
)
def update_server(server_id: str, body: ServerUpdate, org: CurrentOrg, session: DbSession) -> ServerRead:
    """Change the fields sent; the others keep their values."""
    return ServerRead.model_validate(servers.update_server(session, org.id, server_id, body.changes()))


@router.delete(
    "/{server_id}",
    status_code=204,
    summary="Delete a server",
    responses=problem_responses(404, *AUTHENTICATED),
)
def delete_server(server_id: str, org: CurrentOrg, session: DbSession) -> Response:
    """Delete a server with its snapshots and audits."""
    servers.delete_server(session, org.id, server_id)
    return Response(status_code=204)
