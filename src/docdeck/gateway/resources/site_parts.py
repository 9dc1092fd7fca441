"""The nested groups of `client.sites`: sections, section groups, site spaces, share links,
structure (redirects and customization: `site_settings`)."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, Unpack

from pydantic import BaseModel, TypeAdapter

from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import DEFERRED, Resource, endpoint, endpoint_path, path_template
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.models import (
    ShareLink,
    SiteSection,
    SiteSectionGroup,
    SiteSpace,
    SiteStructure,
    SiteStructureItem,
)

ST = "/v1/orgs/{organizationId}/sites/{siteId}"
Position = dict[str, Any]
_STRUCTURE: TypeAdapter[SiteStructure] = TypeAdapter(SiteStructure, config=DEFERRED)
_ITEM: TypeAdapter[SiteStructureItem] = TypeAdapter(SiteStructureItem, config=DEFERRED)


M = TypeVar("M", bound=BaseModel)


class _SitePart(Resource):
    """A collection under a site (`{ST}/{part}`): the URL, delete and the deprecated move
    are the same for sections, section groups, site spaces and share links."""

    _id: ClassVar[str]
    """The name of an item's id in the paths (`siteSectionId`, ...)."""

    def _url(
        self,
        operation: Callable[..., object],
        org_id: str,
        site_id: str,
        item_id: str | None = None,
    ) -> str:
        """`operation`'s URL, built from the path its `@endpoint` marker declares."""
        return endpoint_path(
            operation, organizationId=org_id, siteId=site_id, **{self._id: item_id}
        )

    async def _delete(
        self, operation: Callable[..., object], org_id: str, site_id: str, item_id: str
    ) -> None:
        await self._transport.call_empty("DELETE", self._url(operation, org_id, site_id, item_id))

    async def _move(
        self,
        operation: Callable[..., object],
        org_id: str,
        site_id: str,
        item_id: str,
        position: Position | NotGiven,
        model: type[M],
    ) -> M:
        url = self._url(operation, org_id, site_id, item_id)
        return await self._transport.call(
            "POST", url, model, json=body_of(position=position), send_json=True
        )


