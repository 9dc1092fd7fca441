"""The responses shared by the space-content and revision routers.

`{S}/content/...` reads the current revision and `{S}/revisions/{id}/...` a given one; both
routers call these with `revision_id` None or set, so the two can never drift apart. Every
function is a read: it runs on the event loop in one `ctx.db.read()` block (see "How to
write a router" in docs/server.md) and answers with JSON built once.
"""

from __future__ import annotations

import sqlite3
from typing import Annotated, Any, Literal

from fastapi import Query, Response

from docdeck.server.change_requests import service as change_requests
from docdeck.server.content import links as link_analysis
from docdeck.server.content.listing import page_of
from docdeck.server.content.reading import (
    Content,
    content_of,
    file_entry,
    page_entry,
    page_id_by_path,
    view_of,
)
from docdeck.server.content.snapshots import Snapshot
from docdeck.server.content.tree import tree_of
from docdeck.server.content.wire import (
    View,
    encoded_pages,
    file_dict,
    files_in_order,
    page_app_url,
    page_dict,
    revision_dict,
    with_body,
)
from docdeck.server.errors import bad_request
from docdeck.server.http.context import Ctx
from docdeck.server.orgs.wire import organization_json
from docdeck.server.pagination import PageRequest
from docdeck.server.permissions import owns_a_team
from docdeck.server.search import index as full_text
from docdeck.server.spaces.wire import space_json
from docdeck.server.wire import Json, JsonBody, encode, respond

MetadataQuery = Annotated[
    bool, Query(description="false leaves out mutable git metadata (the sandbox has none)")
]
ComputedQuery = Annotated[
    bool, Query(description="false does not compute computed content (the sandbox has none)")
]
FormatQuery = Annotated[
    Literal["document", "markdown"] | None,
    Query(description="The page body's format; without it no body is returned"),
]
EvaluatedQuery = Annotated[
    bool, Query(description="true replaces `{{ space.vars.NAME }}` by the variable's value")
]
StatusQuery = Annotated[
    Literal["ok", "broken", "in-app"] | None, Query(description="Only links with this status")
]
ChangesLimitQuery = Annotated[int, Query(ge=0, le=1000, description="Changes to return")]
"""How many semantic changes a revision's or a change request's changes list (default 10)."""


def merged_from(conn: sqlite3.Connection, ctx: Ctx, revision_id: str) -> Json:
    """The change request a merge revision came from (`RevisionMerge.mergedFrom`)."""
    row = conn.execute(
        "SELECT id, space_id FROM change_requests WHERE revision_merged = ?", (revision_id,)
    ).fetchone()
    return {} if row is None else change_requests.one_json(conn, ctx, row[1], row[0])


def _json(body: bytes) -> Response:
    """An answer encoded here as a `JsonBody` (the same bytes and headers as a plain
    `Response` with the JSON media type), which the answer cache may keep."""
    return JsonBody(body)


def revision(ctx: Ctx, space_id: str, revision_id: str | None) -> Response:
    """The page tree is spliced in already encoded (see `encoded_pages`); the rest (files
    carry links signed for this caller) is built per request."""
    with ctx.db.read() as conn:
        content = content_of(conn, ctx, space_id, revision_id)
        view = view_of(ctx)
        data = revision_dict(conn, view, content.snapshot, with_pages=False)
        if data["type"] == "merge":
            data["mergedFrom"] = merged_from(conn, ctx, content.snapshot.info.id)
        tree = encoded_pages(view, content.snapshot)
    return _json(encode(data)[:-1] + b',"pages":' + tree + b"}")


def pages(ctx: Ctx, space_id: str, revision_id: str | None) -> Response:
    with ctx.db.read() as conn:
        content = content_of(conn, ctx, space_id, revision_id)
        tree = encoded_pages(view_of(ctx), content.snapshot)
    return _json(b'{"pages":' + tree + b"}")


def page(
    ctx: Ctx,
    space_id: str,
    revision_id: str | None,
    *,
    page_id: str | None = None,
    path: str | None = None,
    body_format: str | None,
    evaluated: bool,
) -> Response:
    with ctx.db.read() as conn:
        content = content_of(conn, ctx, space_id, revision_id)
        if page_id is None:
            page_id = page_id_by_path(content, path or "")
        page_entry(content, page_id)
        view = view_of(ctx)
        data = page_dict(view, content.snapshot, tree_of(content.snapshot), page_id)
        data = with_body(conn, view, content.snapshot, data, body_format, evaluated)
    # A page and its markdown hold no float (a document's nodes are left to `encode`).
    return respond(data, finite=body_format != "document")


def files(ctx: Ctx, space_id: str, revision_id: str | None, request: PageRequest) -> Response:
    with ctx.db.read() as conn:
        content = content_of(conn, ctx, space_id, revision_id)
        result = page_of(
            conn,
            files_in_order(content.snapshot),
            lambda e: (e["name"].casefold(), e["id"]),
            request,
            "files",
        )
        view = view_of(ctx)
        items = [file_dict(conn, view, space_id, e) for e in result.items]
    return respond(envelope(items, result))


def file(ctx: Ctx, space_id: str, revision_id: str | None, file_id: str) -> Response:
    with ctx.db.read() as conn:
        content = content_of(conn, ctx, space_id, revision_id)
        data = file_dict(conn, view_of(ctx), space_id, file_entry(content, file_id))
    return respond(data)


