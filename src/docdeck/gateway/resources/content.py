"""Space content: revisions, pages, files, links, search, documents, import and templates.

One group for the content at its three places: `revision=None` reads the space's current
content (`{S}/content/...`), a revision id reads that revision (`{S}/revisions/{id}/...`),
`change_request=` reads (and imports into) a change request's content
(`{S}/change-requests/{id}/content/...`). Each operation declares its paths once, in its
`@endpoint` markers, and the ids given choose among them (`endpoint_path`).
`client.change_requests.content` is this group in the change request's argument order.
Page bodies come only when asked for, with `format` given explicitly.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, TypeVar, Unpack

from pydantic import TypeAdapter, ValidationError

from docdeck import models
from docdeck.gateway._errors import APIResponseValidationError
from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import DEFERRED, PathSegments, Resource, endpoint, endpoint_path
from docdeck.gateway._transport import parse_content
from docdeck.gateway._types import query_of

if TYPE_CHECKING:  # read through `models` when first used: a change request's first diff
    # needs none of them (its sides are `PageMarkdown`), nor a space's first page the
    # semantic changes
    from docdeck.models import (
        ContentLocation,
        ImportContentResult,
        ImportContentSource,
        JSONDocument,
        LinkList,
        PageList,
        Revision,
        RevisionFile,
        RevisionPage,
        RevisionSemanticChanges,
        SearchPageResult,
    )

__all__ = ["Content"]

T = TypeVar("T")

PageFormat = Literal["markdown", "document"]
LinkStatus = Literal["ok", "broken", "in-app"]


@cache
def _revision() -> TypeAdapter[Revision]:
    return TypeAdapter(models.Revision, config=DEFERRED)


@cache
def _page() -> TypeAdapter[RevisionPage]:
    return TypeAdapter(models.RevisionPage, config=DEFERRED)


@cache
def _page_markdown() -> TypeAdapter[models.PageMarkdown]:
    """`Content.page_markdown`'s answer (the adapters are made on first use, their models
    read through the package: the page union's module is not imported for a diff's text)."""
    return TypeAdapter(models.PageMarkdown)


_BODY: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any], config=DEFERRED)


def _validated(adapter: TypeAdapter[T], data: Any, path: str, where: str = "") -> T:
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        raise APIResponseValidationError.of(
            exc, method="GET", path=path, where=where, raw=json.dumps(data)
        ) from None


def _scoped(
    operation: Callable[..., object],
    space_id: str,
    revision: str | None,
    change_request: str | int | None,
    **ids: str,
) -> str:
    """`operation`'s URL at the place its content is read: the space's current revision
    (neither given), a revision, or a change request's content."""
    return endpoint_path(
        operation, spaceId=space_id, revisionId=revision, changeRequestId=change_request, **ids
    )


def _page_path(page_path: str) -> PathSegments:
    return PathSegments(p for p in page_path.strip("/").split("/") if p)


