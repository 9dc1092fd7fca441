"""Teams and their members."""

from __future__ import annotations

import builtins
from functools import cached_property

from docdeck.gateway._pagination import AsyncPaginator
from docdeck.gateway._resource import Resource, endpoint, seg
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.models import Team, TeamMemberRole, TeamMembership, TeamRole

__all__ = ["TeamMembers", "Teams"]

_T = "/v1/orgs/{organizationId}/teams"


def _teams_path(org_id: str, team_id: str | None = None) -> str:
    path = f"/v1/orgs/{seg(org_id)}/teams"
    return path if team_id is None else f"{path}/{seg(team_id)}"


class TeamMembers(Resource):
    @endpoint("GET", f"{_T}/{{teamId}}/members")
    def list(
        self, org_id: str, team_id: str, *, page: str | None = None, limit: int | None = None
    ) -> AsyncPaginator[TeamMembership]:
        return self._list(
            f"{_teams_path(org_id, team_id)}/members", TeamMembership, page=page, limit=limit
        )

    @endpoint("PUT", f"{_T}/{{teamId}}/members")
    async def update(
        self,
        org_id: str,
        team_id: str,
        *,
        add: builtins.list[str] | NotGiven = NOT_GIVEN,
        remove: builtins.list[str] | NotGiven = NOT_GIVEN,
        memberships: dict[str, TeamRole | dict[str, TeamMemberRole]] | NotGiven = NOT_GIVEN,
    ) -> None:
        body = body_of(add=add, remove=remove)
        if not isinstance(memberships, NotGiven):
            body["memberships"] = {
                user: (m.model_dump() if isinstance(m, TeamRole) else m)
                for user, m in memberships.items()
            }
        await self._transport.call_empty(
            "PUT", f"{_teams_path(org_id, team_id)}/members", json=body, send_json=True
        )

    @endpoint("PUT", f"{_T}/{{teamId}}/members/{{userId}}")
    async def put(
        self,
        org_id: str,
        team_id: str,
        user_id: str,
        *,
        role: TeamMemberRole | NotGiven = NOT_GIVEN,
    ) -> None:
        await self._transport.call_empty(
            "PUT",
            f"{_teams_path(org_id, team_id)}/members/{seg(user_id)}",
            json=body_of(role=role),
            send_json=True,
        )

    @endpoint("DELETE", f"{_T}/{{teamId}}/members/{{userId}}")
    async def remove(self, org_id: str, team_id: str, user_id: str) -> None:
        await self._transport.call_empty(
            "DELETE", f"{_teams_path(org_id, team_id)}/members/{seg(user_id)}"
        )


class Teams(Resource):
    @cached_property
    def members(self) -> TeamMembers:
        return TeamMembers(self._transport)

    @endpoint("GET", _T)
    def list(
        self,
        org_id: str,
        *,
        owner: str | None = None,
        title: str | None = None,
        page: str | None = None,
        limit: int | None = None,
    ) -> AsyncPaginator[Team]:
        return self._list(
            _teams_path(org_id), Team, owner=owner, title=title, page=page, limit=limit
        )

    @endpoint("PUT", _T)
    async def create(
        self, org_id: str, *, title: str, members: builtins.list[str] | NotGiven = NOT_GIVEN
    ) -> Team:
        return await self._transport.call(
            "PUT", _teams_path(org_id), Team, json=body_of(title=title, members=members)
        )

    @endpoint("GET", f"{_T}/{{teamId}}")
    async def get(self, org_id: str, team_id: str) -> Team:
        return await self._transport.call("GET", _teams_path(org_id, team_id), Team)

    @endpoint("PATCH", f"{_T}/{{teamId}}")
    async def update(self, org_id: str, team_id: str, *, title: str) -> Team:
        return await self._transport.call(
            "PATCH", _teams_path(org_id, team_id), Team, json={"title": title}
        )

    @endpoint("DELETE", f"{_T}/{{teamId}}")
    async def delete(self, org_id: str, team_id: str) -> None:
        await self._transport.call_empty("DELETE", _teams_path(org_id, team_id))
