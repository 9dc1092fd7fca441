"""`client.sites.redirects` and `client.sites.customization` (platform operations)."""

from __future__ import annotations

from typing import Any, Unpack

from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import Resource, path_template
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.gateway.resources.site_parts import ST
from docdeck.models import SiteCustomizationSettings, SiteRedirect, SiteRedirectResolution

# Platform operations beyond the reference: no @endpoint marker, each path written once here.
_REDIRECTS = f"{ST}/redirects"
_REDIRECT = f"{ST}/redirects/{{redirectId}}"
_RESOLVE = f"{ST}/redirect"
_CUSTOMIZATION = f"{ST}/customization"
_SITE_SPACE_CUSTOMIZATION = f"{ST}/site-spaces/{{siteSpaceId}}/customization"


def _site_space_customization(org_id: str, site_id: str, site_space_id: str) -> str:
    return path_template(
        _SITE_SPACE_CUSTOMIZATION, organizationId=org_id, siteId=site_id, siteSpaceId=site_space_id
    )


class SiteRedirects(Resource):
    """Redirects (platform operations): a path of the site that leads somewhere else."""

    def list(
        self, org_id: str, site_id: str, **paging: Unpack[Paging]
    ) -> AsyncPaginator[SiteRedirect]:
        url = path_template(_REDIRECTS, organizationId=org_id, siteId=site_id)
        return self._list(url, SiteRedirect, **paging)

    async def create(
        self, org_id: str, site_id: str, *, source: str, destination: dict[str, str]
    ) -> SiteRedirect:
        """`destination`: `{kind: "site-section", siteSectionId}`, `{kind: "site-space",
        siteSpaceId}` or `{kind: "site-page", siteSpaceId, pageId}`."""
        url = path_template(_REDIRECTS, organizationId=org_id, siteId=site_id)
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
        url = path_template(
            _REDIRECT, organizationId=org_id, siteId=site_id, redirectId=redirect_id
        )
        body = body_of(source=source, destination=destination)
        return await self._transport.call("PATCH", url, SiteRedirect, json=body)

    async def delete(self, org_id: str, site_id: str, redirect_id: str) -> None:
        url = path_template(
            _REDIRECT, organizationId=org_id, siteId=site_id, redirectId=redirect_id
        )
        await self._transport.call_empty("DELETE", url)

    async def resolve(
        self, org_id: str, site_id: str, source: str, *, shareKey: str | None = None
    ) -> SiteRedirectResolution:
        params = {"source": source, **({"shareKey": shareKey} if shareKey else {})}
        url = path_template(_RESOLVE, organizationId=org_id, siteId=site_id)
        return await self._transport.call("GET", url, SiteRedirectResolution, params=params)


class SiteCustomizationResource(Resource):
    """Customization settings (platform operations), as the platform's JSON objects."""

    async def get(self, org_id: str, site_id: str) -> SiteCustomizationSettings:
        url = path_template(_CUSTOMIZATION, organizationId=org_id, siteId=site_id)
        return await self._transport.call("GET", url, SiteCustomizationSettings)

    async def update(
        self, org_id: str, site_id: str, settings: SiteCustomizationSettings | dict[str, Any]
    ) -> SiteCustomizationSettings:
        """A full replacement: send every group of settings (start from `get`)."""
        url = path_template(_CUSTOMIZATION, organizationId=org_id, siteId=site_id)
        body = (
            settings.model_dump(mode="json", exclude_none=True)
            if isinstance(settings, SiteCustomizationSettings)
            else settings
        )
        return await self._transport.call("PUT", url, SiteCustomizationSettings, json=body)

    async def get_site_space(
        self, org_id: str, site_id: str, site_space_id: str
    ) -> SiteCustomizationSettings:
        url = _site_space_customization(org_id, site_id, site_space_id)
        return await self._transport.call("GET", url, SiteCustomizationSettings)

    async def override_site_space(
        self, org_id: str, site_id: str, site_space_id: str, override: dict[str, Any]
    ) -> SiteCustomizationSettings:
        """Patches the site space's override; a null value resets that setting."""
        url = _site_space_customization(org_id, site_id, site_space_id)
        return await self._transport.call("PATCH", url, SiteCustomizationSettings, json=override)

    async def delete_site_space_override(
        self, org_id: str, site_id: str, site_space_id: str
    ) -> None:
        url = _site_space_customization(org_id, site_id, site_space_id)
        await self._transport.call_empty("DELETE", url)
