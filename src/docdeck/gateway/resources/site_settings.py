"""`client.sites.redirects` and `client.sites.customization` (platform operations)."""

from __future__ import annotations

from typing import Any

from docdeck.gateway._pagination import AsyncPaginator
from docdeck.gateway._resource import Resource, seg
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.gateway.resources.site_parts import site_path
from docdeck.models import SiteCustomizationSettings, SiteRedirect, SiteRedirectResolution


class SiteRedirects(Resource):
    """Redirects (platform operations): a path of the site that leads somewhere else."""

    def list(
        self, org_id: str, site_id: str, *, page: str | None = None, limit: int | None = None
    ) -> AsyncPaginator[SiteRedirect]:
        return self._list(
            f"{site_path(org_id, site_id)}/redirects", SiteRedirect, page=page, limit=limit
        )

    async def create(
        self, org_id: str, site_id: str, *, source: str, destination: dict[str, str]
    ) -> SiteRedirect:
        """`destination`: `{kind: "site-section", siteSectionId}`, `{kind: "site-space",
        siteSpaceId}` or `{kind: "site-page", siteSpaceId, pageId}`."""
        url = f"{site_path(org_id, site_id)}/redirects"
        body = {"source": source, "destination": destination}
        return await self._transport.call("POST", url, SiteRedirect, json=body)

    async def update(
        self,
        org_id: str,
        site_id: str,
        redirect_id: str,
        *,
        source: str | NotGiven = NOT_GIVEN,
        destination: dict[str, str] | NotGiven = NOT_GIVEN,
    ) -> SiteRedirect:
        url = f"{site_path(org_id, site_id)}/redirects/{seg(redirect_id)}"
        body = body_of(source=source, destination=destination)
        return await self._transport.call("PATCH", url, SiteRedirect, json=body)

    async def delete(self, org_id: str, site_id: str, redirect_id: str) -> None:
        url = f"{site_path(org_id, site_id)}/redirects/{seg(redirect_id)}"
        await self._transport.call_empty("DELETE", url)

    async def resolve(
        self, org_id: str, site_id: str, source: str, *, shareKey: str | None = None
    ) -> SiteRedirectResolution:
        params = {"source": source, **({"shareKey": shareKey} if shareKey else {})}
        url = f"{site_path(org_id, site_id)}/redirect"
        return await self._transport.call("GET", url, SiteRedirectResolution, params=params)


class SiteCustomizationResource(Resource):
    """Customization settings (platform operations), as the platform's JSON objects."""

    async def get(self, org_id: str, site_id: str) -> SiteCustomizationSettings:
        url = f"{site_path(org_id, site_id)}/customization"
        return await self._transport.call("GET", url, SiteCustomizationSettings)

    async def update(
        self, org_id: str, site_id: str, settings: SiteCustomizationSettings | dict[str, Any]
    ) -> SiteCustomizationSettings:
        """A full replacement: send every group of settings (start from `get`)."""
        url = f"{site_path(org_id, site_id)}/customization"
        body = (
            settings.model_dump(mode="json", exclude_none=True)
            if isinstance(settings, SiteCustomizationSettings)
            else settings
        )
        return await self._transport.call("PUT", url, SiteCustomizationSettings, json=body)

    async def get_site_space(
        self, org_id: str, site_id: str, site_space_id: str
    ) -> SiteCustomizationSettings:
        url = f"{site_path(org_id, site_id)}/site-spaces/{seg(site_space_id)}/customization"
        return await self._transport.call("GET", url, SiteCustomizationSettings)

    async def override_site_space(
        self, org_id: str, site_id: str, site_space_id: str, override: dict[str, Any]
    ) -> SiteCustomizationSettings:
        """Patches the site space's override; a null value resets that setting."""
        url = f"{site_path(org_id, site_id)}/site-spaces/{seg(site_space_id)}/customization"
        return await self._transport.call("PATCH", url, SiteCustomizationSettings, json=override)

    async def delete_site_space_override(
        self, org_id: str, site_id: str, site_space_id: str
    ) -> None:
        url = f"{site_path(org_id, site_id)}/site-spaces/{seg(site_space_id)}/customization"
        await self._transport.call_empty("DELETE", url)
