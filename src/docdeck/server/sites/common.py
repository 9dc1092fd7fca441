"""Helpers the site routers share: loading a site for the caller, answering with its items,
and paging lists that are in structure order."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Annotated, Any

from fastapi import Query, Response

from docdeck.server.content import listing
from docdeck.server.http.context import Ctx
from docdeck.server.pagination import PageRequest, PageResult
from docdeck.server.sites import structure
from docdeck.server.sites.service import (
    SiteAccess,
    load_site,
    load_site_editor,
    share_key_site,
)
from docdeck.server.sites.wire import SITE_SELECT, SiteTree, site_json
from docdeck.server.wire import Json, no_content, respond, respond_list, respond_resource

ST = "/v1/orgs/{organizationId}/sites/{siteId}"
ShareKey = Annotated[str | None, Query(description="Resolves share-link URLs")]
"""`?shareKey=`: the secret of an active share link; published URLs in the answer carry it."""


def site_reply(ctx: Ctx, org_id: str, site_id: str, status: int = 200) -> Response:
    with ctx.db.read() as conn:
        load_site(conn, ctx, org_id, site_id)
        row = conn.execute(f"{SITE_SELECT} WHERE s.id = ?", (site_id,)).fetchone()
        body = site_json(ctx, row)
    return respond_resource(body, status)


def tree_for(
    ctx: Ctx, org_id: str, site_id: str, share_key: str | None = None
) -> tuple[SiteAccess, SiteTree]:
    with ctx.db.read() as conn:
        access = load_site(conn, ctx, org_id, site_id)
        key = share_key_site(conn, site_id, share_key)
        row = conn.execute(f"{SITE_SELECT} WHERE s.id = ?", (site_id,)).fetchone()
        return access, SiteTree.load(conn, ctx, row, access.member, key)


def item_reply(
    ctx: Ctx, org_id: str, site_id: str, kind: str, item_id: str, status: int = 200
) -> Response:
    _, tree = tree_for(ctx, org_id, site_id)
    body = tree.item(kind, item_id)
    headers = None
    if status == 201:
        plural = {"site-space": "site-spaces", "site-section": "sections"}.get(
            kind, "section-groups"
        )
        headers = {"Location": ctx.url(f"/v1/orgs/{org_id}/sites/{site_id}/{plural}/{item_id}")}
    return respond(body, status=status, headers=headers)


def editing(ctx: Ctx, conn: sqlite3.Connection, org_id: str, site_id: str) -> SiteAccess:
    """The site, for a caller who may change its structure (`create` or admin)."""
    return load_site_editor(conn, ctx, org_id, site_id, "change a site's structure")


Pointer = tuple[str, str] | None


def move_reply(
    ctx: Ctx, org_id: str, site_id: str, kind: str, item_id: str, before: Pointer, after: Pointer
) -> Response:
    """The reference's deprecated moves: `PATCH {ST}/structure/sort` with their own pointer
    shapes, answering the moved item."""
    with ctx.db.write() as conn:
        editing(ctx, conn, org_id, site_id)
        structure.sort_item(conn, site_id, kind, item_id, before, after)
    return item_reply(ctx, org_id, site_id, kind, item_id)


def delete_reply(ctx: Ctx, org_id: str, site_id: str, kind: str, item_id: str) -> Response:
    """204 whether or not the item existed."""
    with ctx.db.write() as conn:
        editing(ctx, conn, org_id, site_id)
        structure.delete_item(conn, site_id, kind, item_id)
    return no_content()


def list_reply(
    ctx: Ctx,
    keyed: Sequence[tuple[Sequence[Any], str]],
    request: PageRequest,
    scope: str,
    build: Callable[[str], Json],
) -> Response:
    """A list answer of items already in structure order, each with its sort key, paged as
    every list computed in memory is (`content.listing.page_of`: a keyset cursor holds the
    last key, so a walk neither repeats nor skips items while others are added or removed)."""
    with ctx.db.read() as conn:
        page = listing.page_of(conn, keyed, _sort_key, request, scope)
    items = [build(item) for _, item in page.items]
    result = PageResult([], page.count, page.next_page)
    return respond_list(items, result, finite=True)  # a site's items hold no float


def _sort_key(keyed: tuple[Sequence[Any], str]) -> tuple[Any, ...]:
    return tuple(keyed[0])
