"""Sites and their structure, from rows to wire-format JSON (see wire.py for why dicts).

A site's structure is small (tens of items), so a `SiteTree` loads all of it in four queries
and every answer about the site (an item, a list page, the whole structure, the published
view) is assembled from it; the models then agree with each other by construction.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from docdeck.server.content.snapshots import load_snapshot
from docdeck.server.content.tree import tree_of
from docdeck.server.http.context import Ctx
from docdeck.server.permissions import Membership, space_grants, space_role
from docdeck.server.sites import order as site_order
from docdeck.server.sites.customization import site_customization
from docdeck.server.sites.order import ROOT, Level
from docdeck.server.sites.service import FEATURES, PLAN_NAMES, has_feature
from docdeck.server.spaces.wire import space_json
from docdeck.server.store.server_key import same_digest, secret_digest
from docdeck.server.wire import Json, set_present, wire_time

SITE_SELECT = """SELECT s.*, o.hostname AS org_hostname,
    (SELECT COUNT(*) FROM site_spaces ss WHERE ss.site_id = s.id) AS site_space_count
    FROM sites s JOIN organizations o ON o.id = s.organization_id"""


def site_root_url(ctx: Ctx, row: sqlite3.Row) -> str:
    """Where the sandbox serves the site: `/s/{organization hostname or id}/{basename}/`."""
    return root_url(ctx.base_url, row["org_hostname"], row["organization_id"], row["basename"])


@lru_cache(maxsize=1024)
def root_url(base: str, org_hostname: str | None, org_id: str, basename: str) -> str:
    """`site_root_url` from its values (`base`: the public URL), quoted once per process for
    the same few sites, as `url_segment` quotes their segments."""
    org = org_hostname or org_id
    return f"{base}/s/{quote(org, safe='')}/{quote(basename, safe='')}/"


@lru_cache(maxsize=4096)
def url_segment(path: str) -> str:
    """A path segment as it goes in a URL: the same few segments (a site's sections and site
    spaces) are quoted for every item of every answer about the site."""
    return quote(path, safe="")


def with_share_key(url: str, share_key: str | None) -> str:
    return url if share_key is None else f"{url}?shareKey={quote(share_key, safe='')}"


def site_space_counts(conn: sqlite3.Connection, site_ids: list[str]) -> dict[str, int]:
    """Site spaces per site for a page of sites, in one query."""
    marks = ",".join("?" for _ in site_ids) or "NULL"
    rows = conn.execute(
        f"SELECT site_id, COUNT(*) FROM site_spaces WHERE site_id IN ({marks}) GROUP BY site_id",
        site_ids,
    )
    return {r[0]: r[1] for r in rows}


def site_json(
    ctx: Ctx, row: sqlite3.Row, site_spaces: int | None = None, share_key: str | None = None
) -> Json:
    """`site_spaces`: the count, when not in the row (`SITE_SELECT` adds it)."""
    org, site_id = row["organization_id"], row["id"]
    urls: dict[str, Any] = {
        "location": ctx.url(f"/v1/orgs/{org}/sites/{site_id}"),
        "app": ctx.url(f"/app/orgs/{org}/sites/{site_id}"),
    }
    if row["published"]:
        urls["published"] = with_share_key(site_root_url(ctx, row), share_key)
    data: dict[str, Any] = {
        "object": "site",
        "id": site_id,
        "type": row["type"],
        "title": row["title"],
        "basename": row["basename"],
        "visibility": row["visibility"],
        "published": bool(row["published"]),
        "siteSpaces": row["site_space_count"] if site_spaces is None else site_spaces,
        "createdAt": wire_time(row["created_at"]),
        "adaptiveContent": {"enabled": bool(row["adaptive_content"])},
        "agentsContext": row["agents_context"],
        "features": [
            {"id": key, "plan": plan, "frozen": False}
            for key, plan in FEATURES.items()
            if has_feature(row["type"], key)
        ],
        "urls": urls,
    }
    favicon = {} if row["customization"] is None else site_customization(row).get("favicon", {})
    data["icon"] = favicon if ("icon" in favicon or "emoji" in favicon) else None
    if row["hostname"] is not None:
        data["hostname"] = row["hostname"]
    if row["proxy"] is not None:
        data["proxy"] = {"origin": row["proxy"], "target": site_root_url(ctx, row)}
    return data


def _share_key(ctx: Ctx, row: sqlite3.Row) -> str | None:
    """A share link's key, which the database does not hold: derived from the link's id with
    the server's key, or opened from its seal (a key made before keys were derived). None when
    this server's key file is not the one the link was made with (it was lost or replaced):
    the link still opens the site, but its key cannot be shown."""
    key, sealed = ctx.db.key, row["sealed_key"]
    secret = key.share_key(row["id"]) if sealed is None else key.unseal(row["id"], sealed)
    digest = None if secret is None else secret_digest(secret)
    if digest is None or not same_digest(row["key_digest"], digest):
        return None
    return secret


def share_link_json(ctx: Ctx, site: sqlite3.Row, row: sqlite3.Row) -> Json:
    secret = _share_key(ctx, row)
    urls = {} if secret is None else {"published": with_share_key(site_root_url(ctx, site), secret)}
    return {
        "object": "share-link",
        "id": row["id"],
        "createdAt": wire_time(row["created_at"]),
        "name": row["name"],
        "active": bool(row["active"]),
        "urls": urls,
    }


@dataclass
class SiteTree:
    """Everything about one site's structure, loaded once for the caller."""

    ctx: Ctx
    site: sqlite3.Row
    member: Membership
    share_key: str | None = None
    sections: dict[str, sqlite3.Row] = field(default_factory=dict)
    groups: dict[str, sqlite3.Row] = field(default_factory=dict)
    site_spaces: dict[str, sqlite3.Row] = field(default_factory=dict)
    spaces: dict[str, sqlite3.Row] = field(default_factory=dict)
    order: dict[Level, list[site_order.Node]] = field(default_factory=dict)
    grants: dict[str, str] = field(default_factory=dict)
    _root: str | None = None

    @classmethod
    def load(
        cls,
        conn: sqlite3.Connection,
        ctx: Ctx,
        site: sqlite3.Row,
        member: Membership,
        share_key: str | None = None,
    ) -> SiteTree:
        tree = cls(ctx, site, member, share_key)
        site_id = site["id"]
        tree.sections = {
            r["id"]: r
            for r in conn.execute("SELECT * FROM site_sections WHERE site_id = ?", (site_id,))
        }
        tree.groups = {
            r["id"]: r
            for r in conn.execute("SELECT * FROM site_section_groups WHERE site_id = ?", (site_id,))
        }
        tree.site_spaces = {
            r["id"]: r
            for r in conn.execute("SELECT * FROM site_spaces WHERE site_id = ?", (site_id,))
        }
        tree.spaces = {
            r["id"]: r
            for r in conn.execute(
                "SELECT sp.* FROM spaces sp WHERE sp.id IN"
                " (SELECT space_id FROM site_spaces WHERE site_id = ?)",
                (site_id,),
            )
        }
        tree.order = site_order.levels(
            {
                "site-section-group": tree.groups.values(),
                "site-section": tree.sections.values(),
                "site-space": tree.site_spaces.values(),
            }
        )
        tree.grants = space_grants(conn, site["organization_id"], member.user_id)
        return tree

    @property
    def has_sections(self) -> bool:
        return bool(self.sections or self.groups)

    def _published(self, *segments: str) -> str | None:
        return self.url_of(*segments) if self.site["published"] else None

    def url_of(self, *segments: str) -> str:
        """The site's URL for these path segments, published or not (for redirect targets)."""
        if self._root is None:
            self._root = site_root_url(self.ctx, self.site)  # once: every item's URL has it
        path = "".join(f"{url_segment(s)}/" for s in segments)
        return with_share_key(self._root + path, self.share_key)

    def destination_url(self, conn: sqlite3.Connection, destination: dict[str, Any]) -> str | None:
        """Where a redirect's destination is now; None when it is gone from the site. A page
        that is no longer in its space sends the visitor to the site space instead."""
        if destination.get("kind") == "site-section":
            section = self.sections.get(str(destination.get("siteSectionId")))
            return None if section is None else self.url_of(section["path"])
        row = self.site_spaces.get(str(destination.get("siteSpaceId")))
        if row is None:
            return None
        section = self.sections.get(row["section_id"]) if row["section_id"] else None
        segments = [*([section["path"]] if section else []), row["path"]]
        if destination.get("kind") == "site-page":
            space = self.spaces[row["space_id"]]
            paths = tree_of(load_snapshot(conn, space["revision_id"])).paths
            page_path = paths.get(str(destination.get("pageId")), "")
            segments += [s for s in page_path.split("/") if s]
        return self.url_of(*segments)

    def site_space(self, site_space_id: str) -> Json:
        row = self.site_spaces[site_space_id]
        space = self.spaces[row["space_id"]]
        section = self.sections.get(row["section_id"]) if row["section_id"] else None
        segments = [section["path"], row["path"]] if section else [row["path"]]
        return site_space_json(
            space_json(self.ctx, space, space_role(self.member, self.grants, space["id"])),
            space["title"],
            row["id"],
            row["path"],
            row["is_default"],
            has_feature(self.site["type"], "sites-advanced-customization"),
            self._published(*segments),
            None if section is None else section["id"],
            row["condition"],
        )

    def section(self, section_id: str) -> Json:
        row = self.sections[section_id]
        children = self.order.get(Level("section", section_id), [])
        return section_json(
            row["id"],
            row["title"],
            row["is_default"],
            row["path"],
            [self.site_space(n.id) for n in children],
            self._published(row["path"]),
            row["description"],
            row["condition"],
            row["icon"],
            row["group_id"],
        )

    def group(self, group_id: str) -> Json:
        row = self.groups[group_id]
        sections = [self.section(n.id) for n in self.order.get(Level("group", group_id), [])]
        return group_json(row["id"], row["title"], sections, row["icon"])

    def item(self, kind: str, item_id: str) -> Json:
        if kind == "site-space":
            return self.site_space(item_id)
        if kind == "site-section":
            return self.section(item_id)
        return self.group(item_id)

    def structure(self) -> Json:
        if self.has_sections:
            items = [self.item(n.kind, n.id) for n in self.order[ROOT] if n.kind != "site-space"]
            return {"type": "sections", "structure": items}
        return {
            "type": "siteSpaces",
            "structure": [self.site_space(n.id) for n in self.order[ROOT]],
        }

    def keyed_sections(self) -> list[tuple[tuple[Any, ...], str]]:
        """Section ids depth-first with sort keys (root position, group, position, id)."""
        out: list[tuple[tuple[Any, ...], str]] = []
        for node in self.order[ROOT]:
            if node.kind == "site-section":
                out.append(((node.position, "", 0.0, node.id), node.id))
            elif node.kind == "site-section-group":
                for child in self.order.get(Level("group", node.id), []):
                    out.append(((node.position, node.id, child.position, child.id), child.id))
        return out

    def keyed_site_spaces(self) -> list[tuple[tuple[Any, ...], str]]:
        out: list[tuple[tuple[Any, ...], str]] = [
            ((0.0, "", 0.0, "", n.position, n.id), n.id)
            for n in self.order[ROOT]
            if n.kind == "site-space"
        ]
        for key, section_id in self.keyed_sections():
            for child in self.order.get(Level("section", section_id), []):
                out.append(((*key, child.position, child.id), child.id))
        return out

    def keyed_groups(self) -> list[tuple[tuple[Any, ...], str]]:
        return [
            ((n.position, n.id), n.id) for n in self.order[ROOT] if n.kind == "site-section-group"
        ]


