"""The demo workspace's docs sites, built through the same services the API uses.

- Northwind "Developer Portal" (ultimate, share-link, published): two section groups, sections
  with several variants, conditions against an adaptive schema, two share links (one
  inactive), redirects, a customization of its own and a site space's override.
- Northwind "Handbook" (basic, public, published): root site spaces only.
- Northwind "Internal Drafts" (premium, unlisted): never published; its plan has share links,
  so switching it to share-link visibility and publishing it tries that flow end to end.
- Lumen "Lumen Docs" (basic, visitor-auth, unpublished): its plan cannot publish that
  visibility, so publishing answers a checkout.
"""

from __future__ import annotations

import copy
import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta

from docdeck.models import SiteSectionCreate, SiteSectionGroupCreate
from docdeck.server.ids import new_id, to_db
from docdeck.server.sites import adaptive
from docdeck.server.sites import structure as site_structure
from docdeck.server.sites.customization import DEFAULT_CUSTOMIZATION
from docdeck.server.sites.defaults import settle_defaults

SCHEMA = {
    "type": "object",
    "properties": {
        "isBeta": {"type": "boolean", "description": "Visitor is in the beta programme"},
        "plan": {
            "type": "string",
            "enum": ["free", "pro", "enterprise"],
            "description": "Visitor's plan",
        },
        "unsigned": {
            "type": "object",
            "description": "Unsigned claims of the site visitor.",
            "properties": {
                "locale": {"type": "string", "description": "Preferred language"},
            },
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class _RootSite:
    """A demo site holding only root site spaces (no sections): what differs between them."""

    org: str
    title: str
    basename: str
    type_: str
    visibility: str
    published: bool
    age_days: int
    spaces: tuple[str, ...]


_ROOT_SITES = (
    _RootSite(
        "northwind",
        "Handbook",
        "handbook",
        "basic",
        "public",
        True,
        60,
        ("Onboarding", "Design System"),
    ),
    # share links are in its plan: the share-link flow can be tried
    _RootSite(
        "northwind",
        "Internal Drafts",
        "drafts",
        "premium",
        "unlisted",
        False,
        5,
        ("Release Notes",),
    ),
    _RootSite(
        "lumen",
        "Lumen Docs",
        "docs",
        "basic",
        "visitor-auth",
        False,
        40,
        ("Getting Started", "Configuration Reference"),
    ),
)


def _site(
    conn: sqlite3.Connection,
    org_id: str,
    title: str,
    basename: str,
    *,
    type_: str,
    visibility: str,
    published: bool,
    created: datetime,
) -> sqlite3.Row:
    site_id = new_id()
    conn.execute(
        """INSERT INTO sites (id, organization_id, type, title, visibility, published, basename,
            created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
        (site_id, org_id, type_, title, visibility, int(published), basename, to_db(created)),
    )
    row: sqlite3.Row = conn.execute("SELECT * FROM sites WHERE id = ?", (site_id,)).fetchone()
    return row


def _section(conn: sqlite3.Connection, site: sqlite3.Row, title: str, spaces: list[str]) -> str:
    section_id = site_structure.add_section(
        conn, site, SiteSectionCreate(spaceId=spaces[0], title=title)
    )
    for space_id in spaces[1:]:
        site_structure.add_site_space(conn, site, space_id, section_id)
    return section_id


def load_sites(
    conn: sqlite3.Connection, orgs: dict[str, str], spaces: dict[str, str], now: datetime
) -> None:
    northwind = orgs["northwind"]
    portal = _site(
        conn,
        northwind,
        "Developer Portal",
        "developers",
        type_="ultimate",
        visibility="share-link",
        published=True,
        created=now - timedelta(days=90),
    )
    adaptive.store_schema(conn, portal["id"], SCHEMA, now - timedelta(days=30))
    conn.execute("UPDATE sites SET adaptive_content = 1 WHERE id = ?", (portal["id"],))
    portal = conn.execute("SELECT * FROM sites WHERE id = ?", (portal["id"],)).fetchone()
    api = _section(
        conn,
        portal,
        "API",
        [
            spaces["Public API Reference"],
            spaces["Webhooks Guide"],
            spaces["Architecture Decisions"],
        ],
    )
    architecture = _section(conn, portal, "Architecture", [spaces["Architecture Decisions"]])
    runbooks = _section(conn, portal, "Runbooks", [spaces["Incident Runbooks"]])
    releases = _section(conn, portal, "Releases", [spaces["Release Notes"], spaces["Onboarding"]])
    design = _section(conn, portal, "Design", [spaces["Design System"]])
    site_structure.add_group(
        conn, portal, SiteSectionGroupCreate(title="Build", sections=[api, architecture])
    )
    site_structure.add_group(
        conn, portal, SiteSectionGroupCreate(title="Operate", sections=[runbooks, releases])
    )
    site_structure.sort_item(conn, portal["id"], "site-section", design, None, None)
    conn.execute(
        "UPDATE site_sections SET condition = ? WHERE id = ?",
        ('visitor.claims.plan === "enterprise"', runbooks),
    )
    conn.execute(
        "UPDATE site_spaces SET condition = ?, path = 'webhooks-beta' WHERE section_id = ?"
        " AND space_id = ?",
        ("visitor.claims.isBeta === true", api, spaces["Webhooks Guide"]),
    )
    customization = copy.deepcopy(DEFAULT_CUSTOMIZATION)
    customization["styling"]["primaryColor"] = {"light": "#0F766E", "dark": "#2DD4BF"}
    customization["favicon"] = {"emoji": "🧭"}
    conn.execute(
        "UPDATE sites SET customization = ? WHERE id = ?",
        (json.dumps(customization), portal["id"]),
    )
    conn.execute(
        "UPDATE site_spaces SET customization = ? WHERE section_id = ? AND space_id = ?",
        (
            json.dumps({"styling": {"primaryColor": {"light": "#B45309", "dark": "#F59E0B"}}}),
            releases,
            spaces["Release Notes"],
        ),
    )
    for name, active, age in (("Partners", 1, 20), ("Old beta testers", 0, 60)):
        link_id = new_id()
        # The key is derived from the id with the server's key file; only its digest is kept.
        conn.execute(
            """INSERT INTO site_share_links (id, site_id, name, key_digest, active, created_at)
            VALUES (?, ?, ?, share_link_digest(?), ?, ?)""",
            (link_id, portal["id"], name, link_id, active, to_db(now - timedelta(days=age))),
        )
    beta = conn.execute(
        "SELECT id FROM site_spaces WHERE section_id = ? AND path = 'webhooks-beta'", (api,)
    ).fetchone()[0]
    for source, destination in (
        ("/api-reference", {"kind": "site-section", "siteSectionId": api}),
        ("/guides/webhooks", {"kind": "site-space", "siteSpaceId": beta}),
    ):
        conn.execute(
            """INSERT INTO site_redirects (id, site_id, source, destination, created_at,
                updated_at) VALUES (?, ?, ?, ?, ?, ?)""",
            (new_id(), portal["id"], source, json.dumps(destination), to_db(now), to_db(now)),
        )
    for site_spec in _ROOT_SITES:
        site = _site(
            conn,
            orgs[site_spec.org],
            site_spec.title,
            site_spec.basename,
            type_=site_spec.type_,
            visibility=site_spec.visibility,
            published=site_spec.published,
            created=now - timedelta(days=site_spec.age_days),
        )
        for title in site_spec.spaces:
            site_structure.insert_site_space(conn, site, spaces[title], None)
        settle_defaults(conn, site["id"])
