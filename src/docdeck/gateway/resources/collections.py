"""Collections."""

from __future__ import annotations

from typing import Any

from docdeck.gateway._pagination import AsyncPaginator
from docdeck.gateway._resource import Resource, endpoint, seg
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.models import Collection, ContentPosition, DefaultLevel, Space

__all__ = ["Collections"]

_C = "/v1/collections/{collectionId}"


def _path(collection_id: str) -> str:
    return f"/v1/collections/{seg(collection_id)}"


class Collections(Resource):
    @endpoint("GET", "/v1/orgs/{organizationId}/collections")
    def list(
        self,
        org_id: str,
        *,
        nested: bool | None = None,
        page: str | None = None,
        limit: int | None = None,
    ) -> AsyncPaginator[Collection]:
        return self._list(
            f"/v1/orgs/{seg(org_id)}/collections", Collection, nested=nested, page=page, limit=limit
        )

    @endpoint("POST", "/v1/orgs/{organizationId}/collections")
    async def create(
        self,
        org_id: str,
        *,
        title: str | NotGiven = NOT_GIVEN,
        parent: str | NotGiven = NOT_GIVEN,
    ) -> Collection:
        return await self._transport.call(
            "POST",
            f"/v1/orgs/{seg(org_id)}/collections",
            Collection,
            json=body_of(title=title, parent=parent),
        )

    @endpoint("GET", _C)
    async def get(self, collection_id: str) -> Collection:
        return await self._transport.call("GET", _path(collection_id), Collection)

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
        return await self._transport.call("PATCH", _path(collection_id), Collection, json=body)

    @endpoint("DELETE", _C)
    async def delete(self, collection_id: str) -> None:
        await self._transport.call_empty("DELETE", _path(collection_id))

    @endpoint("GET", f"{_C}/spaces")
    def spaces(
        self, collection_id: str, *, page: str | None = None, limit: int | None = None
    ) -> AsyncPaginator[Space]:
        return self._list(f"{_path(collection_id)}/spaces", Space, page=page, limit=limit)

    @endpoint("POST", f"{_C}/move")
    async def move(
        self,
        collection_id: str,
        *,
        parent: str | NotGiven | None = NOT_GIVEN,
        position: ContentPosition | dict[str, Any] | NotGiven = NOT_GIVEN,
    ) -> Collection:
        body = body_of(parent=parent, position=position)
        return await self._transport.call(
            "POST", f"{_path(collection_id)}/move", Collection, json=body
        )

    @endpoint("POST", f"{_C}/transfer")
    async def transfer(self, collection_id: str, *, organization: str) -> Collection:
        return await self._transport.call(
            "POST",
            f"{_path(collection_id)}/transfer",
            Collection,
            json={"organization": organization},
        )
