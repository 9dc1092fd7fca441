"""Organization members."""

from __future__ import annotations

from typing import Unpack

from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import Resource, endpoint, endpoint_path
from docdeck.models import (
    ListOrder,
    Member,
    MemberRoleFilter,
    MemberRoleOrGuest,
    MemberSort,
    MemberSpace,
    MemberTeam,
)

__all__ = ["Members"]

_O = "/v1/orgs/{organizationId}"


class Members(Resource):
    @endpoint("GET", f"{_O}/members")
    def list(
        self,
        org_id: str,
        *,
        role: MemberRoleFilter | None = None,
        search: str | None = None,
        sort: MemberSort | None = None,
        order: ListOrder | None = None,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[Member]:
        return self._list(
            endpoint_path(self.list, organizationId=org_id),
            Member,
            role=role,
            search=search,
            sort=sort,
            order=order,
            **paging,
        )

    @endpoint("GET", f"{_O}/members/{{userId}}")
    async def get(self, org_id: str, user_id: str) -> Member:
        path = endpoint_path(self.get, organizationId=org_id, userId=user_id)
        return await self._transport.call("GET", path, Member)

    @endpoint("PATCH", f"{_O}/members/{{userId}}")
    async def update(self, org_id: str, user_id: str, *, role: MemberRoleOrGuest) -> Member:
        path = endpoint_path(self.update, organizationId=org_id, userId=user_id)
        return await self._transport.call("PATCH", path, Member, json={"role": role})

    @endpoint("DELETE", f"{_O}/members/{{userId}}")
    async def remove(self, org_id: str, user_id: str) -> None:
        path = endpoint_path(self.remove, organizationId=org_id, userId=user_id)
        await self._transport.call_empty("DELETE", path)

    @endpoint("POST", f"{_O}/members/{{userId}}/sso")
    async def set_sso(self, org_id: str, user_id: str) -> Member:
        path = endpoint_path(self.set_sso, organizationId=org_id, userId=user_id)
        return await self._transport.call("POST", path, Member)

    @endpoint("GET", f"{_O}/members/{{userId}}/spaces")
    def spaces(
        self,
        org_id: str,
        user_id: str,
        *,
        order: ListOrder | None = None,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[MemberSpace]:
        path = endpoint_path(self.spaces, organizationId=org_id, userId=user_id)
        return self._list(path, MemberSpace, order=order, **paging)

    @endpoint("GET", f"{_O}/members/{{userId}}/teams")
    def teams(
        self,
        org_id: str,
        user_id: str,
        *,
        title: str | None = None,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[MemberTeam]:
        path = endpoint_path(self.teams, organizationId=org_id, userId=user_id)
        return self._list(path, MemberTeam, title=title, **paging)
