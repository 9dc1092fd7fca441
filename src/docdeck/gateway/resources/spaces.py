"""Spaces."""

from __future__ import annotations

import builtins
from typing import Any, ClassVar, Generic, TypeVar, Unpack, cast

from pydantic import BaseModel

from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import Resource, endpoint, endpoint_path
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.models import (
    ContentPosition,
    DefaultLevel,
    Space,
    SpaceEditMode,
    TemplateRef,
)

__all__ = ["Spaces", "TreeItems"]

M = TypeVar("M", bound=BaseModel)

_S = "/v1/spaces/{spaceId}"


class TreeItems(Resource, Generic[M]):
    """What moves in an organization's content tree, a space or a collection: moving it
    under another parent (or to the top) and transferring it to another organization are
    one operation each, declared once here for both (the id's name chooses the path)."""

    _id: ClassVar[str]
    _model: ClassVar[type[BaseModel]]

    @endpoint("POST", f"{_S}/move")
    @endpoint("POST", "/v1/collections/{collectionId}/move")
    async def move(
        self,
        item_id: str,
        *,
        parent: str | NotGiven | None = NOT_GIVEN,
        position: ContentPosition | dict[str, Any] | NotGiven = NOT_GIVEN,
    ) -> M:
        body = body_of(parent=parent, position=position)
        path = endpoint_path(self.move, **{self._id: item_id})
        return await self._transport.call("POST", path, cast(type[M], self._model), json=body)

    @endpoint("POST", f"{_S}/transfer")
    @endpoint("POST", "/v1/collections/{collectionId}/transfer")
    async def transfer(self, item_id: str, *, organization: str) -> M:
        path = endpoint_path(self.transfer, **{self._id: item_id})
        body = {"organization": organization}
        return await self._transport.call("POST", path, cast(type[M], self._model), json=body)


class Spaces(TreeItems[Space]):
    _id = "spaceId"
    _model = Space

    @endpoint("GET", "/v1/orgs/{organizationId}/spaces")
    def list(self, org_id: str, **paging: Unpack[Paging]) -> AsyncPaginator[Space]:
        return self._list(endpoint_path(self.list, organizationId=org_id), Space, **paging)

    async def list_deleted(self, org_id: str) -> builtins.list[Space]:
        """Spaces deleted in the last 7 days (a sandbox extension; empty where unsupported)."""
        path = endpoint_path(self.list, organizationId=org_id)
        paginator: AsyncPaginator[Space] = self._list(path, Space, deleted=True, limit=1000)
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
        path = endpoint_path(self.create, organizationId=org_id)
        return await self._transport.call("POST", path, Space, json=body)

    @endpoint("GET", _S)
    async def get(self, space_id: str, *, shareKey: str | None = None) -> Space:
        params = {"shareKey": shareKey} if shareKey else None
        path = endpoint_path(self.get, spaceId=space_id)
        return await self._transport.call("GET", path, Space, params=params)

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
        path = endpoint_path(self.update, spaceId=space_id)
        return await self._transport.call("PATCH", path, Space, json=body)

    @endpoint("DELETE", _S)
    async def delete(self, space_id: str) -> None:
        await self._transport.call_empty("DELETE", endpoint_path(self.delete, spaceId=space_id))

    @endpoint("POST", f"{_S}/duplicate")
    async def duplicate(self, space_id: str) -> Space:
        path = endpoint_path(self.duplicate, spaceId=space_id)
        return await self._transport.call("POST", path, Space)

    @endpoint("POST", f"{_S}/restore")
    async def restore(self, space_id: str) -> Space:
        path = endpoint_path(self.restore, spaceId=space_id)
        return await self._transport.call("POST", path, Space)
