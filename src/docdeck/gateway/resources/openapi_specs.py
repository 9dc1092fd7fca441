"""OpenAPI specs of an organization and their versions."""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from docdeck.gateway._pagination import AsyncPaginator
from docdeck.gateway._resource import Resource, endpoint, seg
from docdeck.models import OpenAPISpec, OpenAPISpecContent, OpenAPISpecVersion

__all__ = ["OpenAPISpecVersions", "OpenAPISpecs"]

_O = "/v1/orgs/{organizationId}/openapi"


def _spec_path(org_id: str, slug: str | None = None) -> str:
    path = f"/v1/orgs/{seg(org_id)}/openapi"
    return path if slug is None else f"{path}/{seg(slug)}"


def _source(url: str | None, text: str | None) -> dict[str, str]:
    """The spec's source: exactly one of a URL to fetch or the document's text."""
    if (url is None) == (text is None):
        raise ValueError("give exactly one of url= or text= as the spec's source")
    return {"url": url} if url is not None else {"text": text or ""}


class OpenAPISpecVersions(Resource):
    """`version_id="latest"` (the default) addresses the newest version."""

    @endpoint("GET", f"{_O}/{{specSlug}}/versions")
    def list(
        self, org_id: str, slug: str, *, page: str | None = None, limit: int | None = None
    ) -> AsyncPaginator[OpenAPISpecVersion]:
        """Newest first."""
        return self._list(
            f"{_spec_path(org_id, slug)}/versions", OpenAPISpecVersion, page=page, limit=limit
        )

    @endpoint("GET", f"{_O}/{{specSlug}}/versions/latest")
    @endpoint("GET", f"{_O}/{{specSlug}}/versions/{{versionId}}")
    async def get(self, org_id: str, slug: str, version_id: str = "latest") -> OpenAPISpecVersion:
        return await self._transport.call(
            "GET", f"{_spec_path(org_id, slug)}/versions/{seg(version_id)}", OpenAPISpecVersion
        )

    @endpoint("GET", f"{_O}/{{specSlug}}/versions/latest/content")
    @endpoint("GET", f"{_O}/{{specSlug}}/versions/{{versionId}}/content")
    async def content(
        self, org_id: str, slug: str, version_id: str = "latest"
    ) -> OpenAPISpecContent:
        return await self._transport.call(
            "GET",
            f"{_spec_path(org_id, slug)}/versions/{seg(version_id)}/content",
            OpenAPISpecContent,
        )


class OpenAPISpecs(Resource):
    @cached_property
    def versions(self) -> OpenAPISpecVersions:
        return OpenAPISpecVersions(self._transport)

    @endpoint("GET", _O)
    def list(
        self, org_id: str, *, page: str | None = None, limit: int | None = None
    ) -> AsyncPaginator[OpenAPISpec]:
        return self._list(_spec_path(org_id), OpenAPISpec, page=page, limit=limit)

    @endpoint("POST", _O)
    async def create(
        self, org_id: str, *, slug: str, url: str | None = None, text: str | None = None
    ) -> OpenAPISpec:
        """Processing starts in the background: poll `get` until `processingState` is
        `complete` (then `lastProcessErrorCode` says whether it failed)."""
        return await self._transport.call(
            "POST",
            _spec_path(org_id),
            OpenAPISpec,
            json={"slug": slug, "source": _source(url, text)},
        )

    @endpoint("PUT", f"{_O}/{{specSlug}}")
    async def put(
        self, org_id: str, slug: str, *, url: str | None = None, text: str | None = None
    ) -> OpenAPISpec:
        """Creates the spec, or replaces its source and processes it again."""
        return await self._transport.call(
            "PUT", _spec_path(org_id, slug), OpenAPISpec, json={"source": _source(url, text)}
        )

    @endpoint("GET", f"{_O}/{{specSlug}}")
    async def get(self, org_id: str, slug: str) -> OpenAPISpec:
        return await self._transport.call("GET", _spec_path(org_id, slug), OpenAPISpec)

    @endpoint("PATCH", f"{_O}/{{specSlug}}")
    async def update(
        self, org_id: str, slug: str, *, visibility: Literal["private", "public"]
    ) -> OpenAPISpec:
        return await self._transport.call(
            "PATCH", _spec_path(org_id, slug), OpenAPISpec, json={"visibility": visibility}
        )

    @endpoint("DELETE", f"{_O}/{{specSlug}}")
    async def delete(self, org_id: str, slug: str) -> None:
        await self._transport.call_empty("DELETE", _spec_path(org_id, slug))
