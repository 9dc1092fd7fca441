"""Spaces: read, create, update, delete, restore, duplicate, move, transfer, list."""

from __future__ import annotations

from typing import Annotated

from fastapi import Body, Query, Response

from docdeck.models import ListPage, Space, SpaceCreate, SpaceMove, SpaceUpdate, Transfer
from docdeck.server.access import (
    load_membership,
    load_space,
    require,
    require_admin,
    require_live,
    unless_missing,
)
from docdeck.server.http.context import Ctx
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.permissions import at_least, grants_that_raise
from docdeck.server.spaces import service
from docdeck.server.spaces.wire import space_json, spaces_page
from docdeck.server.wire import JsonBody, no_content, respond_resource

router = Router(tags=["spaces"])


def _require_space_admin(role: str | None, action: str) -> None:
    require(role == "admin", f"{action} needs the admin role on the space")


def _reply(ctx: Ctx, space_id: str, status: int = 200) -> Response:
    with ctx.db.read() as conn:
        access = load_space(conn, ctx, space_id)
        body = space_json(ctx, access.row, access.role)
    return respond_resource(body, status)


@router.get("/v1/spaces/{spaceId}", "getSpaceById", Space, 404)
async def get_space(
    ctx: CtxDep,
    spaceId: str,
    shareKey: Annotated[str | None, Query(description="Ignored by the sandbox")] = None,
) -> Response:
    return _reply(ctx, spaceId)


@router.patch("/v1/spaces/{spaceId}", "updateSpaceById", Space, 403, 404)
def update_space(ctx: CtxDep, spaceId: str, body: Annotated[SpaceUpdate, Body()]) -> Response:
    with ctx.db.write() as conn:
        access = load_space(conn, ctx, spaceId)
        require_live(access)
        _require_space_admin(access.role, "updating a space")
        service.update_space(conn, access.row, body, ctx.now())
    return _reply(ctx, spaceId)


@router.delete("/v1/spaces/{spaceId}", "deleteSpaceById", None, 403, status=204)
def delete_space(ctx: CtxDep, spaceId: str) -> Response:
    now = ctx.now()
    with ctx.db.write() as conn:
        access = unless_missing(lambda: load_space(conn, ctx, spaceId))
        if access is None:
            return no_content()
        _require_space_admin(access.role, "deleting a space")
        service.delete_space(conn, spaceId, now)
    ctx.sandbox.purger.note_deleted(now)
    return no_content()


@router.post("/v1/spaces/{spaceId}/restore", "restoreSpace", Space, 403, 404)
def restore_space(ctx: CtxDep, spaceId: str) -> Response:
    with ctx.db.write() as conn:
        access = load_space(conn, ctx, spaceId)
        _require_space_admin(access.role, "restoring a space")
        if access.row["deleted_at"] is not None:
            service.restore_space(conn, access.row, ctx.now())
    return _reply(ctx, spaceId)


@router.post("/v1/spaces/{spaceId}/duplicate", "duplicateSpace", Space, 403, 404, status=201)
def duplicate_space(ctx: CtxDep, spaceId: str) -> Response:
    with ctx.db.write() as conn:
        access = load_space(conn, ctx, spaceId)
        require_live(access)
        require(at_least(access.member.role, "create"), "duplicating a space needs the create role")
        copy_id = service.duplicate_space(conn, access.row, ctx.now())
    return _reply(ctx, copy_id, status=201)


@router.post("/v1/spaces/{spaceId}/move", "moveSpace", Space, 403, 404, 409)
def move_space(ctx: CtxDep, spaceId: str, body: Annotated[SpaceMove, Body()]) -> Response:
    with ctx.db.write() as conn:
        access = load_space(conn, ctx, spaceId)
        require_live(access)
        _require_space_admin(access.role, "moving a space")
        service.move_space(conn, access.row, body, ctx.now())
    return _reply(ctx, spaceId)


@router.post("/v1/spaces/{spaceId}/transfer", "transferSpace", Space, 403, 404, 409)
def transfer_space(ctx: CtxDep, spaceId: str, body: Annotated[Transfer, Body()]) -> Response:
    with ctx.db.write() as conn:
        access = load_space(conn, ctx, spaceId)
        require_live(access)
        require_admin(access.member, "transfer spaces")
        service.transfer_space(conn, access.row, body.organization, ctx.caller.user_id, ctx.now())
    return _reply(ctx, spaceId)


@router.get(
    "/v1/orgs/{organizationId}/spaces", "listSpacesInOrganizationById", ListPage[Space], 403, 404
)
async def list_spaces(
    ctx: CtxDep,
    organizationId: str,
    page: PageDep,
    deleted: Annotated[
        bool,
        Query(description="Sandbox extension: true lists the spaces deleted in the last 7 days"),
    ] = False,
) -> Response:
    with ctx.db.read() as conn:
        member = load_membership(conn, ctx, organizationId)
        grants = grants_that_raise(conn, member)
        if deleted:
            require_admin(member, "list deleted spaces")
        result = service.page_of_spaces(conn, ctx, member, grants, organizationId, deleted, page)
    return JsonBody(spaces_page(ctx.sandbox.public_url, result, member, grants))


@router.post("/v1/orgs/{organizationId}/spaces", "createSpace", Space, 403, 404, status=201)
def create_space(
    ctx: CtxDep, organizationId: str, body: Annotated[SpaceCreate | None, Body()] = None
) -> Response:
    with ctx.db.write() as conn:
        member = load_membership(conn, ctx, organizationId)
        require(at_least(member.role, "create"), "creating spaces needs the create role")
        space_id = service.create_space(conn, organizationId, body or SpaceCreate(), ctx.now())
    return _reply(ctx, space_id, status=201)
