"""The items of a site's structure - sections, section groups and site spaces - declared once:
each kind is listed, added, updated, deleted and moved the same way, through the structure
service; an `ItemKind` names what differs (paths, models, operation ids, the service calls,
how a deprecated move names its neighbours, and the list's own filters).

The routes keep the order, parameters and summaries they had when written out per kind, so
`/openapi.json` is unchanged. Annotations are evaluated here (no `from __future__ import
annotations`): FastAPI reads them from handlers a factory makes.
"""

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Response
from starlette.routing import BaseRoute

from docdeck.models import ListPage
from docdeck.server.http.openapi import errors
from docdeck.server.http.params import CtxDep, PageDep, with_scope_ids
from docdeck.server.sites import structure
from docdeck.server.sites.common import (
    ST,
    Pointer,
    ShareKey,
    delete_reply,
    editing,
    item_reply,
    list_reply,
    move_reply,
)
from docdeck.server.sites.common import tree_for as _tree_for
from docdeck.server.sites.wire import SiteTree

SITE = ("organizationId", "siteId")
DefaultQuery = Annotated[
    bool | None, Query(description="true: only default site spaces; false: only the others")
]


@dataclass(frozen=True)
class ItemKind:
    """One kind of item in a site's structure, and what its routes do differently."""

    kind: str
    """The structure service's name for it (`site-section`)."""
    path: str
    """The collection's path under the site (`/sections`)."""
    id_param: str
    singular: str
    plural: str
    """The words of the summaries (`List Sections`, `Add Section`)."""
    cursor: str
    """The list's cursor scope (with `?default=`, followed by its value)."""
    operations: tuple[str, str, str, str, str]
    """The platform's operation ids: list, add, update, delete, move."""
    model: Any
    create: Any
    update: Any
    move: Any
    add: Callable[[sqlite3.Connection, sqlite3.Row, Any], str]
    """Adds the item (the site's row, the body) and says its id."""
    change: Callable[[sqlite3.Connection, sqlite3.Row, sqlite3.Row, Any], None]
    """Updates the item (the site's row, the item's row, the body)."""
    neighbour: Callable[[Any], Pointer]
    """The item a deprecated move's `position.before`/`after` names."""
    keyed: Callable[[SiteTree], Any]
    item: Callable[[SiteTree], Any]
    shared: bool = True
    """Whether the list resolves share-link URLs (`?shareKey=`)."""
    by_default: bool = False
    """Whether the list filters on `?default=`."""


def _list(spec: ItemKind) -> Callable[..., Any]:
    async def list_items(
        ctx: CtxDep,
        page: PageDep,
        shareKey: ShareKey = None,
        default: DefaultQuery = None,
        **where: str,
    ) -> Response:
        _, tree = _tree_for(ctx, where["organizationId"], where["siteId"], shareKey)
        keyed = spec.keyed(tree)
        if default is not None:
            keyed = [(k, i) for k, i in keyed if bool(tree.site_spaces[i]["is_default"]) == default]
        cursor = f"{spec.cursor}:{default}" if spec.by_default else spec.cursor
        return list_reply(ctx, keyed, page, cursor, spec.item(tree))

    return list_items


def _add(spec: ItemKind) -> Callable[..., Any]:
    def add_item(ctx: CtxDep, body: Any, **where: str) -> Response:
        org, site = where["organizationId"], where["siteId"]
        with ctx.db.write() as conn:
            access = editing(ctx, conn, org, site)
            item_id = spec.add(conn, access.row, body)
        return item_reply(ctx, org, site, spec.kind, item_id, status=201)

    return add_item


def _update(spec: ItemKind) -> Callable[..., Any]:
    def update_item(ctx: CtxDep, body: Any, **where: str) -> Response:
        org, site, item_id = where["organizationId"], where["siteId"], where[spec.id_param]
        with ctx.db.write() as conn:
            access = editing(ctx, conn, org, site)
            row = structure.load_item(conn, site, spec.kind, item_id)
            spec.change(conn, access.row, row, body)
        return item_reply(ctx, org, site, spec.kind, item_id)

    return update_item


def _delete(spec: ItemKind) -> Callable[..., Any]:
    def delete_item(ctx: CtxDep, **where: str) -> Response:
        org, site = where["organizationId"], where["siteId"]
        return delete_reply(ctx, org, site, spec.kind, where[spec.id_param])

    return delete_item


def _move(spec: ItemKind) -> Callable[..., Any]:
    def move_item(ctx: CtxDep, body: Any = None, **where: str) -> Response:
        """Deprecated by the platform for `PATCH {ST}/structure/sort`; the same move."""
        position = body.position if body else None
        before: Pointer = None
        after: Pointer = None
        if position is not None and position.before is not None:
            before = spec.neighbour(position.before)
        if position is not None and position.after is not None:
            after = spec.neighbour(position.after)
        org, site = where["organizationId"], where["siteId"]
        return move_reply(ctx, org, site, spec.kind, where[spec.id_param], before, after)

    return move_item


def item_routes(
    spec: ItemKind, tag: str, *, before_move: list[BaseRoute] | None = None
) -> list[BaseRoute]:
    """The list, add, update, delete and move routes of `spec`'s items (`before_move`: the
    kind's own routes, listed before its move as the platform's document does)."""
    router = APIRouter(tags=[tag])
    one = f"{ST}{spec.path}/{{{spec.id_param}}}"
    item_ids = (*SITE, spec.id_param)
    list_id, add_id, update_id, delete_id, move_id = spec.operations
    without = ("default",) if not spec.by_default else ()
    if not spec.shared:
        without = (*without, "shareKey")
    listed: Any = ListPage[spec.model]  # type: ignore[name-defined]  # a model chosen at run time
    declared: list[tuple[str, str, Callable[..., Any], dict[str, Any]]] = [
        (
            "GET",
            f"{ST}{spec.path}",
            with_scope_ids(_list(spec), SITE, without=without),
            {"response_model": listed, "operation_id": list_id},
        ),
        (
            "POST",
            f"{ST}{spec.path}",
            with_scope_ids(_add(spec), SITE, annotations={"body": Annotated[spec.create, Body()]}),
            {"status_code": 201, "response_model": spec.model, "operation_id": add_id},
        ),
        (
            "PATCH",
            one,
            with_scope_ids(
                _update(spec), item_ids, annotations={"body": Annotated[spec.update, Body()]}
            ),
            {"response_model": spec.model, "operation_id": update_id},
        ),
        (
            "DELETE",
            one,
            with_scope_ids(_delete(spec), item_ids),
            {"status_code": 204, "operation_id": delete_id},
        ),
    ]
    verbs = ("Add", "Update", "Delete")
    summaries = (f"List {spec.plural}", *(f"{verb} {spec.singular}" for verb in verbs))
    for (method, path, handler, route), summary in zip(declared, summaries, strict=True):
        router.add_api_route(
            path, handler, methods=[method], summary=summary, responses=errors(403, 404), **route
        )
    router.routes.extend(before_move or [])
    move = with_scope_ids(
        _move(spec), item_ids, annotations={"body": Annotated[spec.move | None, Body()]}
    )
    router.add_api_route(
        f"{one}/move",
        move,
        methods=["POST"],
        summary=f"Move {spec.singular}",
        response_model=spec.model,
        deprecated=True,
        operation_id=move_id,
        responses=errors(403, 404),
    )
    return router.routes
