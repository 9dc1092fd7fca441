"""Organizations."""

from __future__ import annotations

import builtins
from typing import Unpack

from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import Resource, endpoint, endpoint_path
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.models import (
    EmailDomainOrganizations,
    MemberRoleOrGuest,
    Organization,
    PingResult,
    SearchSpaceResult,
    SitePointer,
)

__all__ = ["Orgs"]


class Orgs(Resource):
    @endpoint("GET", "/v1/orgs")
    def list(self, **paging: Unpack[Paging]) -> AsyncPaginator[Organization]:
        return self._list(endpoint_path(self.list), Organization, **paging)

    @endpoint("GET", "/v1/orgs/{organizationId}")
    async def get(self, org_id: str) -> Organization:
        return await self._transport.call(
            "GET", endpoint_path(self.get, organizationId=org_id), Organization
        )

    @endpoint("PATCH", "/v1/orgs/{organizationId}")
    async def update(
        self,
        org_id: str,
        *,
        title: str | NotGiven = NOT_GIVEN,
        emailDomains: builtins.list[str] | NotGiven = NOT_GIVEN,
        hostname: str | NotGiven = NOT_GIVEN,
        defaultRole: MemberRoleOrGuest | NotGiven = NOT_GIVEN,
        defaultContent: SitePointer | dict[str, str] | NotGiven | None = NOT_GIVEN,
        logo: str | NotGiven | None = NOT_GIVEN,
        sso: bool | NotGiven = NOT_GIVEN,
        ai: bool | NotGiven = NOT_GIVEN,
        inviteLinks: bool | NotGiven = NOT_GIVEN,
    ) -> Organization:
        body = body_of(
            title=title,
            emailDomains=emailDomains,
            hostname=hostname,
            defaultRole=defaultRole,
            defaultContent=defaultContent,
            logo=logo,
            sso=sso,
            ai=ai,
            inviteLinks=inviteLinks,
        )
        path = endpoint_path(self.update, organizationId=org_id)
        return await self._transport.call("PATCH", path, Organization, json=body, send_json=True)

    @endpoint("DELETE", "/v1/orgs/{organizationId}/link-invites/{inviteId}")
    async def delete_invite(self, org_id: str, invite_id: str) -> None:
        path = endpoint_path(self.delete_invite, organizationId=org_id, inviteId=invite_id)
        await self._transport.call_empty("DELETE", path)

    @endpoint("GET", "/v1/orgs/{organizationId}/search")
    def search(
        self, org_id: str, query: str, **paging: Unpack[Paging]
    ) -> AsyncPaginator[SearchSpaceResult]:
        path = endpoint_path(self.search, organizationId=org_id)
        return self._list(path, SearchSpaceResult, query=query, **paging)

    @endpoint("GET", "/v1/email-domains/{emailDomain}/orgs")
    async def by_email_domain(self, domain: str) -> builtins.list[Organization]:
        path = endpoint_path(self.by_email_domain, emailDomain=domain)
        result = await self._transport.call("GET", path, EmailDomainOrganizations)
        return result.organizations

    @endpoint("POST", "/v1/orgs/{organizationId}/ping")
    async def ping(self, org_id: str) -> PingResult:
        path = endpoint_path(self.ping, organizationId=org_id)
        return await self._transport.call("POST", path, PingResult)
