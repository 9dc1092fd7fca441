"""Translations of spaces."""

from __future__ import annotations

from typing import Any, Unpack

from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import Resource, endpoint, endpoint_path
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.models import Translation, TranslationLanguage

__all__ = ["Translations"]

_O = "/v1/orgs/{organizationId}/translations"


class Translations(Resource):
    """`instructions` is a JSON document (`{"object": "document", "data": {}, "nodes": [...]}`).
    A translation runs only where the server has a translator; until then it stays
    `pending`."""

    @endpoint("GET", _O)
    def list(self, org_id: str, **paging: Unpack[Paging]) -> AsyncPaginator[Translation]:
        path = endpoint_path(self.list, organizationId=org_id)
        return self._list(path, Translation, **paging)

    @endpoint("POST", _O)
    async def create(
        self,
        org_id: str,
        *,
        space: str,
        source_language: TranslationLanguage,
        language: TranslationLanguage,
        instructions: dict[str, Any] | NotGiven = NOT_GIVEN,
    ) -> Translation:
        body = body_of(
            language=language,
            source={"space": space, "language": source_language},
            instructions=instructions,
        )
        path = endpoint_path(self.create, organizationId=org_id)
        return await self._transport.call("POST", path, Translation, json=body)

    @endpoint("GET", f"{_O}/{{translationId}}")
    async def get(self, org_id: str, translation_id: str) -> Translation:
        path = endpoint_path(self.get, organizationId=org_id, translationId=translation_id)
        return await self._transport.call("GET", path, Translation)

    @endpoint("PUT", f"{_O}/{{translationId}}")
    async def update(
        self, org_id: str, translation_id: str, *, instructions: dict[str, Any]
    ) -> Translation:
        path = endpoint_path(self.update, organizationId=org_id, translationId=translation_id)
        body = {"instructions": instructions}
        return await self._transport.call("PUT", path, Translation, json=body)

    @endpoint("DELETE", f"{_O}/{{translationId}}")
    async def delete(self, org_id: str, translation_id: str) -> bool:
        """True when a translation was deleted (205), False when there was none (204)."""
        path = endpoint_path(self.delete, organizationId=org_id, translationId=translation_id)
        response = await self._transport.request("DELETE", path)
        return response.status_code == 205
