"""Collections."""

from __future__ import annotations

from typing import Unpack

from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import endpoint, endpoint_path
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.gateway.resources.spaces import TreeItems
from docdeck.models import Collection, DefaultLevel, Space

__all__ = ["Collections"]

_C = "/v1/collections/{collectionId}"


class Collections(TreeItems[Collection]):
    _id = "collectionId"
    _model = Collection

    @endpoint("GET", "/v1/orgs/{organizationId}/collections")
    def list(
        self,
        org_id: str,
        *,
        nested: bool | None = None,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[Collection]:
        path = endpoint_path(self.list, organizationId=org_id)
        return self._list(path, Collection, nested=nested, **paging)

    @endpoint("POST", "/v1/orgs/{organizationId}/collections")
    async def create(
        self,
        org_id: str,
        *,
        title: str | NotGiven = NOT_GIVEN,
        parent: str | NotGiven = NOT_GIVEN,
    ) -> Collection:
        path = endpoint_path(self.create, organizationId=org_id)
        body = body_of(title=title, parent=parent)
        return await self._transport.call("POST", path, Collection, json=body)

    @endpoint("GET", _C)
    async def get(self, collection_id: str) -> Collection:
        path = endpoint_path(self.get, collectionId=collection_id)
        return await self._transport.call("GET", path, Collection)

    @endpoint("PATCH", _C)
    async def update(
        self,
        collection_id: str,
        *,
        title: str | NotGiven = NOT_GIVEN,
        description: str | NotGiven = NOT_GIVEN,
        defaultLevel: DefaultLevel | NotGiven = NOT_GIVEN,
    ) -> Collection:
        body = body_of(title=title, description=description, defaultLevel=defaultLevel)
        path = endpoint_path(self.update, collectionId=collection_id)
        return await self._transport.call("PATCH", path, Collection, json=body)

    @endpoint("DELETE", _C)
    async def delete(self, collection_id: str) -> None:
        await self._transport.call_empty(
            "DELETE", endpoint_path(self.delete, collectionId=collection_id)
        )

    @endpoint("GET", f"{_C}/spaces")
    def spaces(self, collection_id: str, **paging: Unpack[Paging]) -> AsyncPaginator[Space]:
        path = endpoint_path(self.spaces, collectionId=collection_id)
        return self._list(path, Space, **paging)
