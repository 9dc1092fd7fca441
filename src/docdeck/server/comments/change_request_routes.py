"""Comments in a change request, their replies and the users who commented (platform 0.130.0
operations), as `comments` does for a space's own comments; both call `_comments`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query, Response

from docdeck.models import ListPage
from docdeck.models.comments import (
    Comment,
    CommentersPage,
    CommentOrder,
    CommentPost,
    CommentReply,
    CommentReplyPost,
    CommentStatusFilter,
    CommentUpdate,
    DocumentFormat,
)
from docdeck.server.comments import operations as ops
from docdeck.server.comments.service import load_scope
from docdeck.server.http.openapi import errors
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.wire import no_content

router = APIRouter(tags=["change-request comments"])

_C = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments"
_ONE = f"{_C}/{{commentId}}"
_REPLY = f"{_ONE}/replies/{{commentReplyId}}"

FormatQuery = Annotated[
    DocumentFormat | None, Query(description="Body format (markdown when not given)")
]
AuthorsQuery = Annotated[
    list[str] | None, Query(description="User ids: only comments posted by them")
]


@router.get(
    _C,
    response_model=ListPage[Comment],
    operation_id="listCommentsInChangeRequest",
    responses=errors(404),
)
async def list_comments(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    page: PageDep,
    order: Annotated[CommentOrder, Query(description="By time posted")] = "desc",
    status: Annotated[CommentStatusFilter, Query(description="Only comments with it")] = "all",
    format: FormatQuery = None,
    targetPage: Annotated[str | None, Query(description="Only comments on this page")] = None,
    authors: AuthorsQuery = None,
) -> Response:
    with ctx.db.read() as conn:
        scope = load_scope(conn, ctx, spaceId, changeRequestId)
        return ops.list_comments(
            conn,
            ctx,
            scope,
            page,
            order=order,
            status=status,
            fmt=format,
            target_page=targetPage,
            authors=authors,
        )


@router.post(
    _C,
    response_model=Comment,
    operation_id="postCommentInChangeRequest",
    responses=errors(403, 404),
)
def post_comment(
    ctx: CtxDep, spaceId: str, changeRequestId: str, body: Annotated[CommentPost, Body()]
) -> Response:
    with ctx.db.write() as conn:
        return ops.post_comment(conn, ctx, load_scope(conn, ctx, spaceId, changeRequestId), body)


@router.get(
    _ONE, response_model=Comment, operation_id="getCommentInChangeRequest", responses=errors(404)
)
async def get_comment(
    ctx: CtxDep, spaceId: str, changeRequestId: str, commentId: str, format: FormatQuery = None
) -> Response:
    with ctx.db.read() as conn:
        return ops.get_comment(
            conn, ctx, load_scope(conn, ctx, spaceId, changeRequestId), commentId, format
        )


@router.put(
    _ONE,
    response_model=Comment,
    operation_id="updateCommentInChangeRequest",
    responses=errors(403, 404),
)
def update_comment(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    commentId: str,
    body: Annotated[CommentUpdate, Body()],
) -> Response:
    with ctx.db.write() as conn:
        return ops.update_comment(
            conn, ctx, load_scope(conn, ctx, spaceId, changeRequestId), commentId, body
        )


@router.delete(
    _ONE, status_code=204, operation_id="deleteCommentInChangeRequest", responses=errors(403, 404)
)
def delete_comment(ctx: CtxDep, spaceId: str, changeRequestId: str, commentId: str) -> Response:
    with ctx.db.write() as conn:
        return ops.delete_comment(
            conn, ctx, load_scope(conn, ctx, spaceId, changeRequestId), commentId
        )


@router.get(
    f"{_ONE}/replies",
    response_model=ListPage[CommentReply],
    operation_id="listCommentRepliesInChangeRequest",
    responses=errors(404),
)
async def list_replies(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    commentId: str,
    page: PageDep,
    format: FormatQuery = None,
) -> Response:
    with ctx.db.read() as conn:
        scope = load_scope(conn, ctx, spaceId, changeRequestId)
        return ops.list_replies(conn, ctx, scope, commentId, page, format)


@router.post(
    f"{_ONE}/replies",
    response_model=CommentReply,
    operation_id="postCommentReplyInChangeRequest",
    responses=errors(403, 404),
)
def post_reply(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    commentId: str,
    body: Annotated[CommentReplyPost, Body()],
    format: FormatQuery = None,
) -> Response:
    with ctx.db.write() as conn:
        scope = load_scope(conn, ctx, spaceId, changeRequestId)
        return ops.post_reply(conn, ctx, scope, commentId, body, format)


@router.get(
    _REPLY,
    response_model=CommentReply,
    operation_id="getCommentReplyInChangeRequest",
    responses=errors(404),
)
async def get_reply(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    commentId: str,
    commentReplyId: str,
    format: FormatQuery = None,
) -> Response:
    with ctx.db.read() as conn:
        scope = load_scope(conn, ctx, spaceId, changeRequestId)
        return ops.get_reply(conn, ctx, scope, commentId, commentReplyId, format)


@router.put(
    _REPLY,
    response_model=CommentReply,
    operation_id="updateCommentReplyInChangeRequest",
    responses=errors(403, 404),
)
def update_reply(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    commentId: str,
    commentReplyId: str,
    body: Annotated[CommentUpdate, Body()],
) -> Response:
    with ctx.db.write() as conn:
        scope = load_scope(conn, ctx, spaceId, changeRequestId)
        return ops.update_reply(conn, ctx, scope, commentId, commentReplyId, body)


@router.delete(
    _REPLY,
    status_code=205,
    operation_id="deleteCommentReplyInChangeRequest",
    responses={**errors(403, 404), 204: {"description": "There was no such reply"}},
)
def delete_reply(
    ctx: CtxDep, spaceId: str, changeRequestId: str, commentId: str, commentReplyId: str
) -> Response:
    """205 when the reply was deleted, 204 when there was none: the platform documents these
    two for this operation (not shown in the reference), as for removing a requested
    reviewer."""
    with ctx.db.write() as conn:
        scope = load_scope(conn, ctx, spaceId, changeRequestId)
        deleted = ops.delete_reply(conn, ctx, scope, commentId, commentReplyId)
    response = no_content()
    response.status_code = 205 if deleted else 204
    return response


@router.get(
    "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/commenters",
    response_model=CommentersPage,
    operation_id="listCommentersInChangeRequest",
    responses=errors(404),
)
async def list_commenters(
    ctx: CtxDep, spaceId: str, changeRequestId: str, page: PageDep
) -> Response:
    with ctx.db.read() as conn:
        return ops.list_commenters(conn, ctx, load_scope(conn, ctx, spaceId, changeRequestId), page)
