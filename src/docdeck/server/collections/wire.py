"""Collections as the wire writes them, from rows to
plain dicts (server/wire.py says why dicts)."""

from __future__ import annotations

import sqlite3
from functools import cache

from docdeck.server.http.context import Ctx
from docdeck.server.permissions import (
    Membership,
    collection_permissions,
)
from docdeck.server.wire import Json, columns, set_present


@cache
def _collection_permissions(role: str | None) -> Json:
    return collection_permissions(Membership("", "", role)).model_dump(mode="json")


_COLLECTION = ("id", "title", "organization_id", "default_level", "description", "parent_id")


def collection_json(ctx: Ctx, row: sqlite3.Row, member: Membership) -> Json:
    collection_id, title, org_id, default_level, description, parent_id = columns(row, _COLLECTION)
    base = ctx.sandbox.public_url
    data: Json = {
        "object": "collection",
        "id": collection_id,
        "title": title,
        "organization": org_id,
        "defaultLevel": default_level,
        "urls": {
            "location": f"{base}/v1/collections/{collection_id}",
            "app": f"{base}/app/collections/{collection_id}",
        },
        "permissions": _collection_permissions(member.role),
    }
    set_present(data, "description", description)
    set_present(data, "parent", parent_id)
    return data
