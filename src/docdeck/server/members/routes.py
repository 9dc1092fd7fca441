"""Organization members: list with filters, read, role changes, removal, SSO, spaces, teams."""

from __future__ import annotations

import sqlite3
from typing import Annotated, Any

from fastapi import Body, Query, Response

from docdeck.models import (
    ListOrder,
    ListPage,
    Member,
    MemberRoleFilter,
    MemberSort,
    MemberSpace,
    MemberTeam,
    MemberUpdate,
    User,
)
from docdeck.server.access import (
    load_admin,
    load_membership,
    require_member,
)
from docdeck.server.errors import bad_request, found, not_found
from docdeck.server.http.context import Ctx
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep, PageDep, contains
from docdeck.server.members.service import (
    MEMBER_COLUMNS,
    MEMBER_FROM,
    MEMBER_SEARCH,
    TEAM_SELECT,
    list_standing,
    live_spaces_for,
    member_from,
    member_index,
    member_page_select,
)
from docdeck.server.members.wire import members_json, members_page, user_json
from docdeck.server.pagination import Listing, fetch_page, one_of
from docdeck.server.permissions import Membership, highest, membership, space_grants
from docdeck.server.saml.service import require_active_provider
from docdeck.server.spaces.wire import space_json
from docdeck.server.teams.wire import team_json
from docdeck.server.wire import Json, JsonBody, no_content, respond, respond_list

router = Router(tags=["members"])
_SPACES = Listing(
    "member-spaces",
    "s.*",
    "FROM spaces s WHERE s.organization_id = ? AND s.deleted_at IS NULL",
    ("s.created_at", "s.id"),
)
_TEAMS = Listing(
    "member-teams",
    TEAM_SELECT.strip().removeprefix("SELECT") + ", mine.role AS member_role",
    "FROM teams t JOIN team_members mine ON mine.team_id = t.id AND mine.user_id = ?"
    " WHERE t.organization_id = ?",
    ("casefold(t.title)", "t.id"),
)


def load_member(conn: sqlite3.Connection, org_id: str, user_id: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        f"SELECT {MEMBER_COLUMNS} {MEMBER_FROM} WHERE m.organization_id = ? AND m.user_id = ?",
        (org_id, user_id),
    ).fetchone()
    return found(row, f"member {user_id!r} not found in organization {org_id!r}")


def member_reply(ctx: Ctx, conn: sqlite3.Connection, org_id: str, user_id: str) -> Response:
    row = load_member(conn, org_id, user_id)
    return respond(members_json(ctx, [row], live_spaces_for(conn, org_id, [row]))[0])


def _can_see_member(caller: Membership, user_id: str) -> None:
    if caller.user_id != user_id:
        require_member(caller, "list the organization's members")


def _keep_an_admin(conn: sqlite3.Connection, org_id: str, user_id: str, field: str) -> None:
    """An organization always keeps at least one admin.

    Only an admin may change roles, so the last admin is always the caller: the message
    says "you" (the user id would mean nothing to a person reading it in an app).
    """
    others = conn.execute(
        "SELECT COUNT(*) FROM members WHERE organization_id = ? AND role = 'admin'"
        " AND user_id != ? AND disabled = 0",
        (org_id, user_id),
    ).fetchone()[0]
    if others == 0:
        raise bad_request(
            f"{field}you are the organization's last admin; make another member an admin first"
        )


