"""Rows to wire-format models, and models to JSON responses.

Optional fields the platform does not allow to be null (`parent`, `deletedAt`, `lastSeenAt`,
...) are left out rather than sent as null, and responses are written with `exclude_unset`,
so every body matches the platform's OpenAPI schemas.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, TypeVar

from fastapi import Response
from pydantic import BaseModel

from docdeck.models import (
    Collection,
    ListPage,
    Member,
    Organization,
    Space,
    Team,
    User,
)
from docdeck.server.context import Ctx
from docdeck.server.ids import from_db
from docdeck.server.pagination import PageResult
from docdeck.server.permissions import (
    Membership,
    collection_permissions,
    organization_permissions,
    space_permissions,
    team_permissions,
)

M = TypeVar("M", bound=BaseModel)


def respond(model: BaseModel, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(
        model.model_dump_json(exclude_unset=True),
        status_code=status,
        media_type="application/json",
        headers=headers,
    )


def respond_list(items: list[M], page: PageResult) -> Response:
    envelope: dict[str, Any] = {"items": items, "count": page.count}
    if page.next_page is not None:
        envelope["next"] = {"page": page.next_page}
    return respond(ListPage[Any].model_validate(envelope))


def no_content() -> Response:
    return Response(status_code=204)


def _set(data: dict[str, Any], key: str, value: Any) -> None:
    if value is not None:
        data[key] = value


def user_model(ctx: Ctx, row: sqlite3.Row) -> User:
    data: dict[str, Any] = {
        "object": "user",
        "id": row["user_id"],
        "displayName": row["display_name"],
        "email": row["email"],
        "urls": {"location": ctx.url(f"/v1/users/{row['user_id']}")},
    }
    _set(data, "photoURL", row["photo_url"])
    return User.model_validate(data)


def organization_model(
    ctx: Ctx, row: sqlite3.Row, member: Membership | None, owns_team: bool
) -> Organization:
    urls: dict[str, Any] = {
        "location": ctx.url(f"/v1/orgs/{row['id']}"),
        "app": ctx.url(f"/app/orgs/{row['id']}"),
    }
    _set(urls, "logo", row["logo"])
    data: dict[str, Any] = {
        "object": "organization",
        "id": row["id"],
        "title": row["title"],
        "createdAt": from_db(row["created_at"]),
        "emailDomains": json.loads(row["email_domains"]),
        "type": row["type"],
        "defaultRole": row["default_role"],
        "sso": bool(row["sso"]),
        "ai": bool(row["ai"]),
        "inviteLinks": bool(row["invite_links"]),
        "plan": row["plan"],
        "urls": urls,
        "trial": {"status": "notapplicable"},
        "permissions": organization_permissions(member, owns_team),
    }
    _set(data, "hostname", row["hostname"])
    _set(data, "useCase", row["use_case"])
    _set(data, "communityType", row["community_type"])
    return Organization.model_validate(data)


MEMBER_SELECT = """
    SELECT m.organization_id, m.user_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at,
        u.email, u.display_name, u.photo_url,
        (SELECT COUNT(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id
            WHERE tm.user_id = m.user_id AND t.organization_id = m.organization_id) AS team_count,
        CASE WHEN m.role IS NOT NULL THEN
            (SELECT COUNT(*) FROM spaces s
                WHERE s.organization_id = m.organization_id AND s.deleted_at IS NULL)
        ELSE
            (SELECT COUNT(DISTINCT g.space_id) FROM space_grants g
                JOIN spaces s ON s.id = g.space_id
                WHERE s.organization_id = m.organization_id AND s.deleted_at IS NULL
                AND (g.user_id = m.user_id OR g.team_id IN
                    (SELECT team_id FROM team_members WHERE user_id = m.user_id)))
        END AS space_count
"""
MEMBER_FROM = "FROM members m JOIN users u ON u.id = m.user_id"


def member_model(ctx: Ctx, row: sqlite3.Row) -> Member:
    data: dict[str, Any] = {
        "object": "member",
        "id": row["user_id"],
        "role": row["role"],
        "user": user_model(ctx, row),
        "disabled": bool(row["disabled"]),
        "joinedAt": from_db(row["joined_at"]),
        "sso": bool(row["sso"]),
        "spaces": row["space_count"],
        "teams": row["team_count"],
    }
    if row["last_seen_at"] is not None:
        data["lastSeenAt"] = from_db(row["last_seen_at"])
    return Member.model_validate(data)


TEAM_SELECT = """
    SELECT t.id, t.organization_id, t.title, t.created_at,
        (SELECT COUNT(*) FROM team_members tm WHERE tm.team_id = t.id) AS member_count,
        (SELECT COUNT(DISTINCT g.space_id) FROM space_grants g JOIN spaces s ON s.id = g.space_id
            WHERE g.team_id = t.id AND s.deleted_at IS NULL) AS space_count,
        (SELECT role FROM team_members tm WHERE tm.team_id = t.id AND tm.user_id = ?) AS my_role
"""


def team_model(row: sqlite3.Row, member: Membership) -> Team:
    return Team.model_validate(
        {
            "object": "team",
            "id": row["id"],
            "title": row["title"],
            "members": row["member_count"],
            "spaces": row["space_count"],
            "createdAt": from_db(row["created_at"]),
            "permissions": team_permissions(member, row["my_role"]),
        }
    )


def collection_model(ctx: Ctx, row: sqlite3.Row, member: Membership) -> Collection:
    data: dict[str, Any] = {
        "object": "collection",
        "id": row["id"],
        "title": row["title"],
        "organization": row["organization_id"],
        "defaultLevel": row["default_level"],
        "urls": {
            "location": ctx.url(f"/v1/collections/{row['id']}"),
            "app": ctx.url(f"/app/collections/{row['id']}"),
        },
        "permissions": collection_permissions(member),
    }
    _set(data, "description", row["description"])
    _set(data, "parent", row["parent_id"])
    return Collection.model_validate(data)


def space_model(ctx: Ctx, row: sqlite3.Row, role: str | None) -> Space:
    urls: dict[str, Any] = {
        "location": ctx.url(f"/v1/spaces/{row['id']}"),
        "app": ctx.url(f"/app/spaces/{row['id']}"),
    }
    _set(urls, "icon", row["icon"])
    data: dict[str, Any] = {
        "object": "space",
        "id": row["id"],
        "title": row["title"],
        "emoji": row["emoji"] or "",
        "visibility": row["visibility"],
        "createdAt": from_db(row["created_at"]),
        "updatedAt": from_db(row["updated_at"]),
        "editMode": row["edit_mode"],
        "urls": urls,
        "organization": row["organization_id"],
        "revision": row["revision_id"],
        "defaultLevel": row["default_level"],
        # Comments and change requests arrive with their own issues; none exist yet.
        "comments": 0,
        "changeRequests": 0,
        "changeRequestsOpen": 0,
        "changeRequestsDraft": 0,
        "permissions": space_permissions(role),
    }
    _set(data, "parent", row["parent_id"])
    if row["deleted_at"] is not None:
        data["deletedAt"] = from_db(row["deleted_at"])
    return Space.model_validate(data)
