"""Search across an organization's spaces: titles and the content's full-text index."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Response

from docdeck.models import ListPage, SearchSpaceResult
from docdeck.server.access import load_membership
from docdeck.server.content import views as content_views
from docdeck.server.content.reading import view_of
from docdeck.server.content.snapshots import load_snapshot
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.search import index as full_text
from docdeck.server.search.service import page_of_matching_spaces
from docdeck.server.wire import respond_list

ORG_SEARCH_PAGES = 5
"""Pages shown per space in an organization search (the best ones)."""

router = Router(tags=["organizations"])


@router.get(
    "/v1/orgs/{organizationId}/search",
    "searchOrganizationContent",
    ListPage[SearchSpaceResult],
    404,
)
async def search_organization(
    ctx: CtxDep,
    organizationId: str,
    page: PageDep,
    query: Annotated[str, Query(min_length=1, max_length=512)],
) -> Response:
    with ctx.db.read() as conn:
        member = load_membership(conn, ctx, organizationId)
        result = page_of_matching_spaces(conn, ctx, member, organizationId, query, page)
        view = view_of(ctx)
        items = [
            {
                "id": r["id"],
                "title": r["title"],
                "pages": content_views.page_results(
                    view,
                    load_snapshot(conn, r["revision_id"]),
                    full_text.with_snippets(
                        conn, query, full_text.search(conn, r["id"], query)[:ORG_SEARCH_PAGES]
                    ),
                ),
            }
            for r in result.rows
        ]
    return respond_list(items, result)
