"""Comments: `client.comments` for a space's own comments, or (with `change_request=`) the
comments of one of its change requests; `.replies` for the replies of a comment. Bodies are
written as markdown and read back as the `format` asks (markdown by default)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Unpack

from docdeck.gateway._pagination import AsyncPaginator, Paging
from docdeck.gateway._resource import Resource, endpoint, endpoint_path
from docdeck.gateway._types import NOT_GIVEN, NotGiven, body_of, query_of
from docdeck.models import Member
from docdeck.models.comments import (
    Comment,
    CommentOrder,
    CommentReply,
    CommentStatusFilter,
    DocumentFormat,
)

__all__ = ["CommentReplies", "Comments"]


def _update_body(
    markdown: str | NotGiven,
    added_reactions: Sequence[str] | NotGiven,
    removed_reactions: Sequence[str] | NotGiven,
    **more: Any,
) -> dict[str, Any]:
    return body_of(
        body=NOT_GIVEN if isinstance(markdown, NotGiven) else {"markdown": markdown},
        addedReactions=(
            added_reactions if isinstance(added_reactions, NotGiven) else list(added_reactions)
        ),
        removedReactions=(
            removed_reactions
            if isinstance(removed_reactions, NotGiven)
            else list(removed_reactions)
        ),
        **more,
    )


def _reply_path(
    operation: Callable[..., object],
    space_id: str,
    comment_id: str,
    reply_id: str,
    change_request: str | int | None,
) -> str:
    """`operation`'s URL for one reply, of a space's comment or of a change request's."""
    return endpoint_path(
        operation,
        spaceId=space_id,
        changeRequestId=change_request,
        commentId=comment_id,
        commentReplyId=reply_id,
    )


