"""Spaces."""

from __future__ import annotations

import builtins
from typing import Any

from docdeck.gateway._pagination import AsyncPaginator
from docdeck.gateway._resource import Resource, endpoint, seg
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.models import (
    ContentPosition,
    DefaultLevel,
    Space,
    SpaceEditMode,
    TemplateRef,
)

__all__ = ["Spaces"]

_S = "/v1/spaces/{spaceId}"


def _path(space_id: str) -> str:
    return f"/v1/spaces/{seg(space_id)}"


class Spaces(Resource):
    @endpoint("GET", "/v1/orgs/{organizationId}/spaces")
    def list(
        self, org_id: str, *, page: str | None = None, limit: int | None = None
    ) -> AsyncPaginator[Space]:
        return self._list(f"/v1/orgs/{seg(org_id)}/spaces", Space, page=page, limit=limit)

    async def list_deleted(self, org_id: str) -> builtins.list[Space]:
        """Spaces deleted in the last 7 days (a sandbox extension; empty where unsupported)."""
        paginator: AsyncPaginator[Space] = self._list(
            f"/v1/orgs/{seg(org_id)}/spaces", Space, deleted=True, limit=1000
        )
        return [space async for space in paginator if space.deletedAt is not None]

    @endpoint("POST", "/v1/orgs/{organizationId}/spaces")
    async def create(
        self,
        org_id: str,
        *,
        title: str | NotGiven = NOT_GIVEN,
        emoji: str | NotGiven = NOT_GIVEN,
        parent: str | NotGiven = NOT_GIVEN,
        editMode: SpaceEditMode | NotGiven = NOT_GIVEN,
        template: TemplateRef | dict[str, str] | NotGiven = NOT_GIVEN,
    ) -> Space:
        body = body_of(
            title=title, emoji=emoji, parent=parent, editMode=editMode, template=template
        )
        return await self._transport.call(
            "POST", f"/v1/orgs/{seg(org_id)}/spaces", Space, json=body
        )

    @endpoint("GET", _S)
    async def get(self, space_id: str, *, shareKey: str | None = None) -> Space:
        params = {"shareKey": shareKey} if shareKey else None
        return await self._transport.call("GET", _path(space_id), Space, params=params)

    @endpoint("PATCH", _S)
    async def update(
        self,
        space_id: str,
        *,
        title: str | NotGiven = NOT_GIVEN,
        emoji: str | NotGiven | None = NOT_GIVEN,
        icon: str | NotGiven | None = NOT_GIVEN,
        editMode: SpaceEditMode | NotGiven = NOT_GIVEN,
        defaultLevel: DefaultLevel | NotGiven = NOT_GIVEN,
    ) -> Space:
        body = body_of(
            title=title, emoji=emoji, icon=icon, editMode=editMode, defaultLevel=defaultLevel
        )
        return await self._transport.call("PATCH", _path(space_id), Space, json=body)

    @endpoint("DELETE", _S)
    async def delete(self, space_id: str) -> None:
        await self._transport.call_empty("DELETE", _path(space_id))

    @endpoint("POST", f"{_S}/duplicate")
    async def duplicate(self, space_id: str) -> Space:
        return await self._transport.call("POST", f"{_path(space_id)}/duplicate", Space)

    @endpoint("POST", f"{_S}/restore")
    async def restore(self, space_id: str) -> Space:
        return await self._transport.call("POST", f"{_path(space_id)}/restore", Space)

    @endpoint("POST", f"{_S}/move")
    async def move(
        self,
        space_id: str,
        *,
        parent: str | NotGiven | None = NOT_GIVEN,
        position: ContentPosition | dict[str, Any] | NotGiven = NOT_GIVEN,
    ) -> Space:
        body = body_of(parent=parent, position=position)
        return await self._transport.call("POST", f"{_path(space_id)}/move", Space, json=body)

    @endpoint("POST", f"{_S}/transfer")
    async def transfer(self, space_id: str, *, organization: str) -> Space:
        return await self._transport.call(
            "POST", f"{_path(space_id)}/transfer", Space, json={"organization": organization}
        )
