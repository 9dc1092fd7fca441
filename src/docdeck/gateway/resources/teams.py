"""Teams and their members."""

from __future__ import annotations

import builtins
from functools import cached_property
from typing import Unpack

from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import Resource, endpoint, endpoint_path
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.models import Team, TeamMemberRole, TeamMembership, TeamRole

__all__ = ["TeamMembers", "Teams"]

_T = "/v1/orgs/{organizationId}/teams"


class TeamMembers(Resource):
    @endpoint("GET", f"{_T}/{{teamId}}/members")
    def list(
        self, org_id: str, team_id: str, **paging: Unpack[Paging]
    ) -> AsyncPaginator[TeamMembership]:
        path = endpoint_path(self.list, organizationId=org_id, teamId=team_id)
        return self._list(path, TeamMembership, **paging)

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
        path = endpoint_path(self.update, organizationId=org_id, teamId=team_id)
        await self._transport.call_empty("PUT", path, json=body, send_json=True)

    @endpoint("PUT", f"{_T}/{{teamId}}/members/{{userId}}")
    async def put(
        self,
        org_id: str,
        team_id: str,
        user_id: str,
        *,
        role: TeamMemberRole | NotGiven = NOT_GIVEN,
    ) -> None:
        path = endpoint_path(self.put, organizationId=org_id, teamId=team_id, userId=user_id)
        await self._transport.call_empty("PUT", path, json=body_of(role=role), send_json=True)

    @endpoint("DELETE", f"{_T}/{{teamId}}/members/{{userId}}")
    async def remove(self, org_id: str, team_id: str, user_id: str) -> None:
        path = endpoint_path(self.remove, organizationId=org_id, teamId=team_id, userId=user_id)
        await self._transport.call_empty("DELETE", path)


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
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[Team]:
        path = endpoint_path(self.list, organizationId=org_id)
        return self._list(path, Team, owner=owner, title=title, **paging)

    @endpoint("PUT", _T)
    async def create(
        self, org_id: str, *, title: str, members: builtins.list[str] | NotGiven = NOT_GIVEN
    ) -> Team:
        path = endpoint_path(self.create, organizationId=org_id)
        body = body_of(title=title, members=members)
        return await self._transport.call("PUT", path, Team, json=body)

    @endpoint("GET", f"{_T}/{{teamId}}")
    async def get(self, org_id: str, team_id: str) -> Team:
        path = endpoint_path(self.get, organizationId=org_id, teamId=team_id)
        return await self._transport.call("GET", path, Team)

    @endpoint("PATCH", f"{_T}/{{teamId}}")
    async def update(self, org_id: str, team_id: str, *, title: str) -> Team:
        path = endpoint_path(self.update, organizationId=org_id, teamId=team_id)
        return await self._transport.call("PATCH", path, Team, json={"title": title})

    @endpoint("DELETE", f"{_T}/{{teamId}}")
    async def delete(self, org_id: str, team_id: str) -> None:
        path = endpoint_path(self.delete, organizationId=org_id, teamId=team_id)
        await self._transport.call_empty("DELETE", path)
