"""The reads of a space's content, declared once for its three scopes: the current revision
(`/content`), any revision (`/revisions/{revisionId}`) and a change request's revision
(`/change-requests/{changeRequestId}/content`).

`CURRENT`, `REVISION` and `CHANGE_REQUEST` are the scopes; `READS` is the operation table:
each row an operation with its path under the scope's root, its answer, and per scope the
platform's operation id and the summary `/openapi.json` shows (a scope without the operation
has none). `content_reads(scope)` makes a scope's routes from
it, in table order; each area's router adds its own operations after them (links, search and
documents of a space; a revision's changes; a change request's authoring, import, changes).

Annotations here are evaluated (no `from __future__ import annotations`): FastAPI reads them
from handlers made by a factory.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Response
from starlette.routing import BaseRoute

from docdeck.models import LinkList, ListPage, PageList, RevisionFile
from docdeck.models.content import Revision, RevisionPage
from docdeck.models.links import ContentLocation
from docdeck.server.change_requests.service import load_change_request
from docdeck.server.content import views
from docdeck.server.http.context import Ctx
from docdeck.server.http.openapi import errors
from docdeck.server.http.params import CtxDep, PageDep, with_scope_ids

Named = tuple[str, str]
"""An operation's id and summary in one scope."""


@dataclass(frozen=True)
class ContentScope:
    """Where content is read: its path root, the ids in that path, and which revision."""

    name: str
    """The key of this scope in `Read.ids`."""
    root: str
    ids: tuple[str, ...]
    tag: str
    revision: Callable[[Ctx, dict[str, str]], str | None]
    """The revision the path names (None: the space's current one), from the path's ids."""


@dataclass(frozen=True)
class Read:
    """One read operation, under every scope that has it."""

    handler: Callable[[ContentScope], Callable[..., Any]]
    path: str
    response_model: Any
    ids: dict[str, Named]
    """Per scope name, the operation id and summary there."""
    without: dict[str, tuple[str, ...]] | None = None
    """Per scope name, the query parameters that scope does not take."""
    doc: dict[str, str] | None = None
    """Per scope name, the operation's description there."""

    @property
    def keys(self) -> tuple[str, ...]:
        """The path parameters `path` adds to the scope's; the handler reads them, with the
        scope's ids, from its `**where`."""
        return tuple(re.findall(r"\{(\w+)", self.path))


def _change_request_revision(ctx: Ctx, where: dict[str, str]) -> str:
    """The change request's current revision (immutable, so reading it in a second block
    still shows one consistent revision)."""
    with ctx.db.read() as conn:
        cr = load_change_request(conn, ctx, where["spaceId"], where["changeRequestId"])
        return str(cr.row["revision_id"])


_S = "/v1/spaces/{spaceId}"
CURRENT = ContentScope(
    name="current",
    root=f"{_S}/content",
    ids=("spaceId",),
    tag="space content",
    revision=lambda ctx, where: None,
)
"""A space's content at its current revision."""
REVISION = ContentScope(
    name="revision",
    root=f"{_S}/revisions/{{revisionId}}",
    ids=("spaceId", "revisionId"),
    tag="revisions",
    revision=lambda ctx, where: where["revisionId"],
)
"""A space's content at any of its revisions."""
CHANGE_REQUEST = ContentScope(
    name="change_request",
    root=f"{_S}/change-requests/{{changeRequestId}}/content",
    ids=("spaceId", "changeRequestId"),
    tag="change-request content",
    revision=_change_request_revision,
)
"""A change request's content: its own revision."""


def _whole(
    view: Callable[[Ctx, str, str | None], Response],
) -> Callable[[ContentScope], Callable[..., Any]]:
    """A read of the whole revision (`view`: its metadata, or its page tree)."""

    def handler(scope: ContentScope) -> Callable[..., Any]:
        async def read(
            ctx: CtxDep,
            metadata: views.MetadataQuery = True,
            computed: views.ComputedQuery = True,
            **where: str,
        ) -> Response:
            return view(ctx, where["spaceId"], scope.revision(ctx, where))

        return read

    return handler


def _files(scope: ContentScope) -> Callable[..., Any]:
    async def read(
        ctx: CtxDep,
        page: PageDep,
        metadata: views.MetadataQuery = True,
        computed: views.ComputedQuery = True,
        **where: str,
    ) -> Response:
        return views.files(ctx, where["spaceId"], scope.revision(ctx, where), page)

    return read


def _file(scope: ContentScope) -> Callable[..., Any]:
    async def read(
        ctx: CtxDep,
        metadata: views.MetadataQuery = True,
        computed: views.ComputedQuery = True,
        **where: str,
    ) -> Response:
        return views.file(ctx, where["spaceId"], scope.revision(ctx, where), where["fileId"])

    return read


