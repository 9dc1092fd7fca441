"""Organizations and their bodies."""

from typing import Annotated, Literal

from pydantic import Field

from docdeck.models._base import (
    MemberRoleOrGuest,
    Open,
    RequestBody,
    Resource,
    Timestamp,
    Url,
    read_tolerantly,
)
from docdeck.models._text import VisibleTitle

OrganizationType = Literal["business", "community"]
OrganizationUseCase = Literal[
    "internalDocs",
    "docsSite",
    "audienceControlledSite",
    "productDocs",
    "teamKnowledgeBase",
    "designSystem",
    "openSourceDocs",
    "notes",
    "other",
]
OrganizationCommunityType = Literal["nonProfit", "openSource", "education"]
BillingProduct = Literal[
    "free_2024",
    "plus_2024",
    "pro_2024",
    "enterprise_2024",
    "community_2024",
    "free",
    "plus",
    "pro",
]
BillingInterval = Literal["monthly", "yearly"]
TrialStatus = Literal["notapplicable", "none", "active", "ended", "expired"]
OrganizationTitle = Annotated[str, Field(min_length=2, max_length=255), VisibleTitle]
OrganizationHostname = Annotated[str, Field(min_length=3, max_length=32)]


class SitePointer(Resource):
    type: Literal["site"]
    site: str


class OrganizationUrls(Resource):
    location: str
    app: str
    logo: str | None = None


class Trial(Resource):
    status: TrialStatus
    endDate: Timestamp | None = None
    decision: Literal["downgrade"] | None = None


class Blocked(Resource):
    reason: Annotated[Literal["security"], Open]  # 0.202.0: free text (1..255 characters)


class PriceByInterval(Resource):
    monthly: float
    yearly: float


class MemberPricing(Resource):
    plus_2024: PriceByInterval
    pro_2024: PriceByInterval


class SitePricing(Resource):
    premium: PriceByInterval
    ultimate: PriceByInterval


class Pricing(Resource):
    members: MemberPricing
    sites: SitePricing


class Billing(Resource):
    interval: BillingInterval
    endDate: Timestamp | None = None
    hasPaymentFailed: bool
    isScheduledToCancel: bool
    pricing: Pricing


class BillingMigration(Resource):
    deadline: Timestamp | None = None
    discountPercent: float | None = None
    discountEndDate: Timestamp | None = None


class OrganizationPermissions(Resource):
    _tolerant = read_tolerantly(absent={"ingestConversations": False})  # gone in 0.202.0

    view: bool
    admin: bool
    ownTeam: bool
    createContent: bool
    createOpenAPISpec: bool
    ingestConversations: bool
    viewBilling: bool
    listMembers: bool
    listTeams: bool
    listIntegrations: bool


class Organization(Resource):
    object: Literal["organization"] = "organization"
    id: str
    title: str
    createdAt: Timestamp
    emailDomains: list[str]
    hostname: str | None = None
    type: OrganizationType
    useCase: OrganizationUseCase | None = None
    communityType: OrganizationCommunityType | None = None
    defaultRole: MemberRoleOrGuest = None
    defaultContent: SitePointer | None = None
    sso: bool | None = None
    ai: bool | None = None
    inviteLinks: bool
    plan: Annotated[BillingProduct, Open]
    billing: Billing | None = None
    urls: OrganizationUrls
    trial: Trial
    customHostname: str | None = None
    blocked: Blocked | None = None
    internal_billingMigration: BillingMigration | None = None
    permissions: OrganizationPermissions


class OrganizationUpdate(RequestBody):
    """PATCH body. A field left out is unchanged; `defaultContent` and `logo` accept null."""

    title: OrganizationTitle | None = None
    emailDomains: list[Annotated[str, Field(min_length=1, max_length=253)]] | None = None
    hostname: OrganizationHostname | None = None
    defaultRole: MemberRoleOrGuest = None
    defaultContent: SitePointer | None = None
    logo: Url | None = None
    sso: bool | None = None
    ai: bool | None = None
    inviteLinks: bool | None = None


class EmailDomainOrganizations(Resource):
    organizations: list[Organization]


class PingResult(Resource):
    serviceVisitorClaims: str | None = None


class SearchSectionUrls(Resource):
    app: str


class SearchSectionResult(Resource):
    id: str
    title: str
    path: str
    body: str
    urls: SearchSectionUrls


class SearchPageResult(Resource):
    id: str
    title: str
    path: str
    sections: list[SearchSectionResult] | None = None
    urls: SearchSectionUrls


class SearchSpaceResult(Resource):
    """One space's hits in an organization search."""

    id: str
    title: str
    pages: list[SearchPageResult]
