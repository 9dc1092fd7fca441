"""Comments, their replies and the users who commented (platform 0.130.0 operations), declared
once for both places comments live: a space, and one of its change requests.

The two differ only in their path (the scope's ids), their operation ids and tag, and three
details the platform documents differently (below, in `CommentScope`); `operations` holds the
behaviour and `service.load_scope` finds the scope. Each scope's routes keep the order, names
and parameters they had when written out one by one, so `/openapi.json` is unchanged.

Annotations here are evaluated (no `from __future__ import annotations`): FastAPI reads them
from the handlers a factory makes, where a scope's body type is a closure value, not a name.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

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
from docdeck.server.http.params import CtxDep, PageDep, with_scope_ids
from docdeck.server.wire import no_content

FormatQuery = Annotated[
    DocumentFormat | None, Query(description="Body format (markdown when not given)")
]
AuthorsQuery = Annotated[
    list[str] | None, Query(description="User ids: only comments posted by them")
]


@dataclass(frozen=True)
class CommentScope:
    """Where comments live, and what the platform documents differently there."""

    ids: tuple[str, ...]
    """The path parameters naming the scope, in path order (`load_scope` takes them so)."""
    path: str
    """The scope's path; comments are under `{path}/comments`, commenters `{path}/commenters`."""
    operation: str
    """The operation ids' suffix (`listComments{operation}`)."""
    tag: str
    reply_update: type[Any]
    """The body of a reply's update (the platform names a different schema per scope)."""
    reply_post_format: bool
    """Whether posting a reply takes `format` for the answer's body."""
    delete_reply_doc: str
    delete_reply_205: bool = False
    """Whether deleting a reply answers 205 when it deleted one (and 204 when there was none)."""


SPACE = CommentScope(
    ids=("spaceId",),
    path="/v1/spaces/{spaceId}",
    operation="InSpace",
    tag="comments",
    reply_update=CommentReplyUpdate,
    reply_post_format=False,
    delete_reply_doc="204 whether or not it existed (the reference's status for this row).",
)
CHANGE_REQUEST = CommentScope(
    ids=("spaceId", "changeRequestId"),
    path="/v1/spaces/{spaceId}/change-requests/{changeRequestId}",
    operation="InChangeRequest",
    tag="change-request comments",
    reply_update=CommentUpdate,
    reply_post_format=True,
    # As the hand-written route's docstring was wrapped: /openapi.json keeps its line breaks.
    delete_reply_doc=(
        "205 when the reply was deleted, 204 when there was none: the platform documents these\n"
        "    two for this operation (not shown in the reference), as for removing a requested\n"
        "    reviewer."
    ),
    delete_reply_205=True,
)


