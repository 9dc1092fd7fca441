"""Sites: who may do what, create, update, delete, plans and publishing."""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3
from dataclasses import dataclass
from datetime import datetime

from docdeck.models import (
    SITE_HOSTNAME_PATTERN,
    SITE_PROXY_PATTERN,
    SiteCreate,
    SiteUpdate,
    slugify,
)
from docdeck.server.access import load_membership, require
from docdeck.server.errors import bad_request, not_found
from docdeck.server.http.context import Ctx
from docdeck.server.ids import new_id, to_db
from docdeck.server.permissions import Membership, at_least
from docdeck.server.spaces.ordering import end_position as space_end_position
from docdeck.server.spaces.service import insert_space
from docdeck.server.store.server_key import same_digest, secret_digest
from docdeck.server.validation import check_not_null, check_title

DEFAULT_TITLE = "Untitled site"

# Site type -> plan rank (basic 0, premium 1, ultimate 2).
PLAN_RANK = {
    "basic": 0,
    "legacy-basic": 0,
    "premium": 1,
    "legacy-premium": 1,
    "ultimate": 2,
    "sponsored": 2,
}
# Feature -> the lowest plan that has it (the platform's SiteFeatureKey values).
FEATURES: dict[str, str] = {
    "sites-public-visibility": "basic",
    "sites-unlisted-visibility": "basic",
    "sites-sections": "basic",
    "sites-full-text-search": "basic",
    "sites-basic-customization": "basic",
    "sites-custom-domain": "premium",
    "sites-share-links": "premium",
    "sites-multivariant-site": "premium",
    "sites-redirects": "premium",
    "sites-advanced-customization": "premium",
    "sites-custom-subdirectory": "ultimate",
    "sites-visitor-authentication": "ultimate",
    "sites-adaptive-content": "ultimate",
}
VISIBILITY_FEATURE = {
    "public": "sites-public-visibility",
    "unlisted": "sites-unlisted-visibility",
    "share-link": "sites-share-links",
    "visitor-auth": "sites-visitor-authentication",
}
PLAN_NAMES = ("basic", "premium", "ultimate")


@dataclass(frozen=True)
class SiteAccess:
    row: sqlite3.Row
    member: Membership


def load_site(conn: sqlite3.Connection, ctx: Ctx, org_id: str, site_id: str) -> SiteAccess:
    """The site for a member of its organization; 404 for unknown ids, 403 for guests."""
    member = load_membership(conn, ctx, org_id)
    row = conn.execute(
        "SELECT * FROM sites WHERE id = ? AND organization_id = ?", (site_id, org_id)
    ).fetchone()
    if row is None:
        raise not_found(f"site {site_id!r} not found in organization {org_id!r}")
    require_site_reader(member)
    return SiteAccess(row, member)


def load_site_editor(
    conn: sqlite3.Connection, ctx: Ctx, org_id: str, site_id: str, action: str
) -> SiteAccess:
    """The site (404 and 403 as `load_site`), 403 unless the caller may `action` as an editor
    (create role or admin)."""
    access = load_site(conn, ctx, org_id, site_id)
    require_site_editor(access.member, action)
    return access


def load_site_admin(
    conn: sqlite3.Connection, ctx: Ctx, org_id: str, site_id: str, action: str
) -> SiteAccess:
    """The site (404 and 403 as `load_site`), 403 unless the caller is an organization admin."""
    access = load_site(conn, ctx, org_id, site_id)
    require_site_admin(access.member, action)
    return access


def require_site_reader(member: Membership) -> None:
    require(not member.is_guest, "guests may not view sites; ask an admin for a member role")


def require_site_editor(member: Membership, action: str = "change a site") -> None:
    require(at_least(member.role, "create"), f"only the create or admin role may {action}")


def require_site_admin(member: Membership, action: str) -> None:
    require(member.is_admin, f"only an organization admin may {action}")


def has_feature(site_type: str, feature: str) -> bool:
    return PLAN_RANK[site_type] >= PLAN_NAMES.index(FEATURES[feature])


def unique_basename(conn: sqlite3.Connection, org_id: str, wanted: str, site_id: str = "") -> str:
    taken = {
        r[0]
        for r in conn.execute(
            "SELECT basename FROM sites WHERE organization_id = ? AND id != ?", (org_id, site_id)
        )
    }
    candidate, number = wanted, 2
    while candidate in taken:
        suffix = f"-{number}"
        candidate, number = wanted[: 100 - len(suffix)] + suffix, number + 1
    return candidate


def create_site(
    conn: sqlite3.Connection, org_id: str, body: SiteCreate, now: datetime
) -> tuple[str, list[str]]:
    """The new site's id and the spaces to add to it as root site spaces, in order."""
    given = body.model_fields_set
    title = check_title(body.title) if "title" in given else DEFAULT_TITLE
    check_not_null(body, ("type", "visibility"))
    site_id = new_id()
    conn.execute(
        """INSERT INTO sites (id, organization_id, type, title, visibility, basename, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)""",
        (
            site_id,
            org_id,
            body.type or "basic",
            title,
            body.visibility or "public",
            unique_basename(conn, org_id, slugify(title, "site")),
            to_db(now),
        ),
    )
    spaces = body.spaces
    if isinstance(spaces, str):
        new_space = insert_space(
            conn,
            org_id=org_id,
            now=now,
            title=title[:50],
            parent=None,
            position=space_end_position(conn, org_id, None),
            emoji="📄" if spaces == "sample" else None,
        )
        return site_id, [new_space]
    space_ids = list(dict.fromkeys(spaces or []))
    for index, space_id in enumerate(space_ids):
        check_site_space_source(conn, org_id, space_id, f"spaces[{index}]")
    return site_id, space_ids