@router.get(
    "/v1/orgs/{organizationId}/members", "listMembersInOrganizationById", ListPage[Member], 403, 404
)
async def list_members(
    ctx: CtxDep,
    organizationId: str,
    page: PageDep,
    role: Annotated[MemberRoleFilter | None, Query()] = None,
    search: Annotated[str | None, Query(max_length=512)] = None,
    sort: Annotated[MemberSort, Query()] = "joinedAt",
    order: Annotated[ListOrder, Query()] = "desc",
) -> Response:
    by_role, seen = role is not None, sort == "lastSeenAt"
    with ctx.db.read() as conn:
        standing = list_standing(
            conn,
            organizationId,
            ctx.caller.user_id,
            None if role == "guest" else role,
            by_role=by_role,
            seen=seen,
        )
        if standing is None or not standing[1]:
            raise not_found(f"organization {organizationId!r} not found")  # as load_membership
        my_role, _, live_spaces, members, secret = standing
        require_member(
            Membership(organizationId, ctx.caller.user_id, my_role),
            "list the organization's members",
        )
        where = "WHERE m.organization_id = ?"
        params: list[Any] = [organizationId]
        if role == "guest":
            where += " AND m.role IS NULL"
        elif role is not None:
            where += " AND m.role = ?"
            params.append(role)
        if search:
            where += MEMBER_SEARCH
            params += [contains(search), contains(search)]
        column = "m.joined_at" if sort == "joinedAt" else "m.last_seen_at"
        if seen:
            where += " AND m.last_seen_at IS NOT NULL"
        index = member_index(sort, by_role)
        result = fetch_page(
            conn,
            select=member_page_select(column),
            from_where=f"{member_from(index, bool(search))} {where}",
            # without a search the store keeps the count; a search counts what it matched
            counter=None if search else lambda: members,
            params=params,
            keys=[column, "m.user_id"],
            key_columns=(1, 2),
            plain_rows=True,
            descending=order == "desc",
            scope=f"members:{sort}:{order}",
            request=page,
            secret=secret,
        )
    return JsonBody(members_page(ctx, result, live_spaces))


@router.get(
    "/v1/orgs/{organizationId}/members/{userId}", "getMemberInOrganizationById", Member, 403, 404
)
async def get_member(ctx: CtxDep, organizationId: str, userId: str) -> Response:
    with ctx.db.read() as conn:
        caller = load_membership(conn, ctx, organizationId)
        _can_see_member(caller, userId)
        return member_reply(ctx, conn, organizationId, userId)


@router.patch(
    "/v1/orgs/{organizationId}/members/{userId}", "updateMemberInOrganizationById", Member, 403, 404
)
def update_member(
    ctx: CtxDep, organizationId: str, userId: str, body: Annotated[MemberUpdate, Body()]
) -> Response:
    with ctx.db.write() as conn:
        load_admin(conn, ctx, organizationId, "change member roles")
        current = load_member(conn, organizationId, userId)
        if current["role"] == "admin" and body.role != "admin":
            _keep_an_admin(conn, organizationId, userId, "role: ")
        conn.execute(
            "UPDATE members SET role = ? WHERE organization_id = ? AND user_id = ?",
            (body.role, organizationId, userId),
        )
        return member_reply(ctx, conn, organizationId, userId)


@router.delete(
    "/v1/orgs/{organizationId}/members/{userId}",
    "removeMemberFromOrganizationById",
    None,
    400,
    403,
    404,
    status=204,
)
def remove_member(ctx: CtxDep, organizationId: str, userId: str) -> Response:
    with ctx.db.write() as conn:
        load_admin(conn, ctx, organizationId, "remove members")
        target = membership(conn, organizationId, userId)
        if target is not None:
            if target.is_admin:
                _keep_an_admin(conn, organizationId, userId, "")
            conn.execute(
                "DELETE FROM team_members WHERE user_id = ? AND team_id IN"
                " (SELECT id FROM teams WHERE organization_id = ?)",
                (userId, organizationId),
            )
            conn.execute(
                "DELETE FROM space_grants WHERE user_id = ? AND space_id IN"
                " (SELECT id FROM spaces WHERE organization_id = ?)",
                (userId, organizationId),
            )
        conn.execute(
            "DELETE FROM members WHERE organization_id = ? AND user_id = ?",
            (organizationId, userId),
        )
    return no_content()


@router.post(
    "/v1/orgs/{organizationId}/members/{userId}/sso",
    "setUserAsSSOMemberForOrganization",
    Member,
    403,
    404,
)
def set_sso_member(ctx: CtxDep, organizationId: str, userId: str) -> Response:
    with ctx.db.write() as conn:
        load_admin(conn, ctx, organizationId, "make members SSO members")
        load_member(conn, organizationId, userId)
        require_active_provider(conn, organizationId, "sso")
        conn.execute(
            "UPDATE members SET sso = 1 WHERE organization_id = ? AND user_id = ?",
            (organizationId, userId),
        )
        return member_reply(ctx, conn, organizationId, userId)


