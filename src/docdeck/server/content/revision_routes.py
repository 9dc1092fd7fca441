"""Any revision of a space: its content, pages, files (declared in `scoped_routes`) and the
changes it made."""

from __future__ import annotations

from fastapi import Response

from docdeck.models import RevisionSemanticChanges
from docdeck.server.content import views
from docdeck.server.content.changes import semantic_changes
from docdeck.server.content.reading import content_of, view_of
from docdeck.server.content.scoped_routes import REVISION, content_reads
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep
from docdeck.server.wire import respond

_R = "/v1/spaces/{spaceId}/revisions/{revisionId}"

router = Router(tags=["revisions"])
router.routes.extend(content_reads(REVISION))


@router.get(f"{_R}/changes", "getRevisionSemanticChanges", RevisionSemanticChanges, 404)
async def get_revision_changes(
    ctx: CtxDep,
    spaceId: str,
    revisionId: str,
    limit: views.ChangesLimitQuery = 10,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    with ctx.db.read() as conn:
        content = content_of(conn, ctx, spaceId, revisionId)
        data = semantic_changes(conn, view_of(ctx), content.snapshot, limit)
    return respond(data)