class CommentReplies(Resource):
    """`client.comments.replies`: the replies of one comment, oldest first."""

    @endpoint("GET", "/v1/spaces/{spaceId}/comments/{commentId}/replies")
    @endpoint(
        "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies"
    )
    def list(
        self,
        space_id: str,
        comment_id: str,
        *,
        change_request: str | int | None = None,
        format: DocumentFormat | None = None,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[CommentReply]:
        path = endpoint_path(
            self.list, spaceId=space_id, changeRequestId=change_request, commentId=comment_id
        )
        return self._list(path, CommentReply, format=format, **paging)

    @endpoint("POST", "/v1/spaces/{spaceId}/comments/{commentId}/replies")
    @endpoint(
        "POST",
        "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies",
    )
    async def post(
        self,
        space_id: str,
        comment_id: str,
        markdown: str,
        *,
        change_request: str | int | None = None,
    ) -> CommentReply:
        path = endpoint_path(
            self.post, spaceId=space_id, changeRequestId=change_request, commentId=comment_id
        )
        body = {"body": {"markdown": markdown}}
        return await self._transport.call("POST", path, CommentReply, json=body)

    @endpoint("GET", "/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}")
    @endpoint(
        "GET",
        "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}",
    )
    async def get(
        self,
        space_id: str,
        comment_id: str,
        reply_id: str,
        *,
        change_request: str | int | None = None,
        format: DocumentFormat | None = None,
    ) -> CommentReply:
        path = _reply_path(self.get, space_id, comment_id, reply_id, change_request)
        params = query_of(format=format)
        return await self._transport.call("GET", path, CommentReply, params=params)

    @endpoint("PUT", "/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}")
    @endpoint(
        "PUT",
        "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}",
    )
    async def update(
        self,
        space_id: str,
        comment_id: str,
        reply_id: str,
        *,
        change_request: str | int | None = None,
        markdown: str | NotGiven = NOT_GIVEN,
        added_reactions: Sequence[str] | NotGiven = NOT_GIVEN,
        removed_reactions: Sequence[str] | NotGiven = NOT_GIVEN,
    ) -> CommentReply:
        """A new body (the author only) and the caller's reactions to add or remove."""
        path = _reply_path(self.update, space_id, comment_id, reply_id, change_request)
        body = _update_body(markdown, added_reactions, removed_reactions)
        return await self._transport.call("PUT", path, CommentReply, json=body)

    @endpoint("DELETE", "/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}")
    @endpoint(
        "DELETE",
        "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}",
    )
    async def delete(
        self,
        space_id: str,
        comment_id: str,
        reply_id: str,
        *,
        change_request: str | int | None = None,
    ) -> None:
        path = _reply_path(self.delete, space_id, comment_id, reply_id, change_request)
        await self._transport.call_empty("DELETE", path)


class Comments(Resource):
    @property
    def replies(self) -> CommentReplies:
        return CommentReplies(self._transport)

    @endpoint("GET", "/v1/spaces/{spaceId}/comments")
    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments")
    def list(
        self,
        space_id: str,
        *,
        change_request: str | int | None = None,
        order: CommentOrder | None = None,
        status: CommentStatusFilter | None = None,
        format: DocumentFormat | None = None,
        target_page: str | None = None,
        authors: Sequence[str] | None = None,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[Comment]:
        """Newest first unless `order="asc"`; every status unless `status` says."""
        return self._list(
            endpoint_path(self.list, spaceId=space_id, changeRequestId=change_request),
            Comment,
            order=order,
            status=status,
            format=format,
            targetPage=target_page,
            authors=None if authors is None else list(authors),
            **paging,
        )

    @endpoint("POST", "/v1/spaces/{spaceId}/comments")
    @endpoint("POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments")
    async def post(
        self,
        space_id: str,
        markdown: str,
        *,
        change_request: str | int | None = None,
        page: str | None = None,
        node: str | None = None,
        table_cell: tuple[str, str] | None = None,
    ) -> Comment:
        """On the space (or change request), a page of it, or a block (`node`: its key); on a
        table block, `table_cell` is the (record, column definition) of the cell."""
        body = body_of(
            body={"markdown": markdown},
            page=NOT_GIVEN if page is None else page,
            node=NOT_GIVEN if node is None else node,
            tableCell=NOT_GIVEN
            if table_cell is None
            else {"record": table_cell[0], "definition": table_cell[1]},
        )
        path = endpoint_path(self.post, spaceId=space_id, changeRequestId=change_request)
        return await self._transport.call("POST", path, Comment, json=body)

    @endpoint("GET", "/v1/spaces/{spaceId}/comments/{commentId}")
    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}")
    async def get(
        self,
        space_id: str,
        comment_id: str,
        *,
        change_request: str | int | None = None,
        format: DocumentFormat | None = None,
    ) -> Comment:
        path = endpoint_path(
            self.get, spaceId=space_id, changeRequestId=change_request, commentId=comment_id
        )
        params = query_of(format=format)
        return await self._transport.call("GET", path, Comment, params=params)

    @endpoint("PUT", "/v1/spaces/{spaceId}/comments/{commentId}")
    @endpoint("PUT", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}")
    async def update(
        self,
        space_id: str,
        comment_id: str,
        *,
        change_request: str | int | None = None,
        markdown: str | NotGiven = NOT_GIVEN,
        resolved: bool | NotGiven = NOT_GIVEN,
        added_reactions: Sequence[str] | NotGiven = NOT_GIVEN,
        removed_reactions: Sequence[str] | NotGiven = NOT_GIVEN,
    ) -> Comment:
        """`resolved=True` resolves, `False` reopens; reactions are the caller's own."""
        body = _update_body(markdown, added_reactions, removed_reactions, resolved=resolved)
        path = endpoint_path(
            self.update, spaceId=space_id, changeRequestId=change_request, commentId=comment_id
        )
        return await self._transport.call("PUT", path, Comment, json=body)

    @endpoint("DELETE", "/v1/spaces/{spaceId}/comments/{commentId}")
    @endpoint(
        "DELETE", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}"
    )
    async def delete(
        self, space_id: str, comment_id: str, *, change_request: str | int | None = None
    ) -> None:
        """Deletes its replies too; deleting a comment that is gone is not an error."""
        await self._transport.call_empty(
            "DELETE",
            endpoint_path(
                self.delete, spaceId=space_id, changeRequestId=change_request, commentId=comment_id
            ),
        )

    @endpoint("GET", "/v1/spaces/{spaceId}/commenters")
    @endpoint("GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/commenters")
    def commenters(
        self,
        space_id: str,
        *,
        change_request: str | int | None = None,
        **paging: Unpack[Paging],
    ) -> AsyncPaginator[Member]:
        """The organization members who posted a comment or a reply there."""
        path = endpoint_path(self.commenters, spaceId=space_id, changeRequestId=change_request)
        return self._list(path, Member, **paging)
