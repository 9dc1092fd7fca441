"""Translations of spaces."""

from __future__ import annotations

from typing import Any

from docdeck.gateway._pagination import AsyncPaginator
from docdeck.gateway._resource import Resource, endpoint, seg
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.models import Translation, TranslationLanguage

__all__ = ["Translations"]

_O = "/v1/orgs/{organizationId}/translations"


def _path(org_id: str, translation_id: str | None = None) -> str:
    path = f"/v1/orgs/{seg(org_id)}/translations"
    return path if translation_id is None else f"{path}/{seg(translation_id)}"


class Translations(Resource):
    """`instructions` is a JSON document (`{"object": "document", "data": {}, "nodes": [...]}`).
    A translation runs only where the server has a translator; until then it stays
    `pending`."""

    @endpoint("GET", _O)
    def list(
        self, org_id: str, *, page: str | None = None, limit: int | None = None
    ) -> AsyncPaginator[Translation]:
        return self._list(_path(org_id), Translation, page=page, limit=limit)

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
        return await self._transport.call("POST", _path(org_id), Translation, json=body)

    @endpoint("GET", f"{_O}/{{translationId}}")
    async def get(self, org_id: str, translation_id: str) -> Translation:
        return await self._transport.call("GET", _path(org_id, translation_id), Translation)

    @endpoint("PUT", f"{_O}/{{translationId}}")
    async def update(
        self, org_id: str, translation_id: str, *, instructions: dict[str, Any]
    ) -> Translation:
        return await self._transport.call(
            "PUT", _path(org_id, translation_id), Translation, json={"instructions": instructions}
        )

    @endpoint("DELETE", f"{_O}/{{translationId}}")
    async def delete(self, org_id: str, translation_id: str) -> bool:
        """True when a translation was deleted (205), False when there was none (204)."""
        response = await self._transport.request("DELETE", _path(org_id, translation_id))
        return response.status_code == 205
