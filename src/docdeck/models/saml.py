"""SAML single sign-on: an organization's identity providers and its login entry points."""

from typing import Annotated, Literal

from pydantic import Field

from docdeck.models._base import MemberRole, MemberRoleOrGuest, RequestBody, Resource, Timestamp
from docdeck.models.members import Team

SAMLProviderStatus = Literal["active", "pending"]
SAMLProviderLabel = Annotated[str, Field(min_length=1, max_length=30)]
SAMLProviderEntityID = Annotated[str, Field(max_length=1024)]
SAMLProviderCertificate = Annotated[str, Field(max_length=10000)]
SAMLProviderSSOURL = Annotated[str, Field(max_length=2048)]


class SAMLProviderService(Resource):
    """What the identity provider is told about the service (the sandbox derives it)."""

    acsURL: str
    startURL: str
    entityID: str


class SAMLProviderUrls(Resource):
    location: str


class SAMLProvider(Resource):
    """Fields the identity provider has not been given yet may be empty or absent."""

    object: Literal["saml-provider"] = "saml-provider"
    id: str
    label: str
    ssoURL: str | None = None
    entityID: str | None = None
    certificate: str | None = None
    defaultTeam: Team | None = None
    defaultRole: MemberRole | str | None = None
    createdAt: Timestamp
    status: SAMLProviderStatus | str
    service: SAMLProviderService | None = None
    urls: SAMLProviderUrls


class SSOProviderLogin(Resource):
    id: str
    label: str
    startURL: str


class SSOProviderLogins(Resource):
    items: list[SSOProviderLogin]


class SAMLProviderCreate(RequestBody):
    label: SAMLProviderLabel
    entityID: SAMLProviderEntityID | None = None
    certificate: SAMLProviderCertificate | None = None
    ssoURL: SAMLProviderSSOURL | None = None
    defaultTeam: str | None = None
    defaultRole: MemberRoleOrGuest = None


class SAMLProviderUpdate(RequestBody):
    """Every field optional; only the fields sent change (`defaultRole: null` makes new
    members guests)."""

    label: SAMLProviderLabel | None = None
    entityID: SAMLProviderEntityID | None = None
    certificate: SAMLProviderCertificate | None = None
    ssoURL: SAMLProviderSSOURL | None = None
    defaultTeam: str | None = None
    defaultRole: MemberRoleOrGuest = None
