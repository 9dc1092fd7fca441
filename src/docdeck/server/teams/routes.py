"""Teams and team members."""

from __future__ import annotations

import sqlite3
from typing import Annotated, Any

from fastapi import Body, Query, Response

from docdeck.models import (
    ListPage,
    Team,
    TeamCreate,
    TeamMemberPut,
    TeamMembership,
    TeamMembersUpdate,
    TeamUpdate,
)
from docdeck.server.access import (
    load_admin,
    load_membership,
    load_non_guest,
    load_org,
    require,
    unless_missing,
)
from docdeck.server.errors import not_found
from docdeck.server.http.context import Ctx
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep, PageDep, contains, resolve_members
from docdeck.server.ids import new_id, to_db
from docdeck.server.members.service import (
    MEMBER_COLUMNS,
    MEMBER_FROM,
    TEAM_SELECT,
    live_spaces_for,
)
from docdeck.server.members.wire import members_json
from docdeck.server.pagination import Listing
from docdeck.server.permissions import Membership, membership, team_permissions
from docdeck.server.teams.wire import team_json
from docdeck.server.validation import check_title
from docdeck.server.wire import no_content, respond, respond_list

router = Router(tags=["teams"])
_TEAMS = Listing(
    "teams",
    TEAM_SELECT.strip().removeprefix("SELECT"),
    "FROM teams t WHERE t.organization_id = ?",
    ("casefold(t.title)", "t.id"),
)
_IN_TEAM = (
    "JOIN team_members tm ON tm.user_id = m.user_id WHERE tm.team_id = ? AND m.organization_id = ?"
)
_TEAM_MEMBERS = Listing(
    "team-members",
    f"{MEMBER_COLUMNS}, tm.role AS team_role",
    f"{MEMBER_FROM} {_IN_TEAM}",
    ("casefold(m.user_name)", "m.user_id"),
)


def _load_team(
    conn: sqlite3.Connection, ctx: Ctx, org_id: str, team_id: str
) -> tuple[sqlite3.Row, Membership]:
    caller = load_membership(conn, ctx, org_id)
    row = conn.execute(
        f"{TEAM_SELECT} FROM teams t WHERE t.id = ? AND t.organization_id = ?",
        (ctx.caller.user_id, team_id, org_id),
    ).fetchone()
    if row is None or not team_permissions(caller, row["my_role"]).view:
        raise not_found(f"team {team_id!r} not found in organization {org_id!r}")
    return row, caller


def _require_team_admin(caller: Membership, team: sqlite3.Row, action: str) -> None:
    """What the team's `permissions.admin` promises: organization admins and team owners."""
    require(
        team_permissions(caller, team["my_role"]).admin,
        f"only an organization admin or an owner of the team may {action}",
    )


@router.get(
    "/v1/orgs/{organizationId}/teams", "listTeamsInOrganizationById", ListPage[Team], 403, 404
)
async def list_teams(
    ctx: CtxDep,
    organizationId: str,
    page: PageDep,
    owner: Annotated[str | None, Query()] = None,
    title: Annotated[str | None, Query(max_length=512)] = None,
) -> Response:
    with ctx.db.read() as conn:
        caller = load_non_guest(conn, ctx, organizationId, "list the organization's teams")
        where = ""
        params: list[Any] = [organizationId]
        if owner is not None:
            owner_member = membership(conn, organizationId, owner)
            if owner_member is None:
                where += " AND 0"
            elif not owner_member.is_admin:
                where += (
                    " AND t.id IN (SELECT team_id FROM team_members"
                    " WHERE user_id = ? AND role = 'owner')"
                )
                params.append(owner)
        if title:
            where += " AND instr(casefold(t.title), ?) > 0"
            params.append(contains(title))
        result = _TEAMS.page(
            conn, params, page, and_where=where, select_params=[ctx.caller.user_id]
        )
    return respond_list([team_json(row, caller) for row in result.rows], result)


@router.put("/v1/orgs/{organizationId}/teams", "createOrganizationTeam", Team, 403, 404, status=201)
def create_team(ctx: CtxDep, organizationId: str, body: Annotated[TeamCreate, Body()]) -> Response:
    with ctx.db.write() as conn:
        caller = load_admin(conn, ctx, organizationId, "create teams")
        title = check_title(body.title)
        members = resolve_members(conn, organizationId, body.members or [], "members")
        team_id, stamp = new_id(), to_db(ctx.now())
        conn.execute(
            "INSERT INTO teams (id, organization_id, title, created_at) VALUES (?, ?, ?, ?)",
            (team_id, organizationId, title, stamp),
        )
        for user_id in dict.fromkeys(members.values()):
            conn.execute(
                "INSERT INTO team_members (team_id, user_id, role, added_at)"
                " VALUES (?, ?, 'member', ?)",
                (team_id, user_id, stamp),
            )
        row, _ = _load_team(conn, ctx, organizationId, team_id)
        return respond(team_json(row, caller), status=201)


@router.get("/v1/orgs/{organizationId}/teams/{teamId}", "getTeamInOrganizationById", Team, 404)
async def get_team(ctx: CtxDep, organizationId: str, teamId: str) -> Response:
    with ctx.db.read() as conn:
        row, caller = _load_team(conn, ctx, organizationId, teamId)
        return respond(team_json(row, caller))


