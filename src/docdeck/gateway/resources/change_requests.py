"""Change requests: `client.change_requests` for the change requests themselves, and nested
groups for what belongs to one (`.content` reads its revision)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import TypeAdapter

from docdeck.gateway._pagination import AsyncPaginator
from docdeck.gateway._resource import Resource, endpoint, seg
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of, query_of
from docdeck.models import (
    ChangeRequest,
    ChangeRequestMergeResult,
    ChangeRequestPDF,
    ChangeRequestStatus,
    ChangeRequestUpdateResult,
    ContentLocation,
    ImportContentResult,
    ImportContentSource,
    LinkList,
    PageList,
    Revision,
    RevisionFile,
    RevisionPage,
    RevisionSemanticChanges,
)
from docdeck.models.change_request_content import ChangeRequestContentUpdate
from docdeck.models.change_requests import (
    ChangeRequestRequestedReviewer,
    ChangeRequestReview,
    ChangeRequestReviewStatus,
    ChangeRequestSettableStatus,
    RequestedReviewers,
)

__all__ = ["ChangeRequestContent", "ChangeRequests"]

_S = "/v1/spaces/{spaceId}"
_CR = f"{_S}/change-requests/{{changeRequestId}}"

_REVISION: TypeAdapter[Revision] = TypeAdapter(Revision)
_PAGE: TypeAdapter[RevisionPage] = TypeAdapter(RevisionPage)


def _list_path(space_id: str) -> str:
    return f"/v1/spaces/{seg(space_id)}/change-requests"


def _cr(space_id: str, change_request: str | int) -> str:
    """A change request by id or by its number in the space."""
    return f"{_list_path(space_id)}/{seg(str(change_request))}"


class ChangeRequestContent(Resource):
    """The content of a change request: its own revision, read like a space's content."""

    @endpoint("GET", f"{_CR}/content")
    async def revision(self, space_id: str, change_request: str | int) -> Revision:
        path = f"{_cr(space_id, change_request)}/content"
        return await self._transport.call("GET", path, _REVISION)

    @endpoint("GET", f"{_CR}/content/pages")
    async def pages(self, space_id: str, change_request: str | int) -> PageList:
        path = f"{_cr(space_id, change_request)}/content/pages"
        return await self._transport.call("GET", path, PageList)

    @endpoint("GET", f"{_CR}/content/page/{{pageId}}")
    async def page(
        self,
        space_id: str,
        change_request: str | int,
        page_id: str,
        *,
        format: str | None,
        evaluated: bool | None = None,
    ) -> RevisionPage:
        """A page; its body as `markdown` or `document` when `format` says so."""
        params = query_of(format=format, evaluated=evaluated)
        path = f"{_cr(space_id, change_request)}/content/page/{seg(page_id)}"
        return await self._transport.call("GET", path, _PAGE, params=params)

    @endpoint("GET", f"{_CR}/content/page/{{pageId}}/links")
    async def page_links(
        self,
        space_id: str,
        change_request: str | int,
        page_id: str,
        *,
        page: str | None = None,
        limit: int | None = None,
    ) -> LinkList:
        params = query_of(page=page, limit=limit)
        path = f"{_cr(space_id, change_request)}/content/page/{seg(page_id)}/links"
        return await self._transport.call("GET", path, LinkList, params=params)

    @endpoint("GET", f"{_CR}/content/files")
    def files(
        self,
        space_id: str,
        change_request: str | int,
        *,
        page: str | None = None,
        limit: int | None = None,
    ) -> AsyncPaginator[RevisionFile]:
        path = f"{_cr(space_id, change_request)}/content/files"
        return self._list(path, RevisionFile, page=page, limit=limit)

    @endpoint("GET", f"{_CR}/content/files/{{fileId}}")
    async def file(self, space_id: str, change_request: str | int, file_id: str) -> RevisionFile:
        path = f"{_cr(space_id, change_request)}/content/files/{seg(file_id)}"
        return await self._transport.call("GET", path, RevisionFile)

    @endpoint("GET", f"{_CR}/content/files/{{fileId}}/backlinks")
    def file_backlinks(
        self,
        space_id: str,
        change_request: str | int,
        file_id: str,
        *,
        page: str | None = None,
        limit: int | None = None,
    ) -> AsyncPaginator[ContentLocation]:
        path = f"{_cr(space_id, change_request)}/content/files/{seg(file_id)}/backlinks"
        return self._list(path, ContentLocation, page=page, limit=limit)  # type: ignore[arg-type]

    @endpoint("POST", f"{_CR}/content/import")
    async def import_content(
        self,
        space_id: str,
        change_request: str | int,
        *,
        url: str,
        source: ImportContentSource = "website",
    ) -> ImportContentResult:
        path = f"{_cr(space_id, change_request)}/content/import"
        body = {"url": url, "source": source}
        return await self._transport.call("POST", path, ImportContentResult, json=body)

    @endpoint("POST", f"{_CR}/content")
    async def update(
        self, space_id: str, change_request: str | int, changes: Sequence[Mapping[str, Any]]
    ) -> ChangeRequestContentUpdate:
        """Applies 1..50 changes (`insert_page`, `update_page`, `delete_page`,
        `revert_page`, `insert_files`) in order as one revision; answers with
        `compat=false`, so what each change touched comes back with the change request."""
        path = f"{_cr(space_id, change_request)}/content"
        body = {"changes": [dict(change) for change in changes]}
        return await self._transport.call(
            "POST", path, ChangeRequestContentUpdate, json=body, params={"compat": "false"}
        )


