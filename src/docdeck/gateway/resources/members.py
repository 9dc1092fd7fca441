"""Organization members."""

from __future__ import annotations

from docdeck.gateway._pagination import AsyncPaginator
from docdeck.gateway._resource import Resource, endpoint, seg
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
    @staticmethod
    def _path(org_id: str, user_id: str | None = None) -> str:
        path = f"/v1/orgs/{seg(org_id)}/members"
        return path if user_id is None else f"{path}/{seg(user_id)}"

    @endpoint("GET", f"{_O}/members")
    def list(
        self,
        org_id: str,
        *,
        role: MemberRoleFilter | None = None,
        search: str | None = None,
        sort: MemberSort | None = None,
        order: ListOrder | None = None,
        page: str | None = None,
        limit: int | None = None,
    ) -> AsyncPaginator[Member]:
        return self._list(
            self._path(org_id),
            Member,
            role=role,
            search=search,
            sort=sort,
            order=order,
            page=page,
            limit=limit,
        )

    @endpoint("GET", f"{_O}/members/{{userId}}")
    async def get(self, org_id: str, user_id: str) -> Member:
        return await self._transport.call("GET", self._path(org_id, user_id), Member)

    @endpoint("PATCH", f"{_O}/members/{{userId}}")
    async def update(self, org_id: str, user_id: str, *, role: MemberRoleOrGuest) -> Member:
        return await self._transport.call(
            "PATCH", self._path(org_id, user_id), Member, json={"role": role}
        )

    @endpoint("DELETE", f"{_O}/members/{{userId}}")
    async def remove(self, org_id: str, user_id: str) -> None:
        await self._transport.call_empty("DELETE", self._path(org_id, user_id))

    @endpoint("POST", f"{_O}/members/{{userId}}/sso")
    async def set_sso(self, org_id: str, user_id: str) -> Member:
        return await self._transport.call("POST", f"{self._path(org_id, user_id)}/sso", Member)

    @endpoint("GET", f"{_O}/members/{{userId}}/spaces")
    def spaces(
        self,
        org_id: str,
        user_id: str,
        *,
        order: ListOrder | None = None,
        page: str | None = None,
        limit: int | None = None,
    ) -> AsyncPaginator[MemberSpace]:
        return self._list(
            f"{self._path(org_id, user_id)}/spaces",
            MemberSpace,
            order=order,
            page=page,
            limit=limit,
        )

    @endpoint("GET", f"{_O}/members/{{userId}}/teams")
    def teams(
        self,
        org_id: str,
        user_id: str,
        *,
        title: str | None = None,
        page: str | None = None,
        limit: int | None = None,
    ) -> AsyncPaginator[MemberTeam]:
        return self._list(
            f"{self._path(org_id, user_id)}/teams", MemberTeam, title=title, page=page, limit=limit
        )