class SiteSections(_SitePart):
    _id = "siteSectionId"

    @endpoint("GET", f"{ST}/sections")
    def list(
        self,
        org_id: str,
        site_id: str,
        *,
        shareKey: str | None = None,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[SiteSection]:
        return self._list(
            self._url(self.list, org_id, site_id),
            SiteSection,
            shareKey=shareKey,
            **paging,
        )

    @endpoint("POST", f"{ST}/sections")
    async def create(
        self,
        org_id: str,
        site_id: str,
        *,
        spaceId: str,
        title: str | NotGiven | None = NOT_GIVEN,
        icon: str | NotGiven | None = NOT_GIVEN,
    ) -> SiteSection:
        body = body_of(spaceId=spaceId, title=title, icon=icon)
        url = self._url(self.create, org_id, site_id)
        return await self._transport.call("POST", url, SiteSection, json=body)

    @endpoint("PATCH", f"{ST}/sections/{{siteSectionId}}")
    async def update(
        self,
        org_id: str,
        site_id: str,
        section_id: str,
        *,
        title: str | NotGiven = NOT_GIVEN,
        path: str | NotGiven = NOT_GIVEN,
        defaultSiteSpace: str | NotGiven = NOT_GIVEN,
        condition: str | NotGiven | None = NOT_GIVEN,
        icon: str | NotGiven | None = NOT_GIVEN,
        description: str | NotGiven | None = NOT_GIVEN,
    ) -> SiteSection:
        body = body_of(
            title=title,
            path=path,
            defaultSiteSpace=defaultSiteSpace,
            condition=condition,
            icon=icon,
            description=description,
        )
        url = self._url(self.update, org_id, site_id, section_id)
        return await self._transport.call("PATCH", url, SiteSection, json=body)

    @endpoint("DELETE", f"{ST}/sections/{{siteSectionId}}")
    async def delete(self, org_id: str, site_id: str, section_id: str) -> None:
        await self._delete(self.delete, org_id, site_id, section_id)

    @endpoint("POST", f"{ST}/sections/{{siteSectionId}}/move")
    async def move(
        self,
        org_id: str,
        site_id: str,
        section_id: str,
        *,
        position: Position | NotGiven = NOT_GIVEN,
    ) -> SiteSection:
        """Deprecated by the platform: prefer `client.sites.structure.sort`."""
        return await self._move(self.move, org_id, site_id, section_id, position, SiteSection)


class SiteSectionGroups(_SitePart):
    _id = "siteSectionGroupId"

    @endpoint("GET", f"{ST}/section-groups")
    def list(
        self, org_id: str, site_id: str, **paging: Unpack[Paging]
    ) -> AsyncPaginator[SiteSectionGroup]:
        return self._list(self._url(self.list, org_id, site_id), SiteSectionGroup, **paging)

    @endpoint("POST", f"{ST}/section-groups")
    async def create(
        self,
        org_id: str,
        site_id: str,
        *,
        title: str,
        icon: str | NotGiven | None = NOT_GIVEN,
        sections: builtins.list[str] | NotGiven = NOT_GIVEN,
    ) -> SiteSectionGroup:
        body = body_of(title=title, icon=icon, sections=sections)
        url = self._url(self.create, org_id, site_id)
        return await self._transport.call("POST", url, SiteSectionGroup, json=body)

    @endpoint("PATCH", f"{ST}/section-groups/{{siteSectionGroupId}}")
    async def update(
        self,
        org_id: str,
        site_id: str,
        group_id: str,
        *,
        title: str | NotGiven = NOT_GIVEN,
        icon: str | NotGiven | None = NOT_GIVEN,
    ) -> SiteSectionGroup:
        url = self._url(self.update, org_id, site_id, group_id)
        return await self._transport.call(
            "PATCH", url, SiteSectionGroup, json=body_of(title=title, icon=icon)
        )

    @endpoint("DELETE", f"{ST}/section-groups/{{siteSectionGroupId}}")
    async def delete(self, org_id: str, site_id: str, group_id: str) -> None:
        await self._delete(self.delete, org_id, site_id, group_id)

    @endpoint("POST", f"{ST}/section-groups/{{siteSectionGroupId}}/sections")
    async def add_section(
        self, org_id: str, site_id: str, group_id: str, *, sectionId: str
    ) -> SiteSectionGroup:
        url = self._url(self.add_section, org_id, site_id, group_id)
        return await self._transport.call(
            "POST", url, SiteSectionGroup, json={"sectionId": sectionId}
        )

    @endpoint("DELETE", f"{ST}/section-groups/{{siteSectionGroupId}}/sections/{{siteSectionId}}")
    async def remove_section(
        self, org_id: str, site_id: str, group_id: str, section_id: str
    ) -> None:
        url = endpoint_path(
            self.remove_section,
            organizationId=org_id,
            siteId=site_id,
            siteSectionGroupId=group_id,
            siteSectionId=section_id,
        )
        await self._transport.call_empty("DELETE", url)

    @endpoint("POST", f"{ST}/section-groups/{{siteSectionGroupId}}/move")
    async def move(
        self, org_id: str, site_id: str, group_id: str, *, position: Position | NotGiven = NOT_GIVEN
    ) -> SiteSectionGroup:
        """Deprecated by the platform: prefer `client.sites.structure.sort`."""
        return await self._move(self.move, org_id, site_id, group_id, position, SiteSectionGroup)


class SiteSpaces(_SitePart):
    _id = "siteSpaceId"

    @endpoint("GET", f"{ST}/site-spaces")
    def list(
        self,
        org_id: str,
        site_id: str,
        *,
        default: bool | None = None,
        shareKey: str | None = None,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[SiteSpace]:
        return self._list(
            self._url(self.list, org_id, site_id),
            SiteSpace,
            default=default,
            shareKey=shareKey,
            **paging,
        )

    @endpoint("POST", f"{ST}/site-spaces")
    async def create(
        self, org_id: str, site_id: str, *, spaceId: str, sectionId: str | NotGiven = NOT_GIVEN
    ) -> SiteSpace:
        url = self._url(self.create, org_id, site_id)
        return await self._transport.call(
            "POST", url, SiteSpace, json=body_of(spaceId=spaceId, sectionId=sectionId)
        )

    @endpoint("PATCH", f"{ST}/site-spaces/{{siteSpaceId}}")
    async def update(
        self,
        org_id: str,
        site_id: str,
        site_space_id: str,
        *,
        path: str | NotGiven = NOT_GIVEN,
        condition: str | NotGiven | None = NOT_GIVEN,
        spaceId: str | NotGiven = NOT_GIVEN,
    ) -> SiteSpace:
        url = self._url(self.update, org_id, site_id, site_space_id)
        body = body_of(path=path, condition=condition, spaceId=spaceId)
        return await self._transport.call("PATCH", url, SiteSpace, json=body)

    @endpoint("DELETE", f"{ST}/site-spaces/{{siteSpaceId}}")
    async def delete(self, org_id: str, site_id: str, site_space_id: str) -> None:
        await self._delete(self.delete, org_id, site_id, site_space_id)

    @endpoint("POST", f"{ST}/site-spaces/{{siteSpaceId}}/move")
    async def move(
        self,
        org_id: str,
        site_id: str,
        site_space_id: str,
        *,
        position: Position | NotGiven = NOT_GIVEN,
    ) -> SiteSpace:
        """Deprecated by the platform: prefer `client.sites.structure.sort`."""
        return await self._move(self.move, org_id, site_id, site_space_id, position, SiteSpace)


class SiteShareLinks(_SitePart):
    _id = "shareLinkId"

    @endpoint("GET", f"{ST}/share-links")
    def list(
        self, org_id: str, site_id: str, **paging: Unpack[Paging]
    ) -> AsyncPaginator[ShareLink]:
        return self._list(self._url(self.list, org_id, site_id), ShareLink, **paging)

    @endpoint("POST", f"{ST}/share-links")
    async def create(self, org_id: str, site_id: str, *, name: str) -> ShareLink:
        url = self._url(self.create, org_id, site_id)
        return await self._transport.call("POST", url, ShareLink, json={"name": name})

    @endpoint("PATCH", f"{ST}/share-links/{{shareLinkId}}")
    async def update(
        self,
        org_id: str,
        site_id: str,
        share_link_id: str,
        *,
        active: bool | NotGiven = NOT_GIVEN,
        name: str | NotGiven = NOT_GIVEN,
    ) -> ShareLink:
        url = self._url(self.update, org_id, site_id, share_link_id)
        return await self._transport.call(
            "PATCH", url, ShareLink, json=body_of(active=active, name=name)
        )

    @endpoint("DELETE", f"{ST}/share-links/{{shareLinkId}}")
    async def delete(self, org_id: str, site_id: str, share_link_id: str) -> None:
        await self._delete(self.delete, org_id, site_id, share_link_id)


class SiteStructureResource(Resource):
    """`GET {ST}/structure` and `PATCH {ST}/structure/sort` (platform operations)."""

    async def get(self, org_id: str, site_id: str, *, shareKey: str | None = None) -> SiteStructure:
        params = {"shareKey": shareKey} if shareKey else None
        url = path_template(f"{ST}/structure", organizationId=org_id, siteId=site_id)
        return await self._transport.call("GET", url, _STRUCTURE, params=params)

    async def sort(
        self,
        org_id: str,
        site_id: str,
        *,
        item: dict[str, str],
        before: dict[str, str] | None = None,
        after: dict[str, str] | None = None,
    ) -> SiteStructureItem:
        """Moves `item` ({type, id}) before or after a sibling; neither: to the end."""
        position: dict[str, Any] = {}
        if before is not None:
            position["before"] = before
        if after is not None:
            position["after"] = after
        url = path_template(f"{ST}/structure/sort", organizationId=org_id, siteId=site_id)
        body = {"item": item, "position": position}
        return await self._transport.call("PATCH", url, _ITEM, json=body)
