"""SAML single sign-on: identity providers and the login entry points."""

from __future__ import annotations

import builtins
from typing import Unpack

from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import Resource, endpoint, endpoint_path
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.models import MemberRoleOrGuest, SAMLProvider, SSOProviderLogin, SSOProviderLogins

__all__ = ["SAML"]

_O = "/v1/orgs/{organizationId}"


def _provider_body(
    label: str | NotGiven,
    entity_id: str | NotGiven | None,
    certificate: str | NotGiven | None,
    sso_url: str | NotGiven | None,
    default_team: str | NotGiven | None,
    default_role: MemberRoleOrGuest | NotGiven,
) -> dict[str, object]:
    """A provider's fields under their wire names (the same for create and update)."""
    return body_of(
        label=label,
        entityID=entity_id,
        certificate=certificate,
        ssoURL=sso_url,
        defaultTeam=default_team,
        defaultRole=default_role,
    )


class SAML(Resource):
    """A provider is `pending` until it has the identity provider's entity id, certificate
    (X.509 PEM) and SSO URL; `service` says what to give the identity provider."""

    @endpoint("GET", f"{_O}/saml")
    def list(self, org_id: str, **paging: Unpack[Paging]) -> AsyncPaginator[SAMLProvider]:
        path = endpoint_path(self.list, organizationId=org_id)
        return self._list(path, SAMLProvider, **paging)

    @endpoint("POST", f"{_O}/saml")
    async def create(
        self,
        org_id: str,
        *,
        label: str,
        entity_id: str | NotGiven = NOT_GIVEN,
        certificate: str | NotGiven = NOT_GIVEN,
        sso_url: str | NotGiven = NOT_GIVEN,
        default_team: str | NotGiven = NOT_GIVEN,
        default_role: MemberRoleOrGuest | NotGiven = NOT_GIVEN,
    ) -> SAMLProvider:
        body = _provider_body(label, entity_id, certificate, sso_url, default_team, default_role)
        path = endpoint_path(self.create, organizationId=org_id)
        return await self._transport.call("POST", path, SAMLProvider, json=body)

    @endpoint("GET", f"{_O}/saml/{{samlProviderId}}")
    async def get(self, org_id: str, provider_id: str) -> SAMLProvider:
        path = endpoint_path(self.get, organizationId=org_id, samlProviderId=provider_id)
        return await self._transport.call("GET", path, SAMLProvider)

    @endpoint("PATCH", f"{_O}/saml/{{samlProviderId}}")
    async def update(
        self,
        org_id: str,
        provider_id: str,
        *,
        label: str | NotGiven = NOT_GIVEN,
        entity_id: str | NotGiven | None = NOT_GIVEN,
        certificate: str | NotGiven | None = NOT_GIVEN,
        sso_url: str | NotGiven | None = NOT_GIVEN,
        default_team: str | NotGiven | None = NOT_GIVEN,
        default_role: MemberRoleOrGuest | NotGiven = NOT_GIVEN,
    ) -> SAMLProvider:
        """Only the fields given change."""
        body = _provider_body(label, entity_id, certificate, sso_url, default_team, default_role)
        path = endpoint_path(self.update, organizationId=org_id, samlProviderId=provider_id)
        return await self._transport.call("PATCH", path, SAMLProvider, json=body)

    @endpoint("DELETE", f"{_O}/saml/{{samlProviderId}}")
    async def delete(self, org_id: str, provider_id: str) -> None:
        path = endpoint_path(self.delete, organizationId=org_id, samlProviderId=provider_id)
        await self._transport.call_empty("DELETE", path)

    @endpoint("GET", f"{_O}/sso")
    async def logins(self, org_id: str) -> builtins.list[SSOProviderLogin]:
        """The login entry points of the organization's active providers."""
        path = endpoint_path(self.logins, organizationId=org_id)
        found = await self._transport.call("GET", path, SSOProviderLogins)
        return found.items