def comment_router(scope: CommentScope) -> APIRouter:
    """The routes of comments, replies and commenters in `scope`."""
    router = APIRouter(tags=[scope.tag])
    every = f"{scope.path}/comments"
    one = f"{every}/{{commentId}}"
    replies = f"{one}/replies"
    reply = f"{replies}/{{commentReplyId}}"
    op = scope.operation

    def ids_of(values: dict[str, str]) -> list[str]:
        return [values[i] for i in scope.ids]

    async def list_comments(
        ctx: CtxDep,
        page: PageDep,
        order: Annotated[CommentOrder, Query(description="By time posted")] = "desc",
        status: Annotated[CommentStatusFilter, Query(description="Only comments with it")] = "all",
        format: FormatQuery = None,
        targetPage: Annotated[str | None, Query(description="Only comments on this page")] = None,
        authors: AuthorsQuery = None,
        **where: str,
    ) -> Response:
        with ctx.db.read() as conn:
            found = load_scope(conn, ctx, *ids_of(where))
            return ops.list_comments(
                conn,
                ctx,
                found,
                page,
                order=order,
                status=status,
                fmt=format,
                target_page=targetPage,
                authors=authors,
            )

    def post_comment(ctx: CtxDep, body: Annotated[CommentPost, Body()], **where: str) -> Response:
        with ctx.db.write() as conn:
            return ops.post_comment(conn, ctx, load_scope(conn, ctx, *ids_of(where)), body)

    async def get_comment(
        ctx: CtxDep, commentId: str, format: FormatQuery = None, **where: str
    ) -> Response:
        with ctx.db.read() as conn:
            found = load_scope(conn, ctx, *ids_of(where))
            return ops.get_comment(conn, ctx, found, commentId, format)

    def update_comment(
        ctx: CtxDep, commentId: str, body: Annotated[CommentUpdate, Body()], **where: str
    ) -> Response:
        with ctx.db.write() as conn:
            found = load_scope(conn, ctx, *ids_of(where))
            return ops.update_comment(conn, ctx, found, commentId, body)

    def delete_comment(ctx: CtxDep, commentId: str, **where: str) -> Response:
        with ctx.db.write() as conn:
            found = load_scope(conn, ctx, *ids_of(where))
            return ops.delete_comment(conn, ctx, found, commentId)

    async def list_replies(
        ctx: CtxDep, commentId: str, page: PageDep, format: FormatQuery = None, **where: str
    ) -> Response:
        with ctx.db.read() as conn:
            found = load_scope(conn, ctx, *ids_of(where))
            return ops.list_replies(conn, ctx, found, commentId, page, format)

    def post_reply(
        ctx: CtxDep,
        commentId: str,
        body: Annotated[CommentReplyPost, Body()],
        format: FormatQuery = None,
        **where: str,
    ) -> Response:
        with ctx.db.write() as conn:
            found = load_scope(conn, ctx, *ids_of(where))
            return ops.post_reply(conn, ctx, found, commentId, body, format)

    async def get_reply(
        ctx: CtxDep, commentId: str, commentReplyId: str, format: FormatQuery = None, **where: str
    ) -> Response:
        with ctx.db.read() as conn:
            found = load_scope(conn, ctx, *ids_of(where))
            return ops.get_reply(conn, ctx, found, commentId, commentReplyId, format)

    def update_reply(
        ctx: CtxDep, commentId: str, commentReplyId: str, body: Any, **where: str
    ) -> Response:
        with ctx.db.write() as conn:
            found = load_scope(conn, ctx, *ids_of(where))
            return ops.update_reply(conn, ctx, found, commentId, commentReplyId, body)

    def delete_reply(ctx: CtxDep, commentId: str, commentReplyId: str, **where: str) -> Response:
        with ctx.db.write() as conn:
            found = load_scope(conn, ctx, *ids_of(where))
            deleted = ops.delete_reply(conn, ctx, found, commentId, commentReplyId)
        response = no_content()
        if scope.delete_reply_205:
            response.status_code = 205 if deleted else 204
        return response

    delete_reply.__doc__ = scope.delete_reply_doc

    async def list_commenters(ctx: CtxDep, page: PageDep, **where: str) -> Response:
        with ctx.db.read() as conn:
            return ops.list_commenters(conn, ctx, load_scope(conn, ctx, *ids_of(where)), page)

    def add(
        method: str,
        path: str,
        handler: Callable[..., Any],
        name: str,
        answer: Any,
        *statuses: int,
        signature: dict[str, Any] | None = None,
        **route: Any,
    ) -> None:
        """One operation: its id is `name` and the scope's suffix; `answer` its response model
        (None: none), `statuses` its errors unless `responses` are given."""
        scoped = with_scope_ids(handler, scope.ids, **(signature or {}))
        if answer is not None:
            route["response_model"] = answer
        route.setdefault("responses", errors(*statuses))
        router.add_api_route(path, scoped, methods=[method], operation_id=f"{name}{op}", **route)

    if scope.delete_reply_205:
        delete_reply_route: dict[str, Any] = {
            "status_code": 205,
            "responses": {**errors(403, 404), 204: {"description": "There was no such reply"}},
        }
    else:
        delete_reply_route = {"status_code": 204, "responses": errors(403, 404)}
    add("GET", every, list_comments, "listComments", ListPage[Comment], 404)
    add("POST", every, post_comment, "postComment", Comment, 403, 404)
    add("GET", one, get_comment, "getComment", Comment, 404)
    add("PUT", one, update_comment, "updateComment", Comment, 403, 404)
    add("DELETE", one, delete_comment, "deleteComment", None, 403, 404, status_code=204)
    add("GET", replies, list_replies, "listCommentReplies", ListPage[CommentReply], 404)
    add(
        "POST",
        replies,
        post_reply,
        "postCommentReply",
        CommentReply,
        403,
        404,
        signature={"without": () if scope.reply_post_format else ("format",)},
    )
    add("GET", reply, get_reply, "getCommentReply", CommentReply, 404)
    add(
        "PUT",
        reply,
        update_reply,
        "updateCommentReply",
        CommentReply,
        403,
        404,
        signature={"annotations": {"body": Annotated[scope.reply_update, Body()]}},
    )
    add("DELETE", reply, delete_reply, "deleteCommentReply", None, **delete_reply_route)
    add("GET", f"{scope.path}/commenters", list_commenters, "listCommenters", CommentersPage, 404)
    return router


router = APIRouter()
"""A space's comment routes, then a change request's (the order `/openapi.json` lists them)."""
router.routes.extend([*comment_router(SPACE).routes, *comment_router(CHANGE_REQUEST).routes])
