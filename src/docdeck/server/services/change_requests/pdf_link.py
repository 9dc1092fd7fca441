"""Rendering a change request's PDF and answering a signed, expiring link to it (the same
links and route as file downloads: `/files/{space}/{hash}/{name}`)."""

from __future__ import annotations

import sqlite3

from docdeck.server.context import Ctx
from docdeck.server.errors import bad_request, not_found
from docdeck.server.services.change_requests import ChangeRequestAccess
from docdeck.server.services.change_requests.pdf import render_pdf
from docdeck.server.services.content import files as file_links
from docdeck.server.services.content.snapshots import get_text, load_snapshot, put_object
from docdeck.server.services.content.tree import tree_of


def pdf_link(
    conn: sqlite3.Connection,
    ctx: Ctx,
    cr: ChangeRequestAccess,
    page: str | None,
    only: bool,
) -> str:
    snapshot = load_snapshot(conn, cr.row["revision_id"])
    tree = tree_of(snapshot)
    if only and page is None:
        raise bad_request("page: required when only is true")
    if page is None:
        chosen = tree.order
    elif page not in snapshot.pages:
        raise not_found(f"page {page!r} not found in change request #{cr.row['number']}")
    else:
        chosen = [page] if only else [page, *tree.descendants(page)]
    pages = [
        (snapshot.pages[p]["title"], get_text(conn, snapshot.pages[p].get("body")))
        for p in chosen
        if snapshot.pages[p].get("type") != "link"
    ]
    subject = cr.row["subject"] or f"Change request #{cr.row['number']}"
    data = render_pdf(subject, pages, snapshot.info.created_at)
    digest = put_object(conn, data)
    space_id = cr.space.row["id"]
    conn.execute(
        "INSERT OR IGNORE INTO space_objects (space_id, hash) VALUES (?, ?)", (space_id, digest)
    )
    link = file_links.link_for(space_id, digest, ctx.caller.user_id, ctx.now())
    name = f"change-request-{cr.row['number']}.pdf"
    return ctx.url(file_links.download_path(conn, link, name))
