"""Roles and the `permissions` objects computed for the caller.

A member's organization role applies to every space and collection of the organization; a
space grant (to the user or one of their teams) can raise it for that space. Guests (role null)
reach only the spaces granted to them. The full table is in docs/server.md.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import cache

from docdeck.models import (
    ROLE_ORDER,
    CollectionPermissions,
    OrganizationPermissions,
    SpacePermissions,
    TeamPermissions,
)

RANK: dict[str, int] = {role: rank for rank, role in enumerate(ROLE_ORDER)}


def at_least(role: str | None, needed: str) -> bool:
    return role is not None and RANK[role] >= RANK[needed]


def highest(*roles: str | None) -> str | None:
    present = [r for r in roles if r is not None]
    return max(present, key=RANK.__getitem__) if present else None


@dataclass(frozen=True)
class Membership:
    """The caller's place in one organization; `role` None means guest."""

    organization_id: str
    user_id: str
    role: str | None

    @property
    def is_guest(self) -> bool:
        return self.role is None

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


def membership(conn: sqlite3.Connection, org_id: str, user_id: str) -> Membership | None:
    row = conn.execute(
        "SELECT role FROM members WHERE organization_id = ? AND user_id = ? AND disabled = 0",
        (org_id, user_id),
    ).fetchone()
    return None if row is None else Membership(org_id, user_id, row["role"])


def space_grants(conn: sqlite3.Connection, org_id: str, user_id: str) -> dict[str, str]:
    """The highest role granted to the user, directly or through a team, per space of the org."""
    # Driven from the user's own grants (CROSS JOIN keeps that order), so the cost is the
    # number of grants, not the number of spaces in the organization.
    rows = conn.execute(
        "SELECT g.space_id, g.role FROM space_grants g CROSS JOIN spaces s ON s.id = g.space_id"
        " WHERE g.user_id = ? AND s.organization_id = ?"
        " UNION ALL SELECT g.space_id, g.role FROM team_members tm"
        " CROSS JOIN space_grants g ON g.team_id = tm.team_id"
        " CROSS JOIN spaces s ON s.id = g.space_id"
        " WHERE tm.user_id = ? AND s.organization_id = ?",
        (user_id, org_id, user_id, org_id),
    ).fetchall()
    grants: dict[str, str] = {}
    for row in rows:
        best = highest(grants.get(row["space_id"]), row["role"])
        assert best is not None
        grants[row["space_id"]] = best
    return grants


def grants_that_raise(conn: sqlite3.Connection, member: Membership) -> dict[str, str]:
    """`space_grants` for working out the member's roles in spaces (`space_role`): none for an
    organization admin, whose role no grant can raise, so their requests skip the query."""
    if member.role == ROLE_ORDER[-1]:
        return {}
    return space_grants(conn, member.organization_id, member.user_id)


def space_role(member: Membership, grants: dict[str, str], space_id: str) -> str | None:
    """The caller's effective role in a space; None when the space is invisible to them."""
    granted = grants.get(space_id)
    if granted is None:  # most spaces: no grant, the organization role
        return member.role
    return highest(member.role, granted)


def owns_a_team(conn: sqlite3.Connection, member: Membership) -> bool:
    row = conn.execute(
        "SELECT 1 FROM team_members tm JOIN teams t ON t.id = tm.team_id"
        " WHERE t.organization_id = ? AND tm.user_id = ? AND tm.role = 'owner' LIMIT 1",
        (member.organization_id, member.user_id),
    ).fetchone()
    return row is not None


def team_role(conn: sqlite3.Connection, team_id: str, user_id: str) -> str | None:
    row = conn.execute(
        "SELECT role FROM team_members WHERE team_id = ? AND user_id = ?", (team_id, user_id)
    ).fetchone()
    return None if row is None else str(row["role"])


def organization_permissions(member: Membership | None, owns_team: bool) -> OrganizationPermissions:
    if member is None:
        return _organization_permissions(False, None, owns_team)
    return _organization_permissions(True, member.role, owns_team)


@cache  # what an organization allows depends on membership, role and team ownership alone
def _organization_permissions(
    in_org: bool, role: str | None, owns_team: bool
) -> OrganizationPermissions:
    is_member = in_org and role is not None  # a guest (no role) sees no member lists
    return OrganizationPermissions(
        view=in_org,
        admin=role == "admin",
        ownTeam=owns_team,
        createContent=at_least(role, "create"),
        createOpenAPISpec=at_least(role, "create"),
        ingestConversations=role == "admin",
        viewBilling=role == "admin",
        listMembers=is_member,
        listTeams=is_member,
        listIntegrations=is_member,
    )


@cache  # one shared, never mutated object per role: long space lists build it once
def space_permissions(role: str | None) -> SpacePermissions:
    return SpacePermissions(
        view=role is not None,
        access=role is not None,
        admin=role == "admin",
        viewInviteLinks=role == "admin",
        edit=at_least(role, "edit"),
        triggerGitSync=at_least(role, "edit"),
        comment=at_least(role, "comment"),
        merge=at_least(role, "edit"),
        review=at_least(role, "review"),
    )


def collection_permissions(member: Membership) -> CollectionPermissions:
    return CollectionPermissions(
        view=True,
        admin=member.is_admin,
        viewInviteLinks=member.is_admin,
        create=at_least(member.role, "create"),
    )


def team_permissions(member: Membership, role_in_team: str | None) -> TeamPermissions:
    return TeamPermissions(
        admin=member.is_admin or role_in_team == "owner",
        view=not member.is_guest or role_in_team is not None,
    )