class Links(Resource):
    """Link analysis: of a space's current revision, or (`change_request=`) of a change
    request's content."""

    @endpoint("GET", "/v1/spaces/{spaceId}/links")
    async def space(
        self,
        space_id: str,
        *,
        status: LinkStatus | None = None,
        page: str | None = None,
        limit: int | None = None,
    ) -> LinkList:
        """One page of the space's links (with `stats`); follow `next.page` for more."""
        params = query_of(status=status, page=page, limit=limit)
        path = endpoint_path(self.space, spaceId=space_id)
        return await self._transport.call("GET", path, models.LinkList, params=params)

    @endpoint("GET", "/v1/spaces/{spaceId}/content/page/{pageId}/links")
    @endpoint(
        "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links"
    )
    async def page(
        self,
        space_id: str,
        page_id: str,
        *,
        change_request: str | int | None = None,
        status: LinkStatus | None = None,
        page: str | None = None,
        limit: int | None = None,
    ) -> LinkList:
        params = query_of(status=status, page=page, limit=limit)
        path = endpoint_path(
            self.page, spaceId=space_id, changeRequestId=change_request, pageId=page_id
        )
        return await self._transport.call("GET", path, models.LinkList, params=params)

    @endpoint("GET", "/v1/spaces/{spaceId}/content/files/{fileId}/backlinks")
    @endpoint(
        "GET",
        "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks",
    )
    def file_backlinks(
        self,
        space_id: str,
        file_id: str,
        *,
        change_request: str | int | None = None,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[ContentLocation]:
        path = endpoint_path(
            self.file_backlinks, spaceId=space_id, changeRequestId=change_request, fileId=file_id
        )
        location = models.ContentLocation
        return self._list(path, location, **paging)  # type: ignore[arg-type]


class Content(Resource):
    @property
    def links(self) -> Links:
        return Links(self._transport)

    @endpoint("GET", "/v1/spaces/{spaceId}/content")
    @endpoint("GET", "/v1/spaces/{spaceId}/revisions/{revisionId}")
    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content")
    async def revision(
        self,
        space_id: str,
        revision: str | None = None,
        *,
        change_request: str | int | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
    ) -> Revision:
        """The current revision, or the given one, with its page tree and files."""
        params = query_of(metadata=metadata, computed=computed)
        path = _scoped(self.revision, space_id, revision, change_request)
        return await self._transport.call("GET", path, _revision(), params=params)

    async def revision_in_steps(self, space_id: str, revision: str | None = None) -> Revision:
        """`revision`, parsed a top-level page at a time, letting the event loop run between.

        A 5,000-page revision is about 3 MB; parsed in one go it held the loop for over a
        second, during which a terminal UI could not draw or take a key.
        """
        path = endpoint_path(self.revision, spaceId=space_id, revisionId=revision)
        body = parse_content(*await self._transport.answer("GET", path), _BODY, "GET", path)
        pages = body.get("pages")
        result = _validated(_revision(), {**body, "pages": []}, path)
        parsed: list[RevisionPage] = []
        for page in pages if isinstance(pages, list) else []:
            parsed.append(_validated(_page(), page, path, "pages"))
            await asyncio.sleep(0)
        result.pages = parsed
        return result

    @endpoint("GET", "/v1/spaces/{spaceId}/content/pages")
    @endpoint("GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/pages")
    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages")
    async def pages(
        self,
        space_id: str,
        revision: str | None = None,
        *,
        change_request: str | int | None = None,
        metadata: bool | None = None,
        computed: bool | None = None,
    ) -> PageList:
        """The page tree (`.walk()`, `.find(id)`, `.by_path(path)` help to move in it)."""
        params = query_of(metadata=metadata, computed=computed)
        path = _scoped(self.pages, space_id, revision, change_request)
        return await self._transport.call("GET", path, models.PageList, params=params)

    @endpoint("GET", "/v1/spaces/{spaceId}/content/page/{pageId}")
    @endpoint("GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}")
    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}")
    async def page(
        self,
        space_id: str,
        page_id: str,
        *,
        format: PageFormat | None,
        revision: str | None = None,
        change_request: str | int | None = None,
        evaluated: bool | None = None,
    ) -> RevisionPage:
        """A page; its body as `markdown` or `document` when `format` says so (None: no
        body, as the platform does)."""
        params = query_of(format=format, evaluated=evaluated)
        path = _scoped(self.page, space_id, revision, change_request, pageId=page_id)
        return await self._transport.call("GET", path, _page(), params=params)

    @endpoint("GET", "/v1/spaces/{spaceId}/content/page/{pageId}")
    @endpoint("GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}")
    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}")
    async def page_markdown(
        self,
        space_id: str,
        page_id: str,
        *,
        revision: str | None = None,
        change_request: str | int | None = None,
    ) -> models.PageMarkdown:
        """`page(..., format="markdown")` read for its text alone (`.markdown`, None on a page
        without a body): the answer is not parsed as a page of its type, whose validator
        (~10 ms to build) a change request's first diff needed for nothing else. The rest
        of the answer is kept: `page_of` parses it as `page` would, with no second read."""
        path = _scoped(self.page_markdown, space_id, revision, change_request, pageId=page_id)
        params = query_of(format="markdown")
        return await self._transport.call("GET", path, _page_markdown(), params=params)

    @staticmethod
    def page_of(answer: models.PageMarkdown) -> RevisionPage:
        """The page a `page_markdown` answer holds, parsed as `page` parses its answer (a
        document, group, link, computed or unknown page), from the answer as it came."""
        data = answer.model_dump(exclude_unset=True)
        return _validated(_page(), data, f".../page/{answer.id}?format=markdown")

    @endpoint("GET", "/v1/spaces/{spaceId}/content/path/{pagePath}")
    @endpoint("GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath}")
    async def page_by_path(
        self,
        space_id: str,
        page_path: str,
        *,
        format: PageFormat | None,
        revision: str | None = None,
        evaluated: bool | None = None,
    ) -> RevisionPage:
        params = query_of(format=format, evaluated=evaluated)
        path = endpoint_path(
            self.page_by_path, spaceId=space_id, revisionId=revision, pagePath=_page_path(page_path)
        )
        return await self._transport.call("GET", path, _page(), params=params)

    @endpoint("GET", "/v1/spaces/{spaceId}/content/files")
    @endpoint("GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/files")
    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files")
    def files(
        self,
        space_id: str,
        revision: str | None = None,
        *,
        change_request: str | int | None = None,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[RevisionFile]:
        path = _scoped(self.files, space_id, revision, change_request)
        return self._list(path, models.RevisionFile, **paging)

    @endpoint("GET", "/v1/spaces/{spaceId}/content/files/{fileId}")
    @endpoint("GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}")
    @endpoint(
        "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}"
    )
    async def file(
        self,
        space_id: str,
        file_id: str,
        revision: str | None = None,
        *,
        change_request: str | int | None = None,
    ) -> RevisionFile:
        path = _scoped(self.file, space_id, revision, change_request, fileId=file_id)
        return await self._transport.call("GET", path, models.RevisionFile)

    async def download(self, file: RevisionFile, write: Callable[[bytes], object]) -> int:
        """A file's bytes, from its signed `downloadURL`, streamed to `write`."""
        return await self._transport.download(file.downloadURL, write)

    @endpoint("GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/changes")
    async def changes(
        self, space_id: str, revision: str, *, limit: int | None = None
    ) -> RevisionSemanticChanges:
        """What `revision` changed relative to its first parent."""
        path = endpoint_path(self.changes, spaceId=space_id, revisionId=revision)
        return await self._transport.call(
            "GET", path, models.RevisionSemanticChanges, params=query_of(limit=limit)
        )

    @endpoint("GET", "/v1/spaces/{spaceId}/documents/{documentId}")
    async def document(self, space_id: str, document_id: str) -> JSONDocument:
        path = endpoint_path(self.document, spaceId=space_id, documentId=document_id)
        return await self._transport.call("GET", path, models.JSONDocument)

    @endpoint("GET", "/v1/spaces/{spaceId}/search")
    def search(
        self, space_id: str, query: str, **paging: Unpack[Paging]
    ) -> AsyncPaginator[SearchPageResult]:
        path = endpoint_path(self.search, spaceId=space_id)
        return self._list(path, models.SearchPageResult, query=query, **paging)

    @endpoint("POST", "/v1/spaces/{spaceId}/content/import")
    @endpoint("POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import")
    async def import_content(
        self,
        space_id: str,
        *,
        url: str,
        source: ImportContentSource = "website",
        change_request: str | int | None = None,
    ) -> ImportContentResult:
        body = {"url": url, "source": source}
        path = endpoint_path(self.import_content, spaceId=space_id, changeRequestId=change_request)
        return await self._transport.call("POST", path, models.ImportContentResult, json=body)

    @endpoint("POST", "/v1/spaces/{spaceId}/content/template")
    async def apply_template(
        self, space_id: str, template_id: str, *, params: dict[str, Any] | None = None
    ) -> None:
        body = models.ApplySpaceTemplate(id=template_id).model_dump(exclude_none=True)
        if params is not None:
            body["params"] = params
        path = endpoint_path(self.apply_template, spaceId=space_id)
        await self._transport.call_empty("POST", path, json=body)
