"""Every site endpoint (the reference's 30 and the platform operations a structure editor
needs) answers what the platform's OpenAPI document says: a documented status and a body
valid against its response schema."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from .openapi import (
    assert_conforms,
    assert_error_conforms,
    demo_ids,
    operations,
    response_validator,
)


@dataclass(frozen=True)
class SiteDemo:
    st: str  # /v1/orgs/{org}/sites/{portal}
    org: str
    section: str
    grouped_section: str
    group: str
    site_space: str
    variant: str
    share_link: str
    space: str
    root_site: str
    redirect: str


@pytest.fixture
def demo(sandbox_db: Path) -> SiteDemo:
    found = demo_ids(
        sandbox_db,
        {
            "org": "SELECT id FROM organizations WHERE title = 'Northwind Labs'",
            "portal": "SELECT id FROM sites WHERE title = 'Developer Portal'",
            "section": "SELECT id FROM site_sections WHERE title = 'Design'",
            "grouped_section": "SELECT id FROM site_sections WHERE title = 'API'",
            "group": "SELECT id FROM site_section_groups WHERE title = 'Build'",
            "site_space": "SELECT ss.id FROM site_spaces ss JOIN site_sections s"
            " ON s.id = ss.section_id WHERE s.title = 'API' AND ss.is_default = 1",
            "variant": "SELECT id FROM site_spaces WHERE path = 'webhooks-beta'",
            "share_link": "SELECT id FROM site_share_links WHERE name = 'Partners'",
            "space": "SELECT id FROM spaces WHERE title = 'Onboarding'",
            "root_site": "SELECT id FROM sites WHERE title = 'Handbook'",
            "redirect": "SELECT id FROM site_redirects WHERE source = '/api-reference'",
        },
    )
    portal = found.pop("portal")
    return SiteDemo(st=f"/v1/orgs/{found['org']}/sites/{portal}", **found)


Call = Callable[[httpx.AsyncClient, SiteDemo], Awaitable[httpx.Response]]

SCHEMA = {
    "type": "object",
    "properties": {
        "isBeta": {"type": "boolean", "description": "Beta"},
        "plan": {"type": "string", "enum": ["free", "pro"], "description": "Plan"},
    },
    "additionalProperties": False,
}


async def _replace_customization(c: httpx.AsyncClient, d: SiteDemo) -> httpx.Response:
    settings = (await c.get(f"{d.st}/customization")).json()
    settings["footer"]["copyright"] = "Northwind"
    return await c.put(f"{d.st}/customization", json=settings)


CALLS: dict[str, Call] = {
    # Sites
    "listSites": lambda c, d: c.get(f"/v1/orgs/{d.org}/sites"),
    "createSite": lambda c, d: c.post(
        f"/v1/orgs/{d.org}/sites", json={"title": "New site", "spaces": [d.space]}
    ),
    "getSiteById": lambda c, d: c.get(d.st),
    "deleteSiteById": lambda c, d: c.delete(d.st),
    "updateSiteById": lambda c, d: c.patch(
        d.st, json={"title": "Portal", "proxy": "example.com/docs", "basename": "portal"}
    ),
    "getSiteAdaptiveSchema": lambda c, d: c.get(f"{d.st}/adaptive-schema"),
    "updateSiteAdaptiveSchema": lambda c, d: c.put(
        f"{d.st}/adaptive-schema", json={"jsonSchema": SCHEMA}
    ),
    "listSiteAdaptiveTemplateConditions": lambda c, d: c.get(
        f"{d.st}/adaptive-schema/template-conditions"
    ),
    "getPublishedContentSite": lambda c, d: c.get(f"{d.st}/published"),
    # Sections
    "listSiteSections": lambda c, d: c.get(f"{d.st}/sections"),
    "addSectionToSite": lambda c, d: c.post(
        f"{d.st}/sections", json={"spaceId": d.space, "title": "Handbook"}
    ),
    "deleteSiteSectionById": lambda c, d: c.delete(f"{d.st}/sections/{d.section}"),
    "updateSiteSectionById": lambda c, d: c.patch(
        f"{d.st}/sections/{d.section}",
        json={"description": "Look and feel", "condition": "visitor.claims.isBeta"},
    ),
    "moveSiteSection": lambda c, d: c.post(f"{d.st}/sections/{d.section}/move", json={}),
    # Section groups
    "listSiteSectionGroups": lambda c, d: c.get(f"{d.st}/section-groups"),
    "addSectionGroupToSite": lambda c, d: c.post(
        f"{d.st}/section-groups", json={"title": "Look", "sections": [d.section]}
    ),
    "deleteSiteSectionGroupById": lambda c, d: c.delete(f"{d.st}/section-groups/{d.group}"),
    "updateSiteSectionGroupById": lambda c, d: c.patch(
        f"{d.st}/section-groups/{d.group}", json={"title": "Create", "icon": "hammer"}
    ),
    "addSectionToGroup": lambda c, d: c.post(
        f"{d.st}/section-groups/{d.group}/sections", json={"sectionId": d.section}
    ),
    "removeSectionFromGroup": lambda c, d: c.delete(
        f"{d.st}/section-groups/{d.group}/sections/{d.grouped_section}"
    ),
    "moveSiteSectionGroup": lambda c, d: c.post(
        f"{d.st}/section-groups/{d.group}/move",
        json={"position": {"after": {"type": "site-section", "id": d.section}}},
    ),
    # Site spaces
    "listSiteSpaces": lambda c, d: c.get(f"{d.st}/site-spaces"),
    "addSpaceToSite": lambda c, d: c.post(
        f"{d.st}/site-spaces", json={"spaceId": d.space, "sectionId": d.section}
    ),
    "deleteSiteSpaceById": lambda c, d: c.delete(f"{d.st}/site-spaces/{d.variant}"),
    "updateSiteSpaceById": lambda c, d: c.patch(
        f"{d.st}/site-spaces/{d.variant}", json={"path": "beta", "condition": None}
    ),
    "moveSiteSpace": lambda c, d: c.post(
        f"{d.st}/site-spaces/{d.variant}/move",
        json={"position": {"before": {"type": "site-space", "siteSpace": d.site_space}}},
    ),
    # Share links
    "listSiteShareLinks": lambda c, d: c.get(f"{d.st}/share-links"),
    "createSiteShareLink": lambda c, d: c.post(f"{d.st}/share-links", json={"name": "Press"}),
    "deleteSiteShareLinkById": lambda c, d: c.delete(f"{d.st}/share-links/{d.share_link}"),
    "updateSiteShareLinkById": lambda c, d: c.patch(
        f"{d.st}/share-links/{d.share_link}", json={"active": False}
    ),
    # Platform operations beyond the reference's tables
    "getSiteStructure": lambda c, d: c.get(f"{d.st}/structure"),
    "sortSiteStructure": lambda c, d: c.patch(
        f"{d.st}/structure/sort",
        json={"item": {"type": "site-section-group", "id": d.group}, "position": {}},
    ),
    "publishSite": lambda c, d: c.post(f"{d.st}/publish"),
    "unpublishSite": lambda c, d: c.post(f"{d.st}/unpublish"),
    "getSitePublishingPreviewById": lambda c, d: c.get(f"{d.st}/publishing/preview"),
    "listSiteRedirects": lambda c, d: c.get(f"{d.st}/redirects"),
    "createSiteRedirect": lambda c, d: c.post(
        f"{d.st}/redirects",
        json={"source": "/old", "destination": {"kind": "site-space", "siteSpaceId": d.variant}},
    ),
    "updateSiteRedirectById": lambda c, d: c.patch(
        f"{d.st}/redirects/{d.redirect}", json={"source": "/older"}
    ),
    "deleteSiteRedirectById": lambda c, d: c.delete(f"{d.st}/redirects/{d.redirect}"),
    "getSiteCustomizationById": lambda c, d: c.get(f"{d.st}/customization"),
    "updateSiteCustomizationById": lambda c, d: _replace_customization(c, d),
    "getSiteSpaceCustomizationById": lambda c, d: c.get(
        f"{d.st}/site-spaces/{d.variant}/customization"
    ),
    "overrideSiteSpaceCustomizationById": lambda c, d: c.patch(
        f"{d.st}/site-spaces/{d.variant}/customization", json={"styling": {"theme": "bold"}}
    ),
    "deleteSiteSpaceCustomizationById": lambda c, d: c.delete(
        f"{d.st}/site-spaces/{d.variant}/customization"
    ),
    "getSiteRedirectBySource": lambda c, d: c.get(
        f"{d.st}/redirect", params={"source": "/api-reference"}
    ),
}


def test_the_thirty_reference_operations_and_fifteen_more() -> None:
    assert len(CALLS) == 45
    known = operations()
    for operation_id in CALLS:
        assert operation_id in known, operation_id


@pytest.mark.parametrize("operation_id", sorted(CALLS))
async def test_site_response_matches_platform_schema(
    operation_id: str, client: httpx.AsyncClient, demo: SiteDemo
) -> None:
    assert_conforms(operation_id, await CALLS[operation_id](client, demo))


async def test_the_root_site_spaces_variant_of_the_structure(
    client: httpx.AsyncClient, demo: SiteDemo
) -> None:
    response = await client.get(f"/v1/orgs/{demo.org}/sites/{demo.root_site}/structure")
    body = response.json()
    assert body["type"] == "siteSpaces" and body["structure"]
    validator = response_validator("getSiteStructure", 200)
    assert validator is not None
    assert not list(validator.iter_errors(body))


async def test_the_checkout_branch_of_publish(sandbox_db: Path, client: httpx.AsyncClient) -> None:
    conn = sqlite3.connect(sandbox_db)
    row = conn.execute(
        "SELECT organization_id, id FROM sites WHERE title = 'Lumen Docs'"
    ).fetchone()
    conn.close()
    response = await client.post(f"/v1/orgs/{row[0]}/sites/{row[1]}/publish")
    assert response.status_code == 200
    assert response.json()["type"] == "checkout"
    validator = response_validator("publishSite", 200)
    assert validator is not None
    assert not list(validator.iter_errors(response.json()))


@pytest.mark.parametrize(
    ("operation_id", "call"),
    [
        ("getSiteById", lambda c, d: c.get(f"/v1/orgs/{d.org}/sites/nope")),
        (
            "updateSiteAdaptiveSchema",
            lambda c, d: c.put(f"{d.st}/adaptive-schema", json={"jsonSchema": {"type": "x"}}),
        ),
        (
            "sortSiteStructure",
            lambda c, d: c.patch(
                f"{d.st}/structure/sort",
                json={"item": {"type": "site-section", "id": "nope"}, "position": {}},
            ),
        ),
        (
            "moveSiteSpace",
            lambda c, d: c.post(
                f"{d.st}/site-spaces/{d.variant}/move",
                json={"position": {"before": {"type": "site-space", "siteSpace": "nope"}}},
            ),
        ),
    ],
)
async def test_documented_site_errors_match_the_error_schema(
    operation_id: str, call: Call, client: httpx.AsyncClient, demo: SiteDemo
) -> None:
    assert_error_conforms(operation_id, await call(client, demo))
