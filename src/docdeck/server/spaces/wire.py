"""Spaces as the wire writes them, from rows to
plain dicts (server/wire.py says why dicts)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from functools import cache
from typing import Any

import orjson

from docdeck.server.http.context import Ctx
from docdeck.server.pagination import PageResult
from docdeck.server.permissions import Membership, space_permissions, space_role
from docdeck.server.wire import Json, columns, wire_time


# Permissions depend only on the caller's role (and a flag or two), never on the item: each
# combination is dumped once and the dict shared by every response (never mutated), rather
# than built and dumped through a pydantic model for every item of every request.
@cache
def _space_permissions(role: str | None) -> Json:
    return space_permissions(role).model_dump(mode="json")


SPACE_COLUMNS = (
    "id",
    "icon",
    "title",
    "emoji",
    "visibility",
    "created_at",
    "updated_at",
    "edit_mode",
    "organization_id",
    "revision_id",
    "default_level",
    "comments",
    "change_requests",
    "change_requests_open",
    "change_requests_draft",
    "parent_id",
    "deleted_at",
)
"""The columns a space is written from (`space_values`), in this order."""


def space_json(ctx: Ctx, row: sqlite3.Row, role: str | None) -> Json:
    return space_values(ctx.sandbox.public_url, columns(row, SPACE_COLUMNS), role)


def space_values(base: str, values: Sequence[Any], role: str | None) -> Json:
    """A space from its `SPACE_COLUMNS` `values` (a plain row of a list, or `columns` of a
    `sqlite3.Row`), for a caller whose role in it is `role`; `base` is the public URL."""
    (
        space_id,
        icon,
        title,
        emoji,
        visibility,
        created_at,
        updated_at,
        edit_mode,
        org_id,
        revision_id,
        default_level,
        comments,
        change_requests,
        change_requests_open,
        change_requests_draft,
        parent_id,
        deleted_at,
    ) = values[:17]
    urls: Json = {
        "location": f"{base}/v1/spaces/{space_id}",
        "app": f"{base}/app/spaces/{space_id}",
    }
    if icon is not None:
        urls["icon"] = icon
    data: Json = {
        "object": "space",
        "id": space_id,
        "title": title,
        "emoji": emoji or "",
        "visibility": visibility,
        # `wire_time`, written out: two calls per space of a list otherwise
        "createdAt": created_at[:-8] + "Z" if created_at.endswith(".000000Z") else created_at,
        "updatedAt": updated_at[:-8] + "Z" if updated_at.endswith(".000000Z") else updated_at,
        "editMode": edit_mode,
        "urls": urls,
        "organization": org_id,
        "revision": revision_id,
        "defaultLevel": default_level,
        "comments": comments,
        "changeRequests": change_requests,
        "changeRequestsOpen": change_requests_open,
        "changeRequestsDraft": change_requests_draft,
        "permissions": _space_permissions(role),
    }
    if parent_id is not None:
        data["parent"] = parent_id
    if deleted_at is not None:
        data["deletedAt"] = wire_time(deleted_at)
    return data


@cache
def _permissions_text(role: str | None) -> bytes:
    return orjson.dumps(_space_permissions(role))


def spaces_page(base: str, page: PageResult, member: Membership, grants: dict[str, str]) -> bytes:
    """A page of spaces as `respond_list` encodes it (`finite`), from rows of a space's JSON
    text in four pieces (UTF-8) and its id (`spaces.service.page_of_spaces`), put together
    with the public URL `base` and the caller's permissions in each space (their role, raised
    by a grant where they have one)."""
    url = orjson.dumps(base)[1:-1]
    mine = _permissions_text(member.role)
    items = b",".join(
        [
            b"".join(
                (
                    row[0],
                    url,
                    row[1],
                    url,
                    row[2],
                    _permissions_text(space_role(member, grants, row[4]))
                    if row[4] in grants
                    else mine,
                    row[3],
                )
            )
            for row in page.rows
        ]
    )
    body = b'{"items":[' + items + b'],"count":' + str(page.count).encode()
    if page.next_page is not None:
        body += b',"next":{"page":' + orjson.dumps(page.next_page) + b"}"
    return body + b"}"
