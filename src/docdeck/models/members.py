"""Organization members and teams."""

from typing import Annotated, Literal

from pydantic import Field

from docdeck.models._base import (
    Count,
    MemberRole,
    MemberRoleOrGuest,
    RequestBody,
    Resource,
    Timestamp,
)
from docdeck.models._text import VisibleTitle
from docdeck.models.spaces import Space
from docdeck.models.users import User

TeamMemberRole = Literal["owner", "member"]
MemberSort = Literal["joinedAt", "lastSeenAt"]
ListOrder = Literal["asc", "desc"]
MemberRoleFilter = Literal["admin", "create", "edit", "review", "comment", "read", "guest"]
TeamTitle = Annotated[str, Field(min_length=1, max_length=64), VisibleTitle]


class Member(Resource):
    object: Literal["member"] = "member"
    id: str
    role: MemberRoleOrGuest
    user: User
    disabled: bool
    joinedAt: Timestamp
    lastSeenAt: Timestamp | None = None
    sso: bool
    spaces: Count
    teams: Count


class MemberUpdate(RequestBody):
    """`role` null makes the member a guest."""

    role: MemberRoleOrGuest


class MemberSpace(Resource):
    """A space a member can reach, with the role they have in it."""

    permission: MemberRole
    space: Space


class TeamPermissions(Resource):
    admin: bool
    view: bool


class Team(Resource):
    object: Literal["team"] = "team"
    id: str
    title: str
    members: Count
    spaces: Count
    createdAt: Timestamp
    permissions: TeamPermissions


class TeamMember(Resource):
    role: TeamMemberRole


class MemberTeam(Resource):
    """A team a member belongs to, with the member's role in it."""

    team: Team
    member: TeamMember


class TeamMembershipPermissions(Resource):
    view: bool


class TeamMembership(Resource):
    """An item of a team's member list."""

    organization: Member
    team: TeamMember
    permissions: TeamMembershipPermissions


class TeamCreate(RequestBody):
    title: TeamTitle
    members: list[str] | None = None


class TeamUpdate(RequestBody):
    title: TeamTitle


class TeamRole(RequestBody):
    role: TeamMemberRole


class TeamMembersUpdate(RequestBody):
    """Users are given by id or email; one in both `add` and `remove` is removed."""

    add: list[str] | None = None
    remove: list[str] | None = None
    memberships: dict[str, TeamRole] | None = None


class TeamMemberPut(RequestBody):
    role: TeamMemberRole | None = None