def _file_backlinks(scope: ContentScope) -> Callable[..., Any]:
    async def read(ctx: CtxDep, page: PageDep, **where: str) -> Response:
        revision = scope.revision(ctx, where)
        return views.file_backlinks(ctx, where["spaceId"], where["fileId"], page, revision)

    return read


def _page(scope: ContentScope) -> Callable[..., Any]:
    """A page, by its id (`pageId`) or its path (`pagePath`): whichever the route names."""

    async def read(
        ctx: CtxDep,
        format: views.FormatQuery = None,
        evaluated: views.EvaluatedQuery = False,
        metadata: views.MetadataQuery = True,
        computed: views.ComputedQuery = True,
        **where: str,
    ) -> Response:
        revision = scope.revision(ctx, where)
        return views.page(
            ctx,
            where["spaceId"],
            revision,
            page_id=where.get("pageId"),
            path=where.get("pagePath"),
            body_format=format,
            evaluated=evaluated,
        )

    return read


def _page_links(scope: ContentScope) -> Callable[..., Any]:
    async def read(
        ctx: CtxDep, page: PageDep, status: views.StatusQuery = None, **where: str
    ) -> Response:
        revision = scope.revision(ctx, where)
        return views.links(
            ctx, where["spaceId"], page, status, page_id=where["pageId"], revision_id=revision
        )

    return read


_NO_STATUS = "The platform's operation has no `status` filter here (gap-fill.md §7)."

READS = (
    Read(
        _whole(views.revision),
        "",
        Revision,
        {
            "current": ("getCurrentRevision", "Get Current Revision"),
            "revision": ("getRevisionById", "Get Revision"),
            "change_request": ("getRevisionOfChangeRequestById", "Get Change Request Revision"),
        },
    ),
    Read(
        _whole(views.pages),
        "/pages",
        PageList,
        {
            "current": ("listPages", "List Pages"),
            "revision": ("listPagesInRevisionById", "List Revision Pages"),
            "change_request": ("listPagesInChangeRequest", "List Change Request Pages"),
        },
    ),
    Read(
        _files,
        "/files",
        ListPage[RevisionFile],
        {
            "current": ("listFiles", "List Files"),
            "revision": ("listFilesInRevisionById", "List Revision Files"),
            "change_request": ("listFilesInChangeRequestById", "List Change Request Files"),
        },
    ),
    Read(
        _file,
        "/files/{fileId}",
        RevisionFile,
        {
            "current": ("getFileById", "Get File"),
            "revision": ("getFileInRevisionById", "Get Revision File"),
            "change_request": ("getFileInChangeRequestById", "Get Change Request File"),
        },
    ),
    Read(
        _file_backlinks,
        "/files/{fileId}/backlinks",
        ListPage[ContentLocation],
        {
            "current": ("listSpaceFileBacklinks", "List File Backlinks"),
            "change_request": (
                "listChangeRequestFileBacklinks",
                "List Change Request File Backlinks",
            ),
        },
    ),
    Read(
        _page,
        "/page/{pageId}",
        RevisionPage,
        {
            "current": ("getPageById", "Get Page"),
            "revision": ("getPageInRevisionById", "Get Revision Page"),
            "change_request": ("getPageInChangeRequestById", "Get Change Request Page"),
        },
    ),
    Read(
        _page,
        "/path/{pagePath:path}",
        RevisionPage,
        {
            "current": ("getPageByPath", "Get Page By Path"),
            "revision": ("getPageInRevisionByPath", "Get Revision Page By Path"),
        },
    ),
    Read(
        _page_links,
        "/page/{pageId}/links",
        LinkList,
        {
            "current": ("listPageLinksInSpace", "List Page Links"),
            "change_request": ("listPageLinksInChangeRequest", "List Change Request Page Links"),
        },
        without={"change_request": ("status",)},
        doc={"change_request": _NO_STATUS},
    ),
)


def content_reads(scope: ContentScope) -> list[BaseRoute]:
    """The read routes of `scope`, in the table's order."""
    router = APIRouter(tags=[scope.tag])
    for read in READS:
        named = read.ids.get(scope.name)
        if named is None:
            continue
        operation_id, summary = named
        handler = with_scope_ids(
            read.handler(scope),
            scope.ids + read.keys,
            without=(read.without or {}).get(scope.name, ()),
        )
        router.add_api_route(
            scope.root + read.path,
            handler,
            methods=["GET"],
            response_model=read.response_model,
            operation_id=operation_id,
            summary=summary,
            description=(read.doc or {}).get(scope.name),
            responses=errors(404),
        )
    return router.routes
