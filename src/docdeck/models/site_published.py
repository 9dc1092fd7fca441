"""The published view of a site: what a visitor's browser is built from."""

from typing import Any, Literal

from docdeck.models._base import Resource, read_tolerantly
from docdeck.models.site_structure import SiteStructure
from docdeck.models.sites import Site


class SiteCustomizationSettings(Resource):
    """The platform's `SiteCustomizationSettings`: each group of settings as JSON (some forty
    nested settings; the server checks them against the platform's schema)."""

    _tolerant = read_tolerantly(absent={"pdf": {}, "git": {}})  # optional in 0.202.0

    title: str | None = None
    styling: dict[str, Any]
    internationalization: dict[str, Any]
    favicon: dict[str, Any]
    header: dict[str, Any]
    footer: dict[str, Any]
    announcement: dict[str, Any] | None = None
    themes: dict[str, Any]
    pdf: dict[str, Any]
    feedback: dict[str, Any]
    ai: dict[str, Any]
    advancedCustomization: dict[str, Any]
    trademark: dict[str, Any]
    externalLinks: dict[str, Any]
    pagination: dict[str, Any]
    pageActions: dict[str, Any]
    git: dict[str, Any]
    privacyPolicy: dict[str, Any]
    socialPreview: dict[str, Any]
    insights: dict[str, Any]


class SiteCustomizations(Resource):
    """`site`: the platform's `SiteCustomizationSettings` (kept as JSON: it has some forty
    nested settings); `siteSpaces`: overrides by site space id."""

    site: dict[str, Any]
    siteSpaces: dict[str, dict[str, Any]]


class SiteIntegrationScript(Resource):
    script: str
    contentSecurityPolicy: str | None = None
    cookies: bool


class PublishedContentSite(Resource):
    object: Literal["published-content-site"] = "published-content-site"
    site: Site
    structure: SiteStructure
    customizations: SiteCustomizations
    scripts: list[SiteIntegrationScript]