def check_site_space_source(
    conn: sqlite3.Connection, org_id: str, space_id: str, field: str
) -> None:
    row = conn.execute(
        "SELECT organization_id, deleted_at FROM spaces WHERE id = ?", (space_id,)
    ).fetchone()
    if row is None or row["organization_id"] != org_id:
        raise bad_request(f"{field}: no space {space_id!r} in this organization")
    if row["deleted_at"] is not None:
        raise bad_request(f"{field}: space {space_id!r} is deleted; restore it first")


def update_site(
    conn: sqlite3.Connection, access: SiteAccess, body: SiteUpdate
) -> dict[str, str | None]:
    """Applies the plain fields; returns the default pointers to apply afterwards."""
    row, given = access.row, body.model_fields_set
    changes: dict[str, object] = {}
    never_null = ("title", "visibility", "basename", "agentsContext", "adaptiveContent")
    check_not_null(body, (*never_null, "defaultSiteSpace", "defaultSiteSection"))
    if "title" in given:
        changes["title"] = check_title(body.title)
    if body.visibility is not None and body.visibility != row["visibility"]:
        require_site_admin(access.member, "change a site's visibility")
        changes["visibility"] = body.visibility
    if body.basename is not None:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", body.basename):
            raise bad_request(
                "basename: use letters, digits, '-', '_' and '.', starting with a letter or digit"
            )
        if unique_basename(conn, row["organization_id"], body.basename, row["id"]) != body.basename:
            raise bad_request(f"basename: {body.basename!r} is used by another site")
        changes["basename"] = body.basename
    if "hostname" in given:
        if body.hostname is not None and not re.fullmatch(SITE_HOSTNAME_PATTERN, body.hostname):
            raise bad_request(
                f"hostname: {body.hostname!r} is not a host name such as docs.example.com"
                " (lowercase letters, digits and inner hyphens, at least three labels)"
            )
        changes["hostname"] = body.hostname
    if "proxy" in given:
        if body.proxy is not None and not re.fullmatch(SITE_PROXY_PATTERN, body.proxy):
            raise bad_request(
                f"proxy: {body.proxy!r} must be a host and a path, such as example.com/docs"
            )
        changes["proxy"] = body.proxy
    if body.agentsContext is not None:
        changes["agents_context"] = body.agentsContext
    if body.adaptiveContent is not None:
        changes["adaptive_content"] = int(body.adaptiveContent.enabled)
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        conn.execute(f"UPDATE sites SET {assignments} WHERE id = ?", [*changes.values(), row["id"]])
    return {k: getattr(body, k) for k in ("defaultSiteSpace", "defaultSiteSection") if k in given}


def publish_blocker(row: sqlite3.Row) -> str | None:
    """The feature the site's plan lacks for its visibility, or None when it can publish."""
    feature = VISIBILITY_FEATURE[row["visibility"]]
    return None if has_feature(row["type"], feature) else feature


def checkout_session() -> str:
    return f"cs_sandbox_{secrets.token_urlsafe(18)}"


def set_published(conn: sqlite3.Connection, site_id: str, published: bool) -> None:
    conn.execute("UPDATE sites SET published = ? WHERE id = ?", (int(published), site_id))


def preview_digest(token: str) -> str:
    """What is stored of a preview token (it is compared, never shown again)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _share_link_of_key(conn: sqlite3.Connection, site_id: str, key: str) -> sqlite3.Row | None:
    """The share link of the site whose key is `key`: found by the key's digest (only digests
    are stored), which is then compared again in constant time. A key that is empty or not
    ASCII is no key the server made: no link."""
    digest = secret_digest(key)
    if digest is None:
        return None
    row: sqlite3.Row | None = conn.execute(
        "SELECT key_digest, active FROM site_share_links WHERE key_digest = ? AND site_id = ?",
        (digest, site_id),
    ).fetchone()
    if row is None or not same_digest(row["key_digest"], digest):
        return None
    return row


def share_key_active(conn: sqlite3.Connection, site_id: str, key: str | None) -> bool:
    """Whether `key` is the key of an active share link of the site."""
    if not key:
        return False
    row = _share_link_of_key(conn, site_id, key)
    return row is not None and bool(row["active"])


def share_key_site(conn: sqlite3.Connection, site_id: str, key: str | None) -> str | None:
    """The share key if it opens the site; 400 when it is unknown or inactive."""
    if key is None:
        return None
    row = _share_link_of_key(conn, site_id, key)
    if row is None:
        raise bad_request("shareKey: no share link of this site has this key")
    if not row["active"]:
        raise bad_request("shareKey: this share link is inactive; activate it or use another")
    return key


__all__ = [
    "SiteAccess",
    "create_site",
    "load_site",
    "require",
    "require_site_admin",
    "require_site_editor",
    "update_site",
]
