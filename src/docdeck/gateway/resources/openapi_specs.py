"""OpenAPI specs of an organization and their versions."""

from __future__ import annotations

from functools import cached_property
from typing import Literal, Unpack

from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import Resource, endpoint, endpoint_path
from docdeck.models import OpenAPISpec, OpenAPISpecContent, OpenAPISpecVersion

__all__ = ["OpenAPISpecVersions", "OpenAPISpecs"]

_O = "/v1/orgs/{organizationId}/openapi"


def _source(url: str | None, text: str | None) -> dict[str, str]:
    """The spec's source: exactly one of a URL to fetch or the document's text."""
    if (url is None) == (text is None):
        raise ValueError("give exactly one of url= or text= as the spec's source")
    return {"url": url} if url is not None else {"text": text or ""}


class OpenAPISpecVersions(Resource):
    """`version_id="latest"` (the default) addresses the newest version."""

    @endpoint("GET", f"{_O}/{{specSlug}}/versions")
    def list(
        self, org_id: str, slug: str, **paging: Unpack[Paging]
    ) -> AsyncPaginator[OpenAPISpecVersion]:
        """Newest first."""
        path = endpoint_path(self.list, organizationId=org_id, specSlug=slug)
        return self._list(path, OpenAPISpecVersion, **paging)

    @endpoint("GET", f"{_O}/{{specSlug}}/versions/latest")
    @endpoint("GET", f"{_O}/{{specSlug}}/versions/{{versionId}}")
    async def get(self, org_id: str, slug: str, version_id: str = "latest") -> OpenAPISpecVersion:
        path = endpoint_path(self.get, organizationId=org_id, specSlug=slug, versionId=version_id)
        return await self._transport.call("GET", path, OpenAPISpecVersion)

    @endpoint("GET", f"{_O}/{{specSlug}}/versions/latest/content")
    @endpoint("GET", f"{_O}/{{specSlug}}/versions/{{versionId}}/content")
    async def content(
        self, org_id: str, slug: str, version_id: str = "latest"
    ) -> OpenAPISpecContent:
        path = endpoint_path(
            self.content, organizationId=org_id, specSlug=slug, versionId=version_id
        )
        return await self._transport.call("GET", path, OpenAPISpecContent)


class OpenAPISpecs(Resource):
    @cached_property
    def versions(self) -> OpenAPISpecVersions:
        return OpenAPISpecVersions(self._transport)

    @endpoint("GET", _O)
    def list(self, org_id: str, **paging: Unpack[Paging]) -> AsyncPaginator[OpenAPISpec]:
        path = endpoint_path(self.list, organizationId=org_id)
        return self._list(path, OpenAPISpec, **paging)

    @endpoint("POST", _O)
    async def create(
        self, org_id: str, *, slug: str, url: str | None = None, text: str | None = None
    ) -> OpenAPISpec:
        """Processing starts in the background: poll `get` until `processingState` is
        `complete` (then `lastProcessErrorCode` says whether it failed)."""
        path = endpoint_path(self.create, organizationId=org_id)
        body = {"slug": slug, "source": _source(url, text)}
        return await self._transport.call("POST", path, OpenAPISpec, json=body)

    @endpoint("PUT", f"{_O}/{{specSlug}}")
    async def put(
        self, org_id: str, slug: str, *, url: str | None = None, text: str | None = None
    ) -> OpenAPISpec:
        """Creates the spec, or replaces its source and processes it again."""
        path = endpoint_path(self.put, organizationId=org_id, specSlug=slug)
        body = {"source": _source(url, text)}
        return await self._transport.call("PUT", path, OpenAPISpec, json=body)

    @endpoint("GET", f"{_O}/{{specSlug}}")
    async def get(self, org_id: str, slug: str) -> OpenAPISpec:
        path = endpoint_path(self.get, organizationId=org_id, specSlug=slug)
        return await self._transport.call("GET", path, OpenAPISpec)

    @endpoint("PATCH", f"{_O}/{{specSlug}}")
    async def update(
        self, org_id: str, slug: str, *, visibility: Literal["private", "public"]
    ) -> OpenAPISpec:
        path = endpoint_path(self.update, organizationId=org_id, specSlug=slug)
        body = {"visibility": visibility}
        return await self._transport.call("PATCH", path, OpenAPISpec, json=body)

    @endpoint("DELETE", f"{_O}/{{specSlug}}")
    async def delete(self, org_id: str, slug: str) -> None:
        path = endpoint_path(self.delete, organizationId=org_id, specSlug=slug)
        await self._transport.call_empty("DELETE", path)
