"""Share links of a site: the SQL behind their routes (`site_space_routes.py`); who may use
them is checked there, what a share key opens in `service.share_key_site`."""

from __future__ import annotations

import sqlite3

from docdeck.server.errors import not_found
from docdeck.server.http.context import Ctx
from docdeck.server.ids import new_id, to_db
from docdeck.server.pagination import Listing, PageRequest, PageResult
from docdeck.server.sites.wire import SITE_SELECT, share_link_json
from docdeck.server.wire import Json

_LINKS = Listing(
    "share-links", "l.*", "FROM site_share_links l WHERE l.site_id = ?", ("l.created_at", "l.id")
)


def site_row(conn: sqlite3.Connection, site_id: str) -> sqlite3.Row:
    row: sqlite3.Row = conn.execute(f"{SITE_SELECT} WHERE s.id = ?", (site_id,)).fetchone()
    return row


def share_link(conn: sqlite3.Connection, ctx: Ctx, site: sqlite3.Row, link_id: str) -> Json:
    row = conn.execute("SELECT * FROM site_share_links WHERE id = ?", (link_id,)).fetchone()
    return share_link_json(ctx, site, row)


def list_share_links(
    conn: sqlite3.Connection, ctx: Ctx, site_id: str, page: PageRequest
) -> tuple[list[Json], PageResult]:
    site = site_row(conn, site_id)
    result = _LINKS.page(conn, [site_id], page)
    return [share_link_json(ctx, site, r) for r in result.rows], result


def create_share_link(conn: sqlite3.Connection, ctx: Ctx, site_id: str, name: str | None) -> str:
    """A new link; its key is derived from its id (`ServerKey.share_key`), only its digest is
    stored."""
    link_id = new_id()
    conn.execute(
        """INSERT INTO site_share_links (id, site_id, name, key_digest, active, created_at)
        VALUES (?, ?, ?, ?, 1, ?)""",
        (link_id, site_id, name, ctx.db.key.share_digest(link_id), to_db(ctx.now())),
    )
    return link_id


def update_share_link(
    conn: sqlite3.Connection, site_id: str, link_id: str, name: str | None, active: bool | None
) -> None:
    found = conn.execute(
        "SELECT 1 FROM site_share_links WHERE id = ? AND site_id = ?", (link_id, site_id)
    ).fetchone()
    if found is None:
        raise not_found(f"share link {link_id!r} not found in this site")
    if name is not None:
        conn.execute("UPDATE site_share_links SET name = ? WHERE id = ?", (name, link_id))
    if active is not None:
        conn.execute("UPDATE site_share_links SET active = ? WHERE id = ?", (int(active), link_id))


def delete_share_link(conn: sqlite3.Connection, site_id: str, link_id: str) -> None:
    conn.execute("DELETE FROM site_share_links WHERE id = ? AND site_id = ?", (link_id, site_id))
