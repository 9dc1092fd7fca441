"""Rendering a change request's PDF and answering a signed, expiring link to it (the same
links and route as file downloads: `/files/{space}/{hash}/{name}`).

Three steps so no transaction is held while fpdf2 lays the pages out (seconds for a large
change request): what to render is read in a read transaction, rendered with none, and only
the finished bytes are stored in a short write."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime

from docdeck.server.change_requests.service import ChangeRequestAccess
from docdeck.server.content.snapshots import get_text, load_snapshot, put_object
from docdeck.server.content.tree import tree_of
from docdeck.server.errors import bad_request, not_found
from docdeck.server.files import service as file_links
from docdeck.server.http.context import Ctx


@dataclass(frozen=True)
class PdfSource:
    """What a PDF shows, read from the change request's revision."""

    space_id: str
    number: int
    subject: str
    pages: list[tuple[str, str]]
    created: datetime

    def render(self) -> bytes:
        # fpdf2 (and the fonts it loads) is imported on the first PDF, not with the routes:
        # ~0.3 s that the later routes' import, just after start-up, no longer spends.
        from docdeck.server.change_requests.pdf import render_pdf

        return render_pdf(self.subject, self.pages, self.created)


def pdf_source(
    conn: sqlite3.Connection, cr: ChangeRequestAccess, page: str | None, only: bool
) -> PdfSource:
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
    number = int(cr.row["number"])
    subject = cr.row["subject"] or f"Change request #{number}"
    return PdfSource(cr.space.row["id"], number, subject, pages, snapshot.info.created_at)


def store_pdf(conn: sqlite3.Connection, ctx: Ctx, source: PdfSource, data: bytes) -> str:
    """Stores the bytes as an object of the space and answers the signed link to them."""
    digest = put_object(conn, data)
    conn.execute(
        "INSERT OR IGNORE INTO space_objects (space_id, hash) VALUES (?, ?)",
        (source.space_id, digest),
    )
    link = file_links.link_for(source.space_id, digest, ctx.caller.user_id, ctx.now())
    name = f"change-request-{source.number}.pdf"
    return ctx.url(file_links.download_path(conn, link, name))
