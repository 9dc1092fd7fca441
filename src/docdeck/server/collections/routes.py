"""Collections: read, create, update, delete, list spaces, move, transfer."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Annotated

from fastapi import Body, Query, Response

from docdeck.models import (
    Collection,
    CollectionCreate,
    CollectionMove,
    CollectionUpdate,
    ListPage,
    Space,
    Transfer,
)
from docdeck.server.access import (
    load_collection,
    load_membership,
    require,
    require_admin,
    unless_missing,
)
from docdeck.server.collections import service
from docdeck.server.collections.wire import collection_json
from docdeck.server.http.context import Ctx
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.permissions import at_least, space_grants, space_role
from docdeck.server.spaces.wire import space_json
from docdeck.server.wire import no_content, respond_list, respond_resource

router = Router(tags=["collections"])


def _reply(ctx: Ctx, collection_id: str, status: int = 200) -> Response:
    with ctx.db.read() as conn:
        row, member = load_collection(conn, ctx, collection_id)
        body = collection_json(ctx, row, member)
    return respond_resource(body, status)


def _changed(
    ctx: Ctx,
    collection_id: str,
    action: str,
    change: Callable[[sqlite3.Connection, sqlite3.Row], object],
) -> Response:
    """An organization admin's change to a collection (`action` names it in the 403),
    answered with the collection as it is after."""
    with ctx.db.write() as conn:
        row, member = load_collection(conn, ctx, collection_id)
        require_admin(member, action)
        change(conn, row)
    return _reply(ctx, collection_id)


@router.get("/v1/collections/{collectionId}", "getCollectionById", Collection, 404)
async def get_collection(ctx: CtxDep, collectionId: str) -> Response:
    return _reply(ctx, collectionId)


@router.patch("/v1/collections/{collectionId}", "updateCollectionById", Collection, 403, 404)
def update_collection(
    ctx: CtxDep, collectionId: str, body: Annotated[CollectionUpdate, Body()]
) -> Response:
    return _changed(
        ctx,
        collectionId,
        "update collections",
        lambda conn, row: service.update_collection(conn, collectionId, body),
    )


@router.delete("/v1/collections/{collectionId}", "deleteCollectionById", None, 403, status=204)
def delete_collection(ctx: CtxDep, collectionId: str) -> Response:
    with ctx.db.write() as conn:
        found = unless_missing(lambda: load_collection(conn, ctx, collectionId))
        if found is None:
            return no_content()
        row, member = found
        require_admin(member, "delete collections")
        deleted = service.delete_collection(conn, row, ctx.now())
    if deleted:
        ctx.sandbox.purger.note_deleted(ctx.now())
    return no_content()


@router.get(
    "/v1/collections/{collectionId}/spaces", "listSpacesInCollectionById", ListPage[Space], 404
)
async def list_collection_spaces(ctx: CtxDep, collectionId: str, page: PageDep) -> Response:
    with ctx.db.read() as conn:
        row, member = load_collection(conn, ctx, collectionId)
        grants = space_grants(conn, row["organization_id"], ctx.caller.user_id)
        result = service.page_of_spaces(conn, collectionId, member, grants, page)
    items = [space_json(ctx, r, space_role(member, grants, r["id"])) for r in result.rows]
    return respond_list(items, result)


@router.post("/v1/collections/{collectionId}/move", "moveCollection", Collection, 403, 404, 409)
def move_collection(
    ctx: CtxDep, collectionId: str, body: Annotated[CollectionMove, Body()]
) -> Response:
    return _changed(
        ctx,
        collectionId,
        "move collections",
        lambda conn, row: service.move_collection(conn, row, body),
    )


@router.post(
    "/v1/collections/{collectionId}/transfer", "transferCollection", Collection, 403, 404, 409
)
def transfer_collection(
    ctx: CtxDep, collectionId: str, body: Annotated[Transfer, Body()]
) -> Response:
    return _changed(
        ctx,
        collectionId,
        "transfer collections",
        lambda conn, row: service.transfer_collection(
            conn, row, body.organization, ctx.caller.user_id
        ),
    )


@router.get(
    "/v1/orgs/{organizationId}/collections",
    "listCollectionsInOrganizationById",
    ListPage[Collection],
    404,
)
async def list_collections(
    ctx: CtxDep,
    organizationId: str,
    page: PageDep,
    nested: Annotated[bool, Query(description="false lists only top-level collections")] = True,
) -> Response:
    with ctx.db.read() as conn:
        member = load_membership(conn, ctx, organizationId)
        result = service.page_of_collections(conn, ctx, member, organizationId, nested, page)
    return respond_list([collection_json(ctx, r, member) for r in result.rows], result)


@router.post(
    "/v1/orgs/{organizationId}/collections", "createCollection", Collection, 403, 404, status=201
)
def create_collection(
    ctx: CtxDep, organizationId: str, body: Annotated[CollectionCreate | None, Body()] = None
) -> Response:
    with ctx.db.write() as conn:
        member = load_membership(conn, ctx, organizationId)
        require(at_least(member.role, "create"), "creating collections needs the create role")
        collection_id = service.create_collection(
            conn, organizationId, body or CollectionCreate(), ctx.now()
        )
    return _reply(ctx, collection_id, status=201)
