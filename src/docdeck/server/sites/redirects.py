"""Site redirects: the SQL and checks behind their routes (`redirect_routes.py`), and their
wire form."""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

from docdeck.models import SITE_REDIRECT_SOURCE_PATTERN
from docdeck.server.errors import bad_request, found
from docdeck.server.pagination import Listing, PageRequest, PageResult
from docdeck.server.sites.structure import body_item
from docdeck.server.wire import Json

_REDIRECTS = Listing(
    "site-redirects", "r.*", "FROM site_redirects r WHERE r.site_id = ?", ("r.source", "r.id")
)


def redirect_json(row: sqlite3.Row) -> Json:
    return {
        "object": "site-redirect",
        "id": row["id"],
        "source": row["source"],
        "destination": json.loads(row["destination"]),
    }


def check_source(conn: sqlite3.Connection, site_id: str, source: str, own: str) -> str:
    if not re.fullmatch(SITE_REDIRECT_SOURCE_PATTERN, source):
        raise bad_request(
            f"source: {source!r} is not a path such as /old/page (segments of letters, digits,"
            " '-', '.', '_', '~' or %XX escapes, separated by '/', no trailing '/')"
        )
    clash = conn.execute(
        "SELECT 1 FROM site_redirects WHERE site_id = ? AND source = ? AND id != ?",
        (site_id, source, own),
    ).fetchone()
    if clash is not None:
        raise bad_request(f"source: {source!r} already has a redirect in this site")
    return source


def check_destination(conn: sqlite3.Connection, site_id: str, destination: Any) -> str:
    data: dict[str, Any] = destination.model_dump()
    if data["kind"] == "site-section":
        body_item(conn, site_id, "site-section", data["siteSectionId"], "destination.siteSectionId")
    else:
        body_item(conn, site_id, "site-space", data["siteSpaceId"], "destination.siteSpaceId")
    return json.dumps(data)


def load_redirect(conn: sqlite3.Connection, site_id: str, redirect_id: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM site_redirects WHERE id = ? AND site_id = ?", (redirect_id, site_id)
    ).fetchone()
    return found(row, f"redirect {redirect_id!r} not found in this site")


def page_of_redirects(conn: sqlite3.Connection, site_id: str, page: PageRequest) -> PageResult:
    return _REDIRECTS.page(conn, [site_id], page)


def insert_redirect(
    conn: sqlite3.Connection,
    site_id: str,
    redirect_id: str,
    source: str,
    destination: Any,
    stamp: str,
) -> None:
    checked_source = check_source(conn, site_id, source, "")
    checked_destination = check_destination(conn, site_id, destination)
    conn.execute(
        """INSERT INTO site_redirects (id, site_id, source, destination, created_at,
            updated_at) VALUES (?, ?, ?, ?, ?, ?)""",
        (redirect_id, site_id, checked_source, checked_destination, stamp, stamp),
    )


def update_redirect(
    conn: sqlite3.Connection,
    site_id: str,
    redirect_id: str,
    source: str | None,
    destination: Any,
    stamp: str,
) -> None:
    load_redirect(conn, site_id, redirect_id)
    if source is not None:
        checked = check_source(conn, site_id, source, redirect_id)
        conn.execute("UPDATE site_redirects SET source = ? WHERE id = ?", (checked, redirect_id))
    if destination is not None:
        data = check_destination(conn, site_id, destination)
        conn.execute("UPDATE site_redirects SET destination = ? WHERE id = ?", (data, redirect_id))
    conn.execute("UPDATE site_redirects SET updated_at = ? WHERE id = ?", (stamp, redirect_id))


def delete_redirect(conn: sqlite3.Connection, site_id: str, redirect_id: str) -> None:
    conn.execute("DELETE FROM site_redirects WHERE id = ? AND site_id = ?", (redirect_id, site_id))


def find_by_source(conn: sqlite3.Connection, site_id: str, source: str) -> sqlite3.Row | None:
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM site_redirects WHERE site_id = ? AND source = ?", (site_id, source)
    ).fetchone()
    return row