def envelope(items: list[Any], result: Any) -> Json:
    out: Json = {"items": items, "count": result.count}
    if result.next_page is not None:
        out["next"] = {"page": result.next_page}
    return out


class _Locations:
    """ContentLocation objects of one space and revision (organization and space built once)."""

    def __init__(self, conn: sqlite3.Connection, ctx: Ctx, content: Content) -> None:
        self.conn = conn
        self.content = content
        self.view = view_of(ctx)
        org_row = conn.execute(
            "SELECT * FROM organizations WHERE id = ?", (content.access.row["organization_id"],)
        ).fetchone()
        member = content.access.member
        self.organization = organization_json(ctx, org_row, member, owns_a_team(conn, member))
        self.space = space_json(ctx, content.access.row, content.access.role)
        self.tree = tree_of(content.snapshot)

    def base(self, kind: str) -> dict[str, Any]:
        return {"kind": kind, "organization": self.organization, "space": self.space}

    def page(self, page_id: str, anchor: str | None = None) -> dict[str, Any]:
        data = page_dict(self.view, self.content.snapshot, self.tree, page_id, children=False)
        out = {**self.base("page"), "page": data}
        if anchor:
            out["internalLocation"] = {"type": "anchor", "anchor": anchor}
        return out

    def file(self, file_id: str) -> dict[str, Any]:
        entry = self.content.snapshot.files[file_id]
        data = file_dict(self.conn, self.view, self.content.space_id, entry)
        return {**self.base("file"), "file": data}

    def target(self, target: link_analysis.Target) -> dict[str, Any]:
        if target.kind == "page":
            return self.page(target.ref, target.anchor)
        if target.kind == "file":
            return self.file(target.ref)
        return {"kind": "url", "url": target.ref}


def links(
    ctx: Ctx,
    space_id: str,
    request: PageRequest,
    status: str | None,
    page_id: str | None = None,
    revision_id: str | None = None,
) -> Response:
    with ctx.db.read() as conn:
        content = content_of(conn, ctx, space_id, revision_id)
        if page_id is not None:
            page_entry(content, page_id)
        view = view_of(ctx)
        index = link_analysis.link_index(conn, content.snapshot, view.app_host)
        if page_id is None:
            chosen = index.with_status(status)
            total, broken = index.count(), index.count("broken")
        else:
            every = link_analysis.usages(index.by_source.get(page_id, []))
            chosen = every if status is None else [u for u in every if u.target.status == status]
            total = len(every)
            broken = sum(1 for u in every if u.target.status == "broken")
        result = page_of(
            conn, chosen, lambda u: u.target.sort_key, request, f"links:{status or ''}"
        )
        locations = _Locations(conn, ctx, content)
        items = [
            {
                "status": usage.target.status,
                "relation": "reference",
                "targetReference": locations.target(usage.target),
                "locationReferences": [locations.page(source) for source in usage.sources],
            }
            for usage in result.items
        ]
    data = envelope(items, result)
    data["stats"] = {"total": total, "broken": {"total": broken}}
    return respond(data)


def file_backlinks(
    ctx: Ctx, space_id: str, file_id: str, request: PageRequest, revision_id: str | None = None
) -> Response:
    with ctx.db.read() as conn:
        content = content_of(conn, ctx, space_id, revision_id)
        file_entry(content, file_id)
        view = view_of(ctx)
        index = link_analysis.link_index(conn, content.snapshot, view.app_host)
        order = tree_of(content.snapshot).positions()
        sources = sorted(
            {
                source
                for source in index.incoming.get(file_id, ())
                if any(
                    link.target.kind == "file" and link.target.ref == file_id
                    for link in index.by_source[source]
                )
            },
            key=lambda s: (order[s], s),
        )
        result = page_of(conn, sources, lambda s: (order[s], s), request, "backlinks")
        locations = _Locations(conn, ctx, content)
        items = [locations.page(source) for source in result.items]
    return respond(envelope(items, result))


def page_results(view: View, snapshot: Snapshot, hits: list[full_text.PageHit]) -> list[Json]:
    """Search hits as the platform's `SearchPageResult` items (paths from the snapshot)."""
    tree = tree_of(snapshot)
    space_id = snapshot.info.space_id
    items = []
    for hit in hits:
        path = tree.paths.get(hit.page_id, "")
        app = page_app_url(view, space_id, hit.page_id)
        items.append(
            {
                "id": hit.page_id,
                "title": snapshot.pages[hit.page_id]["title"],
                "path": path,
                "urls": {"app": app},
                "sections": [
                    {
                        "id": f"{hit.page_id}#{s.anchor}" if s.anchor else hit.page_id,
                        "title": s.title,
                        "path": f"{path}#{s.anchor}" if s.anchor else path,
                        "body": s.snippet,
                        "urls": {"app": f"{app}#{s.anchor}" if s.anchor else app},
                    }
                    for s in hit.sections
                ],
            }
        )
    return items


def search(ctx: Ctx, space_id: str, request: PageRequest, query: str) -> Response:
    """Pages with matching sections, best first; see search/index.py."""
    if not query.strip():
        raise bad_request("query: must not be empty")
    with ctx.db.read() as conn:
        content = content_of(conn, ctx, space_id)
        hits = full_text.search(conn, space_id, query).within(content.snapshot.pages)
        result = page_of(conn, hits, lambda h: (h.rank, h.page_id), request, "search")
        shown = full_text.with_snippets(conn, query, result.items)
        items = page_results(view_of(ctx), content.snapshot, shown)
    return respond(envelope(items, result))
