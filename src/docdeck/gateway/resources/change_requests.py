"""Change requests: `client.change_requests` for the change requests themselves, and nested
groups for what belongs to one (`.content` reads its revision)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Unpack

from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import Resource, endpoint, endpoint_path, in_change_request
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of, query_of
from docdeck.gateway.resources.content import Content, Links
from docdeck.models import (
    ChangeRequest,
    ChangeRequestMergeResult,
    ChangeRequestPDF,
    ChangeRequestStatus,
    ChangeRequestUpdateResult,
    RevisionSemanticChanges,
)
from docdeck.models.change_requests import (
    ChangeRequestRequestedReviewer,
    ChangeRequestReview,
    ChangeRequestReviewStatus,
    ChangeRequestSettableStatus,
    RequestedReviewers,
)

if TYPE_CHECKING:  # its 14 models are built when a change request is first authored
    from docdeck.models.change_request_content import ChangeRequestContentUpdate

__all__ = ["ChangeRequestContent", "ChangeRequests"]


class ChangeRequestContent(Resource):
    """The content of a change request: `client.content`'s operations (declared there, once
    for the three places content lives) with the change request as their second argument."""

    revision = in_change_request(Content, Content.revision)
    pages = in_change_request(Content, Content.pages)
    page = in_change_request(Content, Content.page)
    page_markdown = in_change_request(Content, Content.page_markdown)
    page_links = in_change_request(Links, Links.page)
    files = in_change_request(Content, Content.files)
    file = in_change_request(Content, Content.file)
    file_backlinks = in_change_request(Links, Links.file_backlinks)
    import_content = in_change_request(Content, Content.import_content)

    @endpoint("POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content")
    async def update(
        self, space_id: str, change_request: str | int, changes: Sequence[Mapping[str, Any]]
    ) -> ChangeRequestContentUpdate:
        """Applies 1..50 changes (`insert_page`, `update_page`, `delete_page`,
        `revert_page`, `insert_files`) in order as one revision; answers with
        `compat=false`, so what each change touched comes back with the change request."""
        from docdeck.models.change_request_content import ChangeRequestContentUpdate

        path = endpoint_path(self.update, spaceId=space_id, changeRequestId=change_request)
        body = {"changes": [dict(change) for change in changes]}
        return await self._transport.call(
            "POST", path, ChangeRequestContentUpdate, json=body, params={"compat": "false"}
        )


class Reviews(Resource):
    """`client.change_requests.reviews`: reviews of a change request."""

    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews")
    def list(
        self,
        space_id: str,
        change_request: str | int,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[ChangeRequestReview]:
        path = endpoint_path(self.list, spaceId=space_id, changeRequestId=change_request)
        return self._list(path, ChangeRequestReview, **paging)

    @endpoint("POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews")
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
        path = endpoint_path(self.submit, spaceId=space_id, changeRequestId=change_request)
        return await self._transport.call("POST", path, ChangeRequestReview, json=body)


class RequestedReviewersGroup(Resource):
    """`client.change_requests.requested_reviewers`."""

    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers")
    def list(
        self,
        space_id: str,
        change_request: str | int,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[ChangeRequestRequestedReviewer]:
        path = endpoint_path(self.list, spaceId=space_id, changeRequestId=change_request)
        return self._list(path, ChangeRequestRequestedReviewer, **paging)

    @endpoint("POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers")
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
        path = endpoint_path(self.request, spaceId=space_id, changeRequestId=change_request)
        return await self._transport.call("POST", path, RequestedReviewers, json=body)

    @endpoint(
        "DELETE",
        "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}",
    )
    async def remove(self, space_id: str, change_request: str | int, user_id: str) -> None:
        path = endpoint_path(
            self.remove, spaceId=space_id, changeRequestId=change_request, userId=user_id
        )
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

    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests")
    def list(
        self,
        space_id: str,
        *,
        status: ChangeRequestStatus | None = None,
        contributor: str | None = None,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[ChangeRequest]:
        """Newest first; without `status` the platform lists the open ones."""
        return self._list(
            endpoint_path(self.list, spaceId=space_id),
            ChangeRequest,
            status=status,
            contributor=contributor,
            **paging,
        )

    @endpoint("POST", "/v1/spaces/{spaceId}/change-requests")
    async def create(self, space_id: str, *, subject: str | None = None) -> ChangeRequest:
        body = body_of(subject=subject if subject is not None else NOT_GIVEN)
        path = endpoint_path(self.create, spaceId=space_id)
        return await self._transport.call("POST", path, ChangeRequest, json=body)

    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}")
    async def get(self, space_id: str, change_request: str | int) -> ChangeRequest:
        """By id or by number."""
        path = endpoint_path(self.get, spaceId=space_id, changeRequestId=change_request)
        return await self._transport.call("GET", path, ChangeRequest)

    @endpoint("PATCH", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}")
    async def update(
        self,
        space_id: str,
        change_request: str | int,
        *,
        subject: str | NotGiven = NOT_GIVEN,
        status: ChangeRequestSettableStatus | NotGiven = NOT_GIVEN,
    ) -> ChangeRequest:
        body = body_of(subject=subject, status=status)
        path = endpoint_path(self.update, spaceId=space_id, changeRequestId=change_request)
        return await self._transport.call("PATCH", path, ChangeRequest, json=body)

    @endpoint("POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update")
    async def update_from_main(
        self, space_id: str, change_request: str | int
    ) -> ChangeRequestUpdateResult:
        """Pulls main in; `result == "conflicts"` means the new revision holds markers."""
        path = endpoint_path(
            self.update_from_main, spaceId=space_id, changeRequestId=change_request
        )
        return await self._transport.call("POST", path, ChangeRequestUpdateResult)

    @endpoint("POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge")
    async def merge(self, space_id: str, change_request: str | int) -> ChangeRequestMergeResult:
        """Merges into main; `result == "conflicts"`: applied, the change request's side kept."""
        path = endpoint_path(self.merge, spaceId=space_id, changeRequestId=change_request)
        return await self._transport.call("POST", path, ChangeRequestMergeResult)

    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes")
    async def changes(
        self, space_id: str, change_request: str | int, *, limit: int | None = None
    ) -> RevisionSemanticChanges:
        """What the change request changed relative to its base; `more` counts the rest."""
        path = endpoint_path(self.changes, spaceId=space_id, changeRequestId=change_request)
        params = query_of(limit=limit)
        return await self._transport.call("GET", path, RevisionSemanticChanges, params=params)

    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf")
    async def pdf(
        self,
        space_id: str,
        change_request: str | int,
        *,
        page: str | None = None,
        only: bool | None = None,
    ) -> ChangeRequestPDF:
        """A signed, expiring URL to a PDF of the content (or of `page`, with `only` alone)."""
        path = endpoint_path(self.pdf, spaceId=space_id, changeRequestId=change_request)
        params = query_of(page=page, only=only)
        return await self._transport.call("GET", path, ChangeRequestPDF, params=params)
