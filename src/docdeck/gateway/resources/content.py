"""Space content: revisions, pages, files, links, search, documents, import and templates.

Reads take the revision as an argument: `revision=None` reads the space's current content
(`{S}/content/...`), a revision id reads that revision (`{S}/revisions/{id}/...`). Page
bodies come only when asked for, with `format` given explicitly.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from pydantic import TypeAdapter, ValidationError

from docdeck.gateway._errors import APIResponseValidationError
from docdeck.gateway._pagination import AsyncPaginator
from docdeck.gateway._resource import DEFERRED, Resource, endpoint, seg
from docdeck.gateway._transport import parse
from docdeck.gateway._types import query_of
from docdeck.models import (
    ApplySpaceTemplate,
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

_S = "/v1/spaces/{spaceId}"
_R = "/v1/spaces/{spaceId}/revisions/{revisionId}"
PageFormat = Literal["markdown", "document"]
LinkStatus = Literal["ok", "broken", "in-app"]

_REVISION: TypeAdapter[Revision] = TypeAdapter(Revision, config=DEFERRED)
_PAGE: TypeAdapter[RevisionPage] = TypeAdapter(RevisionPage, config=DEFERRED)


_BODY: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any], config=DEFERRED)


def _validated(adapter: TypeAdapter[T], data: Any, path: str, where: str = "") -> T:
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        raise APIResponseValidationError.of(
            exc, method="GET", path=path, where=where, raw=json.dumps(data)
        ) from None


def _space(space_id: str) -> str:
    return f"/v1/spaces/{seg(space_id)}"


def _root(space_id: str, revision: str | None) -> str:
    """Where a read of `revision` (None: the current one) lives."""
    if revision is None:
        return f"{_space(space_id)}/content"
    return f"{_space(space_id)}/revisions/{seg(revision)}"


def _path_segments(page_path: str) -> str:
    parts = [p for p in page_path.strip("/").split("/") if p]
    if not parts:
        raise ValueError("a page path must not be empty")
    return "/".join(seg(p) for p in parts)


class Links(Resource):
    """Link analysis of a space's current revision."""

    @endpoint("GET", f"{_S}/links")
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
        return await self._transport.call(
            "GET", f"{_space(space_id)}/links", LinkList, params=params
        )

    @endpoint("GET", f"{_S}/content/page/{{pageId}}/links")
    async def page(
        self,
        space_id: str,
        page_id: str,
        *,
        status: LinkStatus | None = None,
        page: str | None = None,
        limit: int | None = None,
    ) -> LinkList:
        params = query_of(status=status, page=page, limit=limit)
        path = f"{_space(space_id)}/content/page/{seg(page_id)}/links"
        return await self._transport.call("GET", path, LinkList, params=params)

    @endpoint("GET", f"{_S}/content/files/{{fileId}}/backlinks")
    def file_backlinks(
        self, space_id: str, file_id: str, *, page: str | None = None, limit: int | None = None
    ) -> AsyncPaginator[ContentLocation]:
        path = f"{_space(space_id)}/content/files/{seg(file_id)}/backlinks"
        return self._list(path, ContentLocation, page=page, limit=limit)  # type: ignore[arg-type]


