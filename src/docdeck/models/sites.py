"""Docs sites: the site itself, share links, the adaptive-content schema, publishing."""

from typing import Annotated, Any, Literal

from pydantic import Field

from docdeck.models._base import Count, RequestBody, Resource, Timestamp, Url

SiteType = Literal["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"]
SiteVisibility = Literal["public", "unlisted", "share-link", "visitor-auth"]
SiteAgentsContext = Literal["excluded", "included"]
SiteTitle = Annotated[str, Field(min_length=2, max_length=128)]
SiteBasename = Annotated[str, Field(min_length=1, max_length=100)]
SiteProxyOrigin = Annotated[str, Field(max_length=512)]
ShareLinkName = Annotated[str, Field(max_length=50)]

SITE_HOSTNAME_PATTERN = (
    r"^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$"
)
SITE_PROXY_PATTERN = r"^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$"
SITE_PLAN_ORDER: tuple[SiteType, ...] = ("basic", "premium", "ultimate")
"""Plans from least to most capable; the legacy and sponsored types map onto these."""


class ThemedUrl(Resource):
    light: str
    dark: str


class SiteIcon(Resource):
    """The platform's `CustomizationFavicon`: `{icon: {light, dark}}`, `{emoji}` or `{}`."""

    icon: ThemedUrl | None = None
    emoji: str | None = None


class SiteProxy(Resource):
    origin: str
    target: str


class SiteAdaptiveContent(Resource):
    enabled: bool


class SiteAds(Resource):
    """A union on `status` (`pending`, `in-review`, `rejected`, `live`, `disabled`); the
    variant fields are optional here so every variant parses."""

    status: str
    submittable: bool | None = None
    topic: str | None = None
    accountEmail: str | None = None
    reason: str | None = None
    zoneId: str | None = None


class SiteFeature(Resource):
    id: str
    plan: SiteType
    frozen: bool
    customizations: list[str] | None = None


class SiteUrls(Resource):
    location: str
    app: str
    published: str | None = None


class Site(Resource):
    object: Literal["site"] = "site"
    id: str
    type: SiteType
    title: str
    icon: SiteIcon | None = None
    hostname: str | None = None
    basename: str | None = None
    proxy: SiteProxy | None = None
    visibility: SiteVisibility
    published: bool
    siteSpaces: Count
    createdAt: Timestamp
    adaptiveContent: SiteAdaptiveContent | None = None
    ads: SiteAds | None = None
    agentsContext: SiteAgentsContext | None = None
    features: list[SiteFeature] = []
    urls: SiteUrls


class SiteCreate(RequestBody):
    """`spaces`: ids of spaces to add as site spaces, or `"sample"`/`"empty"` for a new space."""

    type: SiteType | None = None
    title: SiteTitle | None = None
    visibility: SiteVisibility | None = None
    spaces: list[str] | Literal["sample", "empty"] | None = None


class SiteUpdate(RequestBody):
    """PATCH body; `proxy` null removes the proxy. `hostname` is a sandbox extension."""

    title: SiteTitle | None = None
    visibility: SiteVisibility | None = None
    basename: SiteBasename | None = None
    hostname: Annotated[str, Field(max_length=512)] | None = None
    adaptiveContent: "SiteAdaptiveContentUpdate | None" = None
    agentsContext: SiteAgentsContext | None = None
    defaultSiteSpace: str | None = None
    defaultSiteSection: str | None = None
    proxy: SiteProxyOrigin | None = None


class SiteAdaptiveContentUpdate(RequestBody):
    enabled: bool


class SiteCheckout(Resource):
    """The publish answer when the site's plan does not allow it: pay first."""

    type: Literal["checkout"] = "checkout"
    sessionId: str


PublishResult = Site | SiteCheckout
"""`POST {ST}/publish` answers the site, or a checkout when the plan does not allow it."""


class SitePreview(Resource):
    url: Url


class ShareLinkUrls(Resource):
    published: str | None = None


class ShareLink(Resource):
    object: Literal["share-link"] = "share-link"
    id: str
    createdAt: Timestamp
    name: str | None = None
    active: bool | None = None
    urls: ShareLinkUrls


class ShareLinkCreate(RequestBody):
    name: ShareLinkName


class ShareLinkUpdate(RequestBody):
    active: bool | None = None
    name: ShareLinkName | None = None


class SiteAdaptiveSchema(Resource):
    object: Literal["site-adaptive-schema"] = "site-adaptive-schema"
    jsonSchema: dict[str, Any]
    updatedAt: Timestamp


class SiteAdaptiveSchemaUpdate(RequestBody):
    """The schema itself is checked by the server against the platform's shape (draft-07)."""

    jsonSchema: dict[str, Any]


class TemplateCondition(Resource):
    description: str
    condition: str


class TemplateConditions(Resource):
    items: list[TemplateCondition]


SiteUpdate.model_rebuild()


SiteRedirectSourcePath = Annotated[str, Field(max_length=512)]
SITE_REDIRECT_SOURCE_PATTERN = (
    r"^\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+)*$"
)


class SiteRedirectToSection(RequestBody):
    kind: Literal["site-section"]
    siteSectionId: str


class SiteRedirectToSiteSpace(RequestBody):
    kind: Literal["site-space"]
    siteSpaceId: str


class SiteRedirectToPage(RequestBody):
    kind: Literal["site-page"]
    siteSpaceId: str
    pageId: str


SiteRedirectDestination = Annotated[
    SiteRedirectToSection | SiteRedirectToSiteSpace | SiteRedirectToPage,
    Field(discriminator="kind"),
]


class SiteRedirect(Resource):
    object: Literal["site-redirect"] = "site-redirect"
    id: str
    source: str
    destination: dict[str, Any]
    """`{kind: "site-section", siteSectionId}`, `{kind: "site-space", siteSpaceId}` or
    `{kind: "site-page", siteSpaceId, pageId}` (kept as JSON: newer kinds may come)."""


class SiteRedirectCreate(RequestBody):
    source: SiteRedirectSourcePath
    destination: SiteRedirectDestination


class SiteRedirectUpdate(RequestBody):
    source: SiteRedirectSourcePath | None = None
    destination: SiteRedirectDestination | None = None


class SiteRedirectResolution(Resource):
    redirect: SiteRedirect
    target: str
