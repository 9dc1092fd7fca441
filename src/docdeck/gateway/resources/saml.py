"""SAML single sign-on: identity providers and the login entry points."""

from __future__ import annotations

import builtins

from docdeck.gateway._pagination import AsyncPaginator
from docdeck.gateway._resource import Resource, endpoint, seg
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of
from docdeck.models import MemberRoleOrGuest, SAMLProvider, SSOProviderLogin, SSOProviderLogins

__all__ = ["SAML"]

_O = "/v1/orgs/{organizationId}"


def _saml_path(org_id: str, provider_id: str | None = None) -> str:
    path = f"/v1/orgs/{seg(org_id)}/saml"
    return path if provider_id is None else f"{path}/{seg(provider_id)}"


class SAML(Resource):
    """A provider is `pending` until it has the identity provider's entity id, certificate
    (X.509 PEM) and SSO URL; `service` says what to give the identity provider."""

    @endpoint("GET", f"{_O}/saml")
    def list(
        self, org_id: str, *, page: str | None = None, limit: int | None = None
    ) -> AsyncPaginator[SAMLProvider]:
        return self._list(_saml_path(org_id), SAMLProvider, page=page, limit=limit)

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
        body = body_of(
            label=label,
            entityID=entity_id,
            certificate=certificate,
            ssoURL=sso_url,
            defaultTeam=default_team,
            defaultRole=default_role,
        )
        return await self._transport.call("POST", _saml_path(org_id), SAMLProvider, json=body)

    @endpoint("GET", f"{_O}/saml/{{samlProviderId}}")
    async def get(self, org_id: str, provider_id: str) -> SAMLProvider:
        return await self._transport.call("GET", _saml_path(org_id, provider_id), SAMLProvider)

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
        body = body_of(
            label=label,
            entityID=entity_id,
            certificate=certificate,
            ssoURL=sso_url,
            defaultTeam=default_team,
            defaultRole=default_role,
        )
        return await self._transport.call(
            "PATCH", _saml_path(org_id, provider_id), SAMLProvider, json=body
        )

    @endpoint("DELETE", f"{_O}/saml/{{samlProviderId}}")
    async def delete(self, org_id: str, provider_id: str) -> None:
        await self._transport.call_empty("DELETE", _saml_path(org_id, provider_id))

    @endpoint("GET", f"{_O}/sso")
    async def logins(self, org_id: str) -> builtins.list[SSOProviderLogin]:
        """The login entry points of the organization's active providers."""
        found = await self._transport.call("GET", f"/v1/orgs/{seg(org_id)}/sso", SSOProviderLogins)
        return found.items