class Content(Resource):
    @property
    def links(self) -> Links:
        return Links(self._transport)

    @endpoint("GET", f"{_S}/content")
    @endpoint("GET", _R)
    async def revision(
        self,
        space_id: str,
        revision: str | None = None,
        *,
        metadata: bool | None = None,
        computed: bool | None = None,
    ) -> Revision:
        """The current revision, or the given one, with its page tree and files."""
        params = query_of(metadata=metadata, computed=computed)
        return await self._transport.call(
            "GET", _root(space_id, revision), _REVISION, params=params
        )

    async def revision_in_steps(self, space_id: str, revision: str | None = None) -> Revision:
        """`revision`, parsed a top-level page at a time, letting the event loop run between.

        A 5,000-page revision is about 3 MB; parsed in one go it held the loop for over a
        second, during which a terminal UI could not draw or take a key.
        """
        path = _root(space_id, revision)
        response = await self._transport.request("GET", path)
        body = parse(response, _BODY, "GET", path)
        pages = body.get("pages")
        result = _validated(_REVISION, {**body, "pages": []}, path)
        parsed: list[RevisionPage] = []
        for page in pages if isinstance(pages, list) else []:
            parsed.append(_validated(_PAGE, page, path, "pages"))
            await asyncio.sleep(0)
        result.pages = parsed
        return result

    @endpoint("GET", f"{_S}/content/pages")
    @endpoint("GET", f"{_R}/pages")
    async def pages(
        self,
        space_id: str,
        revision: str | None = None,
        *,
        metadata: bool | None = None,
        computed: bool | None = None,
    ) -> PageList:
        """The page tree (`.walk()`, `.find(id)`, `.by_path(path)` help to move in it)."""
        params = query_of(metadata=metadata, computed=computed)
        path = f"{_root(space_id, revision)}/pages"
        return await self._transport.call("GET", path, PageList, params=params)

    @endpoint("GET", f"{_S}/content/page/{{pageId}}")
    @endpoint("GET", f"{_R}/page/{{pageId}}")
    async def page(
        self,
        space_id: str,
        page_id: str,
        *,
        format: PageFormat | None,
        revision: str | None = None,
        evaluated: bool | None = None,
    ) -> RevisionPage:
        """A page; its body as `markdown` or `document` when `format` says so (None: no
        body, as the platform does)."""
        params = query_of(format=format, evaluated=evaluated)
        path = f"{_root(space_id, revision)}/page/{seg(page_id)}"
        return await self._transport.call("GET", path, _PAGE, params=params)

    @endpoint("GET", f"{_S}/content/path/{{pagePath}}")
    @endpoint("GET", f"{_R}/path/{{pagePath}}")
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
        path = f"{_root(space_id, revision)}/path/{_path_segments(page_path)}"
        return await self._transport.call("GET", path, _PAGE, params=params)

    @endpoint("GET", f"{_S}/content/files")
    @endpoint("GET", f"{_R}/files")
    def files(
        self,
        space_id: str,
        revision: str | None = None,
        *,
        page: str | None = None,
        limit: int | None = None,
    ) -> AsyncPaginator[RevisionFile]:
        return self._list(
            f"{_root(space_id, revision)}/files", RevisionFile, page=page, limit=limit
        )

    @endpoint("GET", f"{_S}/content/files/{{fileId}}")
    @endpoint("GET", f"{_R}/files/{{fileId}}")
    async def file(self, space_id: str, file_id: str, revision: str | None = None) -> RevisionFile:
        path = f"{_root(space_id, revision)}/files/{seg(file_id)}"
        return await self._transport.call("GET", path, RevisionFile)

    async def download(self, file: RevisionFile, write: Callable[[bytes], object]) -> int:
        """A file's bytes, from its signed `downloadURL`, streamed to `write`."""
        return await self._transport.download(file.downloadURL, write)

    @endpoint("GET", f"{_R}/changes")
    async def changes(
        self, space_id: str, revision: str, *, limit: int | None = None
    ) -> RevisionSemanticChanges:
        """What `revision` changed relative to its first parent."""
        path = f"{_root(space_id, revision)}/changes"
        return await self._transport.call(
            "GET", path, RevisionSemanticChanges, params=query_of(limit=limit)
        )

    @endpoint("GET", f"{_S}/documents/{{documentId}}")
    async def document(self, space_id: str, document_id: str) -> JSONDocument:
        path = f"{_space(space_id)}/documents/{seg(document_id)}"
        return await self._transport.call("GET", path, JSONDocument)

    @endpoint("GET", f"{_S}/search")
    def search(
        self, space_id: str, query: str, *, page: str | None = None, limit: int | None = None
    ) -> AsyncPaginator[SearchPageResult]:
        path = f"{_space(space_id)}/search"
        return self._list(path, SearchPageResult, query=query, page=page, limit=limit)

    @endpoint("POST", f"{_S}/content/import")
    async def import_content(
        self, space_id: str, *, url: str, source: ImportContentSource = "website"
    ) -> ImportContentResult:
        body = {"url": url, "source": source}
        path = f"{_space(space_id)}/content/import"
        return await self._transport.call("POST", path, ImportContentResult, json=body)

    @endpoint("POST", f"{_S}/content/template")
    async def apply_template(
        self, space_id: str, template_id: str, *, params: dict[str, Any] | None = None
    ) -> None:
        body = ApplySpaceTemplate(id=template_id).model_dump(exclude_none=True)
        if params is not None:
            body["params"] = params
        await self._transport.call_empty("POST", f"{_space(space_id)}/content/template", json=body)
