"""Comments in a space, their replies and the users who commented (platform 0.130.0
operations). The change request counterpart is `change_request_comments`; both call
`_comments`, which holds the behaviour."""

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
    CommentReplyUpdate,
    CommentStatusFilter,
    CommentUpdate,
    DocumentFormat,
)
from docdeck.server.comments import operations as ops
from docdeck.server.comments.service import load_scope
from docdeck.server.http.openapi import errors
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.wire import no_content

router = APIRouter(tags=["comments"])

_C = "/v1/spaces/{spaceId}/comments"
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
    operation_id="listCommentsInSpace",
    responses=errors(404),
)
async def list_comments(
    ctx: CtxDep,
    spaceId: str,
    page: PageDep,
    order: Annotated[CommentOrder, Query(description="By time posted")] = "desc",
    status: Annotated[CommentStatusFilter, Query(description="Only comments with it")] = "all",
    format: FormatQuery = None,
    targetPage: Annotated[str | None, Query(description="Only comments on this page")] = None,
    authors: AuthorsQuery = None,
) -> Response:
    with ctx.db.read() as conn:
        scope = load_scope(conn, ctx, spaceId)
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
    _C, response_model=Comment, operation_id="postCommentInSpace", responses=errors(403, 404)
)
def post_comment(ctx: CtxDep, spaceId: str, body: Annotated[CommentPost, Body()]) -> Response:
    with ctx.db.write() as conn:
        return ops.post_comment(conn, ctx, load_scope(conn, ctx, spaceId), body)


@router.get(_ONE, response_model=Comment, operation_id="getCommentInSpace", responses=errors(404))
async def get_comment(
    ctx: CtxDep, spaceId: str, commentId: str, format: FormatQuery = None
) -> Response:
    with ctx.db.read() as conn:
        return ops.get_comment(conn, ctx, load_scope(conn, ctx, spaceId), commentId, format)


@router.put(
    _ONE, response_model=Comment, operation_id="updateCommentInSpace", responses=errors(403, 404)
)
def update_comment(
    ctx: CtxDep, spaceId: str, commentId: str, body: Annotated[CommentUpdate, Body()]
) -> Response:
    with ctx.db.write() as conn:
        return ops.update_comment(conn, ctx, load_scope(conn, ctx, spaceId), commentId, body)


@router.delete(
    _ONE, status_code=204, operation_id="deleteCommentInSpace", responses=errors(403, 404)
)
def delete_comment(ctx: CtxDep, spaceId: str, commentId: str) -> Response:
    with ctx.db.write() as conn:
        return ops.delete_comment(conn, ctx, load_scope(conn, ctx, spaceId), commentId)


@router.get(
    f"{_ONE}/replies",
    response_model=ListPage[CommentReply],
    operation_id="listCommentRepliesInSpace",
    responses=errors(404),
)
async def list_replies(
    ctx: CtxDep, spaceId: str, commentId: str, page: PageDep, format: FormatQuery = None
) -> Response:
    with ctx.db.read() as conn:
        scope = load_scope(conn, ctx, spaceId)
        return ops.list_replies(conn, ctx, scope, commentId, page, format)


@router.post(
    f"{_ONE}/replies",
    response_model=CommentReply,
    operation_id="postCommentReplyInSpace",
    responses=errors(403, 404),
)
def post_reply(
    ctx: CtxDep, spaceId: str, commentId: str, body: Annotated[CommentReplyPost, Body()]
) -> Response:
    with ctx.db.write() as conn:
        return ops.post_reply(conn, ctx, load_scope(conn, ctx, spaceId), commentId, body)


@router.get(
    _REPLY,
    response_model=CommentReply,
    operation_id="getCommentReplyInSpace",
    responses=errors(404),
)
async def get_reply(
    ctx: CtxDep, spaceId: str, commentId: str, commentReplyId: str, format: FormatQuery = None
) -> Response:
    with ctx.db.read() as conn:
        scope = load_scope(conn, ctx, spaceId)
        return ops.get_reply(conn, ctx, scope, commentId, commentReplyId, format)


@router.put(
    _REPLY,
    response_model=CommentReply,
    operation_id="updateCommentReplyInSpace",
    responses=errors(403, 404),
)
def update_reply(
    ctx: CtxDep,
    spaceId: str,
    commentId: str,
    commentReplyId: str,
    body: Annotated[CommentReplyUpdate, Body()],
) -> Response:
    with ctx.db.write() as conn:
        scope = load_scope(conn, ctx, spaceId)
        return ops.update_reply(conn, ctx, scope, commentId, commentReplyId, body)


@router.delete(
    _REPLY, status_code=204, operation_id="deleteCommentReplyInSpace", responses=errors(403, 404)
)
def delete_reply(ctx: CtxDep, spaceId: str, commentId: str, commentReplyId: str) -> Response:
    """204 whether or not it existed (the reference's status for this row)."""
    with ctx.db.write() as conn:
        ops.delete_reply(conn, ctx, load_scope(conn, ctx, spaceId), commentId, commentReplyId)
    return no_content()


@router.get(
    "/v1/spaces/{spaceId}/commenters",
    response_model=CommentersPage,
    operation_id="listCommentersInSpace",
    responses=errors(404),
)
async def list_commenters(ctx: CtxDep, spaceId: str, page: PageDep) -> Response:
    with ctx.db.read() as conn:
        return ops.list_commenters(conn, ctx, load_scope(conn, ctx, spaceId), page)