# The items of a structure from their values, written once for `SiteTree` and for the
# structure's own reader (`structure_read`), which has plain rows rather than `sqlite3.Row`s.


def site_space_json(
    space: Json,
    title: str,
    site_space_id: str,
    path: str,
    is_default: int,
    advanced: bool,
    published: str | None,
    section_id: str | None,
    condition: str | None,
) -> Json:
    """A site space: `space` as `space_json` writes it, `title` the space's, `advanced`
    whether the site's plan has advanced customization, `published` its URL when the site is
    published, `section_id` its section's id when it has one."""
    data: Json = {
        "object": "site-space",
        "id": site_space_id,
        "path": path,
        "space": space,
        "title": title,
        "default": bool(is_default),
        "hasAdvancedCustomizationFeature": advanced,
        "urls": {} if published is None else {"published": published},
    }
    set_present(data, "section", section_id)
    set_present(data, "condition", condition)
    return data


def section_json(
    section_id: str,
    title: str,
    is_default: int,
    path: str,
    site_spaces: list[Json],
    published: str | None,
    description: str | None,
    condition: str | None,
    icon: str | None,
    group_id: str | None,
) -> Json:
    data: Json = {
        "object": "site-section",
        "id": section_id,
        "title": title,
        "default": bool(is_default),
        "path": path,
        "siteSpaces": site_spaces,
        "urls": {} if published is None else {"published": published},
    }
    set_present(data, "description", description)
    set_present(data, "condition", condition)
    set_present(data, "icon", icon)
    set_present(data, "sectionGroup", group_id)
    return data


def group_json(group_id: str, title: str, sections: list[Json], icon: str | None) -> Json:
    data: Json = {
        "object": "site-section-group",
        "id": group_id,
        "title": title,
        "sections": sections,
    }
    set_present(data, "icon", icon)
    return data


__all__ = ["PLAN_NAMES", "SITE_SELECT", "SiteTree", "share_link_json", "site_json"]