class Reviews(Resource):
    """`client.change_requests.reviews`: reviews of a change request."""

    @endpoint("GET", f"{_CR}/reviews")
    def list(
        self,
        space_id: str,
        change_request: str | int,
        *,
        page: str | None = None,
        limit: int | None = None,
    ) -> AsyncPaginator[ChangeRequestReview]:
        path = f"{_cr(space_id, change_request)}/reviews"
        return self._list(path, ChangeRequestReview, page=page, limit=limit)

    @endpoint("POST", f"{_CR}/reviews")
    async def submit(
        self,
        space_id: str,
        change_request: str | int,
        *,
        status: ChangeRequestReviewStatus,
        comment: str | None = None,
    ) -> ChangeRequestReview:
        """`approved` or `changes-requested`, with an optional markdown comment."""
        body: dict[str, Any] = {"status": status}
        if comment is not None:
            body["comment"] = {"markdown": comment}
        path = f"{_cr(space_id, change_request)}/reviews"
        return await self._transport.call("POST", path, ChangeRequestReview, json=body)


class RequestedReviewersGroup(Resource):
    """`client.change_requests.requested_reviewers`."""

    @endpoint("GET", f"{_CR}/requested-reviewers")
    def list(
        self,
        space_id: str,
        change_request: str | int,
        *,
        page: str | None = None,
        limit: int | None = None,
    ) -> AsyncPaginator[ChangeRequestRequestedReviewer]:
        path = f"{_cr(space_id, change_request)}/requested-reviewers"
        return self._list(path, ChangeRequestRequestedReviewer, page=page, limit=limit)

    @endpoint("POST", f"{_CR}/requested-reviewers")
    async def request(
        self,
        space_id: str,
        change_request: str | int,
        users: Sequence[str],
        *,
        subject: str | None = None,
    ) -> RequestedReviewers:
        body: dict[str, Any] = {"users": list(users)}
        if subject is not None:
            body["subject"] = subject
        path = f"{_cr(space_id, change_request)}/requested-reviewers"
        return await self._transport.call("POST", path, RequestedReviewers, json=body)

    @endpoint("DELETE", f"{_CR}/requested-reviewers/{{userId}}")
    async def remove(self, space_id: str, change_request: str | int, user_id: str) -> None:
        path = f"{_cr(space_id, change_request)}/requested-reviewers/{seg(user_id)}"
        await self._transport.call_empty("DELETE", path)


class ChangeRequests(Resource):
    @property
    def content(self) -> ChangeRequestContent:
        return ChangeRequestContent(self._transport)

    @property
    def reviews(self) -> Reviews:
        return Reviews(self._transport)

    @property
    def requested_reviewers(self) -> RequestedReviewersGroup:
        return RequestedReviewersGroup(self._transport)

    @endpoint("GET", f"{_S}/change-requests")
    def list(
        self,
        space_id: str,
        *,
        status: ChangeRequestStatus | None = None,
        contributor: str | None = None,
        page: str | None = None,
        limit: int | None = None,
    ) -> AsyncPaginator[ChangeRequest]:
        """Newest first; without `status` the platform lists the open ones."""
        return self._list(
            _list_path(space_id),
            ChangeRequest,
            status=status,
            contributor=contributor,
            page=page,
            limit=limit,
        )

    @endpoint("POST", f"{_S}/change-requests")
    async def create(self, space_id: str, *, subject: str | None = None) -> ChangeRequest:
        body = body_of(subject=subject if subject is not None else NOT_GIVEN)
        return await self._transport.call("POST", _list_path(space_id), ChangeRequest, json=body)

    @endpoint("GET", _CR)
    async def get(self, space_id: str, change_request: str | int) -> ChangeRequest:
        """By id or by number."""
        return await self._transport.call("GET", _cr(space_id, change_request), ChangeRequest)

    @endpoint("PATCH", _CR)
    async def update(
        self,
        space_id: str,
        change_request: str | int,
        *,
        subject: str | NotGiven = NOT_GIVEN,
        status: ChangeRequestSettableStatus | NotGiven = NOT_GIVEN,
    ) -> ChangeRequest:
        body = body_of(subject=subject, status=status)
        path = _cr(space_id, change_request)
        return await self._transport.call("PATCH", path, ChangeRequest, json=body)

    @endpoint("POST", f"{_CR}/update")
    async def update_from_main(
        self, space_id: str, change_request: str | int
    ) -> ChangeRequestUpdateResult:
        """Pulls main in; `result == "conflicts"` means the new revision holds markers."""
        path = f"{_cr(space_id, change_request)}/update"
        return await self._transport.call("POST", path, ChangeRequestUpdateResult)

    @endpoint("POST", f"{_CR}/merge")
    async def merge(self, space_id: str, change_request: str | int) -> ChangeRequestMergeResult:
        """Merges into main; `result == "conflicts"`: applied, the change request's side kept."""
        path = f"{_cr(space_id, change_request)}/merge"
        return await self._transport.call("POST", path, ChangeRequestMergeResult)

    @endpoint("GET", f"{_CR}/changes")
    async def changes(
        self, space_id: str, change_request: str | int, *, limit: int | None = None
    ) -> RevisionSemanticChanges:
        """What the change request changed relative to its base; `more` counts the rest."""
        path = f"{_cr(space_id, change_request)}/changes"
        params = query_of(limit=limit)
        return await self._transport.call("GET", path, RevisionSemanticChanges, params=params)

    @endpoint("GET", f"{_CR}/pdf")
    async def pdf(
        self,
        space_id: str,
        change_request: str | int,
        *,
        page: str | None = None,
        only: bool | None = None,
    ) -> ChangeRequestPDF:
        """A signed, expiring URL to a PDF of the content (or of `page`, with `only` alone)."""
        path = f"{_cr(space_id, change_request)}/pdf"
        params = query_of(page=page, only=only)
        return await self._transport.call("GET", path, ChangeRequestPDF, params=params)