@router.get(
    "/v1/orgs/{organizationId}/members/{userId}/spaces",
    "listSpacesForOrganizationMember",
    ListPage[MemberSpace],
    403,
    404,
)
async def list_member_spaces(
    ctx: CtxDep,
    organizationId: str,
    userId: str,
    page: PageDep,
    order: Annotated[ListOrder, Query()] = "desc",
) -> Response:
    with ctx.db.read() as conn:
        caller = load_membership(conn, ctx, organizationId)
        _can_see_member(caller, userId)
        target = membership(conn, organizationId, userId)
        if target is None:
            raise not_found(f"member {userId!r} not found in organization {organizationId!r}")
        grants = space_grants(conn, organizationId, userId)
        only = one_of("s.id", grants) if target.is_guest else ""
        result = _SPACES.page(
            conn,
            [organizationId, *(grants if target.is_guest else ())],
            page,
            and_where=only,
            variant=f":{order}",
            descending=order == "desc",
        )
        mine = space_grants(conn, organizationId, ctx.caller.user_id)
        items = [
            _member_space(
                ctx,
                row,
                permission=highest(target.role, grants.get(row["id"])),
                caller_role=highest(caller.role, mine.get(row["id"])),
            )
            for row in result.rows
        ]
    return respond_list(items, result)


def _member_space(
    ctx: Ctx, row: sqlite3.Row, *, permission: str | None, caller_role: str | None
) -> Json:
    return {"permission": permission, "space": space_json(ctx, row, caller_role)}


@router.get(
    "/v1/orgs/{organizationId}/members/{userId}/teams",
    "listTeamsForOrganizationMember",
    ListPage[MemberTeam],
    403,
    404,
)
async def list_member_teams(
    ctx: CtxDep,
    organizationId: str,
    userId: str,
    page: PageDep,
    title: Annotated[str | None, Query(max_length=512)] = None,
) -> Response:
    with ctx.db.read() as conn:
        caller = load_membership(conn, ctx, organizationId)
        _can_see_member(caller, userId)
        if membership(conn, organizationId, userId) is None:
            raise not_found(f"member {userId!r} not found in organization {organizationId!r}")
        where = ""
        params: list[Any] = [userId, organizationId]
        if title:
            where += " AND instr(casefold(t.title), ?) > 0"
            params.append(contains(title))
        result = _TEAMS.page(
            conn, params, page, and_where=where, select_params=[ctx.caller.user_id]
        )
    items = [
        {"team": team_json(row, caller), "member": {"role": row["member_role"]}}
        for row in result.rows
    ]
    return respond_list(items, result)


@router.get("/v1/user", "getAuthenticatedUser", User, 404, tags=["users"])
async def get_authenticated_user(ctx: CtxDep) -> Response:
    """The caller, as the platform's `GET /user` answers: clients learn who "me" is (the
    review inbox lists what the caller wrote or was asked to review)."""
    with ctx.db.read() as conn:
        row = conn.execute(
            "SELECT id AS user_id, email, display_name, photo_url FROM users WHERE id = ?",
            (ctx.caller.user_id,),
        ).fetchone()
    if row is None:
        raise not_found("the token's user no longer exists")
    return respond(
        user_json(ctx, row["user_id"], row["email"], row["display_name"], row["photo_url"])
    )


@router.get("/v1/users/{userId}", "getUserById", User, 404, tags=["users"])
async def get_user(ctx: CtxDep, userId: str) -> Response:
    """Sandbox extension so that every user's `urls.location` resolves: any user who shares an
    organization with the caller."""
    with ctx.db.read() as conn:
        row = conn.execute(
            "SELECT u.id AS user_id, u.email, u.display_name, u.photo_url FROM users u"
            " WHERE u.id = ? AND EXISTS (SELECT 1 FROM members a JOIN members b"
            " ON a.organization_id = b.organization_id WHERE a.user_id = u.id AND b.user_id = ?)",
            (userId, ctx.caller.user_id),
        ).fetchone()
    if row is None:
        raise not_found(f"user {userId!r} not found")
    return respond(
        user_json(ctx, row["user_id"], row["email"], row["display_name"], row["photo_url"])
    )
