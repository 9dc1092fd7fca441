"""The published view of a site: what a visitor's browser is built from."""

from __future__ import annotations

from typing import Any, Literal

from docdeck.models._base import Resource
from docdeck.models.site_structure import SiteStructure
from docdeck.models.sites import Site


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
