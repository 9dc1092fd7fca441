"""Docs sites, with their nested groups (`client.sites.sections`, ...)."""

from __future__ import annotations

import builtins
from functools import cached_property
from typing import Any, Literal, Unpack

from pydantic import TypeAdapter

from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import DEFERRED, Resource, endpoint, endpoint_path, path_template
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.gateway.resources.site_parts import (
    SiteSectionGroups,
    SiteSections,
    SiteShareLinks,
    SiteSpaces,
    SiteStructureResource,
)
from docdeck.gateway.resources.site_settings import SiteCustomizationResource, SiteRedirects
from docdeck.models import (
    PublishedContentSite,
    PublishResult,
    Site,
    SiteAdaptiveSchema,
    SiteAgentsContext,
    SitePreview,
    SiteType,
    SiteVisibility,
    TemplateCondition,
    TemplateConditions,
)

__all__ = ["Sites"]

_O = "/v1/orgs/{organizationId}"
ST = f"{_O}/sites/{{siteId}}"
_PUBLISH: TypeAdapter[PublishResult] = TypeAdapter(PublishResult, config=DEFERRED)


class Sites(Resource):
    @cached_property
    def sections(self) -> SiteSections:
        return SiteSections(self._transport)

    @cached_property
    def section_groups(self) -> SiteSectionGroups:
        return SiteSectionGroups(self._transport)

    @cached_property
    def site_spaces(self) -> SiteSpaces:
        return SiteSpaces(self._transport)

    @cached_property
    def share_links(self) -> SiteShareLinks:
        return SiteShareLinks(self._transport)

    @cached_property
    def customization(self) -> SiteCustomizationResource:
        return SiteCustomizationResource(self._transport)

    @cached_property
    def redirects(self) -> SiteRedirects:
        return SiteRedirects(self._transport)

    @cached_property
    def structure(self) -> SiteStructureResource:
        return SiteStructureResource(self._transport)

    @endpoint("GET", f"{_O}/sites")
    def list(
        self,
        org_id: str,
        *,
        space: str | None = None,
        title: str | None = None,
        published: bool | None = None,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[Site]:
        return self._list(
            endpoint_path(self.list, organizationId=org_id),
            Site,
            space=space,
            title=title,
            published=published,
            **paging,
        )

    @endpoint("POST", f"{_O}/sites")
    async def create(
        self,
        org_id: str,
        *,
        type: SiteType | NotGiven = NOT_GIVEN,
        title: str | NotGiven = NOT_GIVEN,
        visibility: SiteVisibility | NotGiven = NOT_GIVEN,
        spaces: builtins.list[str] | Literal["sample", "empty"] | NotGiven = NOT_GIVEN,
    ) -> Site:
        body = body_of(type=type, title=title, visibility=visibility, spaces=spaces)
        path = endpoint_path(self.create, organizationId=org_id)
        return await self._transport.call("POST", path, Site, json=body, send_json=True)

    @endpoint("GET", ST)
    async def get(self, org_id: str, site_id: str) -> Site:
        path = endpoint_path(self.get, organizationId=org_id, siteId=site_id)
        return await self._transport.call("GET", path, Site)

    @endpoint("PATCH", ST)
    async def update(
        self,
        org_id: str,
        site_id: str,
        *,
        title: str | NotGiven = NOT_GIVEN,
        visibility: SiteVisibility | NotGiven = NOT_GIVEN,
        basename: str | NotGiven = NOT_GIVEN,
        adaptiveContent: dict[str, bool] | NotGiven = NOT_GIVEN,
        agentsContext: SiteAgentsContext | NotGiven = NOT_GIVEN,
        defaultSiteSpace: str | NotGiven = NOT_GIVEN,
        defaultSiteSection: str | NotGiven = NOT_GIVEN,
        proxy: str | NotGiven | None = NOT_GIVEN,
    ) -> Site:
        body = body_of(
            title=title,
            visibility=visibility,
            basename=basename,
            adaptiveContent=adaptiveContent,
            agentsContext=agentsContext,
            defaultSiteSpace=defaultSiteSpace,
            defaultSiteSection=defaultSiteSection,
            proxy=proxy,
        )
        path = endpoint_path(self.update, organizationId=org_id, siteId=site_id)
        return await self._transport.call("PATCH", path, Site, json=body)

    @endpoint("DELETE", ST)
    async def delete(self, org_id: str, site_id: str) -> None:
        await self._transport.call_empty(
            "DELETE", endpoint_path(self.delete, organizationId=org_id, siteId=site_id)
        )

    @endpoint("GET", f"{ST}/adaptive-schema")
    async def get_adaptive_schema(self, org_id: str, site_id: str) -> SiteAdaptiveSchema:
        url = endpoint_path(self.get_adaptive_schema, organizationId=org_id, siteId=site_id)
        return await self._transport.call("GET", url, SiteAdaptiveSchema)

    @endpoint("PUT", f"{ST}/adaptive-schema")
    async def update_adaptive_schema(
        self, org_id: str, site_id: str, *, jsonSchema: dict[str, Any]
    ) -> SiteAdaptiveSchema:
        url = endpoint_path(self.update_adaptive_schema, organizationId=org_id, siteId=site_id)
        return await self._transport.call(
            "PUT", url, SiteAdaptiveSchema, json={"jsonSchema": jsonSchema}
        )

    @endpoint("GET", f"{ST}/adaptive-schema/template-conditions")
    async def template_conditions(
        self, org_id: str, site_id: str
    ) -> builtins.list[TemplateCondition]:
        url = endpoint_path(self.template_conditions, organizationId=org_id, siteId=site_id)
        return (await self._transport.call("GET", url, TemplateConditions)).items

    @endpoint("GET", f"{ST}/published")
    async def published(
        self, org_id: str, site_id: str, *, shareKey: str | None = None
    ) -> PublishedContentSite:
        params = {"shareKey": shareKey} if shareKey else None
        url = endpoint_path(self.published, organizationId=org_id, siteId=site_id)
        return await self._transport.call("GET", url, PublishedContentSite, params=params)

    async def publish(self, org_id: str, site_id: str) -> PublishResult:
        """The site, or a `SiteCheckout` when the site's plan must be upgraded first."""
        url = path_template(f"{ST}/publish", organizationId=org_id, siteId=site_id)
        return await self._transport.call("POST", url, _PUBLISH)

    async def unpublish(self, org_id: str, site_id: str) -> Site:
        url = path_template(f"{ST}/unpublish", organizationId=org_id, siteId=site_id)
        return await self._transport.call("POST", url, Site)

    async def preview(
        self, org_id: str, site_id: str, *, siteSpace: str | None = None
    ) -> SitePreview:
        params = {"siteSpace": siteSpace} if siteSpace else None
        url = path_template(f"{ST}/publishing/preview", organizationId=org_id, siteId=site_id)
        return await self._transport.call("GET", url, SitePreview, params=params)