@router.patch(
    "/v1/orgs/{organizationId}/teams/{teamId}", "updateTeamInOrganizationById", Team, 403, 404
)
def update_team(
    ctx: CtxDep, organizationId: str, teamId: str, body: Annotated[TeamUpdate, Body()]
) -> Response:
    with ctx.db.write() as conn:
        team, caller = _load_team(conn, ctx, organizationId, teamId)
        _require_team_admin(caller, team, "rename it")
        conn.execute("UPDATE teams SET title = ? WHERE id = ?", (check_title(body.title), teamId))
        row, _ = _load_team(conn, ctx, organizationId, teamId)
        return respond(team_json(row, caller))


@router.delete(
    "/v1/orgs/{organizationId}/teams/{teamId}",
    "removeTeamFromOrganizationById",
    None,
    403,
    404,
    status=204,
)
def delete_team(ctx: CtxDep, organizationId: str, teamId: str) -> Response:
    with ctx.db.write() as conn:
        load_org(conn, ctx, organizationId)
        found = unless_missing(lambda: _load_team(conn, ctx, organizationId, teamId))
        if found is None:
            return no_content()
        team, caller = found
        _require_team_admin(caller, team, "delete it")
        conn.execute("DELETE FROM teams WHERE id = ?", (teamId,))
    return no_content()


@router.get(
    "/v1/orgs/{organizationId}/teams/{teamId}/members",
    "listTeamMembersInOrganizationById",
    ListPage[TeamMembership],
    404,
)
async def list_team_members(
    ctx: CtxDep, organizationId: str, teamId: str, page: PageDep
) -> Response:
    with ctx.db.read() as conn:
        _load_team(conn, ctx, organizationId, teamId)
        result = _TEAM_MEMBERS.page(
            conn,
            [teamId, organizationId],
            page,
            count_from_where=f"FROM members m {_IN_TEAM}",
        )
        members = members_json(ctx, result.rows, live_spaces_for(conn, organizationId, result.rows))
    items = [
        {
            "organization": member,
            "team": {"role": row["team_role"]},
            "permissions": {"view": True},
        }
        for member, row in zip(members, result.rows, strict=True)
    ]
    return respond_list(items, result)


def _upsert(
    conn: sqlite3.Connection, team_id: str, user_id: str, role: str | None, stamp: str
) -> None:
    """Adds the user (as `member` unless a role is given) or sets the role they have."""
    if role is None:
        conn.execute(
            "INSERT OR IGNORE INTO team_members (team_id, user_id, role, added_at)"
            " VALUES (?, ?, 'member', ?)",
            (team_id, user_id, stamp),
        )
    else:
        conn.execute(
            "INSERT INTO team_members (team_id, user_id, role, added_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (team_id, user_id) DO UPDATE SET role = excluded.role",
            (team_id, user_id, role, stamp),
        )


@router.put(
    "/v1/orgs/{organizationId}/teams/{teamId}/members",
    "updateMembersInOrganizationTeam",
    None,
    403,
    404,
    status=204,
)
def update_team_members(
    ctx: CtxDep, organizationId: str, teamId: str, body: Annotated[TeamMembersUpdate, Body()]
) -> Response:
    """A user both in `add` and `remove` is removed; `memberships` sets roles (adding the user
    when needed) for users not being removed."""
    with ctx.db.write() as conn:
        team, caller = _load_team(conn, ctx, organizationId, teamId)
        _require_team_admin(caller, team, "manage its members")
        added = resolve_members(conn, organizationId, body.add or [], "add")
        removed = set(resolve_members(conn, organizationId, body.remove or [], "remove").values())
        roles = resolve_members(
            conn, organizationId, (body.memberships or {}).keys(), "memberships"
        )
        stamp = to_db(ctx.now())
        for user_id in added.values():
            if user_id not in removed:
                _upsert(conn, teamId, user_id, None, stamp)
        for ref, user_id in roles.items():
            if user_id not in removed:
                assert body.memberships is not None
                _upsert(conn, teamId, user_id, body.memberships[ref].role, stamp)
        for user_id in removed:
            conn.execute(
                "DELETE FROM team_members WHERE team_id = ? AND user_id = ?", (teamId, user_id)
            )
    return no_content()


@router.put(
    "/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}",
    "addMemberToOrganizationTeamById",
    None,
    403,
    404,
    status=204,
)
def add_team_member(
    ctx: CtxDep,
    organizationId: str,
    teamId: str,
    userId: str,
    body: Annotated[TeamMemberPut | None, Body()] = None,
) -> Response:
    with ctx.db.write() as conn:
        team, caller = _load_team(conn, ctx, organizationId, teamId)
        _require_team_admin(caller, team, "manage its members")
        if membership(conn, organizationId, userId) is None:
            raise not_found(f"member {userId!r} not found in organization {organizationId!r}")
        _upsert(conn, teamId, userId, body.role if body else None, to_db(ctx.now()))
    return no_content()


@router.delete(
    "/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}",
    "deleteMemberFromOrganizationTeamById",
    None,
    403,
    404,
    status=204,
)
def remove_team_member(ctx: CtxDep, organizationId: str, teamId: str, userId: str) -> Response:
    with ctx.db.write() as conn:
        team, caller = _load_team(conn, ctx, organizationId, teamId)
        _require_team_admin(caller, team, "manage its members")
        conn.execute("DELETE FROM team_members WHERE team_id = ? AND user_id = ?", (teamId, userId))
    return no_content()
