"""Small HTML pages behind the `urls.app` links, so every URL the API hands out opens.

Browsers cannot send the API's bearer token, and the sandbox listens on the loopback
interface, so these pages show only names and dates of the resource, never member emails.
"""

from __future__ import annotations

import html
import sqlite3

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from docdeck.server.http.context import Sandbox

router = APIRouter(include_in_schema=False)
# Async handlers: a single-row read on the event loop costs less than a thread hop.


def _page(title: str, rows: list[tuple[str, str | None]]) -> HTMLResponse:
    cells = "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(v or '—')}</td></tr>" for k, v in rows
    )
    body = (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        "<style>body{font-family:sans-serif;margin:2em}th{text-align:left;padding-right:1em}"
        "</style></head>"
        f"<body><h1>{html.escape(title)}</h1><table>{cells}</table>"
        "<p>docdeck sandbox — browse it with <code>docdeck</code>.</p></body></html>"
    )
    return HTMLResponse(body)


def _missing(kind: str) -> HTMLResponse:
    return HTMLResponse(f"<!doctype html><p>No such {kind}.</p>", status_code=404)


def _one(request: Request, sql: str, *params: object) -> sqlite3.Row | None:
    sandbox: Sandbox = request.app.state.sandbox
    with sandbox.db.read() as conn:
        row: sqlite3.Row | None = conn.execute(sql, params).fetchone()
        return row


@router.get("/app/orgs/{organizationId}")
async def organization_page(request: Request, organizationId: str) -> HTMLResponse:
    row = _one(request, "SELECT * FROM organizations WHERE id = ?", organizationId)
    if row is None:
        return _missing("organization")
    return _page(row["title"], [("Organization", row["id"]), ("Created", row["created_at"])])


@router.get("/app/collections/{collectionId}")
async def collection_page(request: Request, collectionId: str) -> HTMLResponse:
    row = _one(request, "SELECT * FROM collections WHERE id = ?", collectionId)
    if row is None:
        return _missing("collection")
    return _page(
        row["title"],
        [
            ("Collection", row["id"]),
            ("Description", row["description"]),
            ("Organization", row["organization_id"]),
            ("Parent collection", row["parent_id"]),
        ],
    )


@router.get("/app/spaces/{spaceId}")
async def space_page(request: Request, spaceId: str) -> HTMLResponse:
    row = _one(request, "SELECT * FROM spaces WHERE id = ?", spaceId)
    if row is None:
        return _missing("space")
    title = f"{row['emoji'] or ''} {row['title']}".strip()
    return _page(
        title,
        [
            ("Space", row["id"]),
            ("Organization", row["organization_id"]),
            ("Collection", row["parent_id"]),
            ("Edit mode", row["edit_mode"]),
            ("Created", row["created_at"]),
            ("Updated", row["updated_at"]),
            ("Deleted", row["deleted_at"]),
        ],
    )


@router.get("/app/spaces/{spaceId}/pages/{pageId}")
async def content_page(request: Request, spaceId: str, pageId: str) -> HTMLResponse:
    from docdeck.server.content.snapshots import load_snapshot
    from docdeck.server.content.tree import tree_of

    sandbox: Sandbox = request.app.state.sandbox
    with sandbox.db.read() as conn:
        row = conn.execute("SELECT revision_id FROM spaces WHERE id = ?", (spaceId,)).fetchone()
        snapshot = None if row is None else load_snapshot(conn, row["revision_id"])
    entry = None if snapshot is None else snapshot.pages.get(pageId)
    if snapshot is None or entry is None:
        return _missing("page")
    return _page(
        entry["title"],
        [
            ("Page", pageId),
            ("Path", tree_of(snapshot).paths.get(pageId)),
            ("Space", spaceId),
            ("Updated", entry.get("updatedAt")),
        ],
    )


@router.get("/app/spaces/{spaceId}/revisions/{revisionId}")
async def revision_page(request: Request, spaceId: str, revisionId: str) -> HTMLResponse:
    row = _one(request, "SELECT * FROM revisions WHERE id = ?", revisionId)
    if row is None or row["space_id"] != spaceId:
        return _missing("revision")
    return _page(
        f"Revision {revisionId}",
        [
            ("Space", spaceId),
            ("Type", row["type"]),
            ("Message", row["message"]),
            ("Created", row["created_at"]),
        ],
    )


@router.get("/app/spaces/{spaceId}/change-requests/{number}")
async def change_request_page(request: Request, spaceId: str, number: str) -> HTMLResponse:
    if not number.isdigit() or len(number) > 18:
        return _missing("change request")
    sql = "SELECT * FROM change_requests WHERE space_id = ? AND number = ?"
    row = _one(request, sql, spaceId, int(number))
    if row is None:
        return _missing("change request")
    return _page(
        f"#{row['number']} {row['subject']}".strip(),
        [
            ("Change request", row["id"]),
            ("Space", spaceId),
            ("Status", row["status"]),
            ("Created", row["created_at"]),
            ("Updated", row["updated_at"]),
        ],
    )


@router.get("/app/orgs/{organizationId}/sites/{siteId}")
async def site_page(request: Request, organizationId: str, siteId: str) -> HTMLResponse:
    row = _one(request, "SELECT * FROM sites WHERE id = ?", siteId)
    if row is None or row["organization_id"] != organizationId:
        return _missing("site")
    return _page(
        row["title"],
        [
            ("Site", row["id"]),
            ("Organization", row["organization_id"]),
            ("Visibility", row["visibility"]),
            ("Published", "yes" if row["published"] else "no"),
            ("Created", row["created_at"]),
        ],
    )
