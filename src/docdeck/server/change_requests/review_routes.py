"""Reviews of a change request and the reviewers requested for it (platform 0.130.0
operations). Reviewing needs the review role; the author cannot approve their own change
request; requesting reviewers needs the edit role."""

from __future__ import annotations

import sqlite3
from typing import Annotated, Any

from fastapi import Body, Query, Response

from docdeck.models import ListPage
from docdeck.models.change_requests import (
    ChangeRequestRequestedReviewer,
    ChangeRequestReview,
    ChangeRequestReviewSubmit,
    RequestedReviewers,
    RequestReviewers,
)
from docdeck.server.access import require
from docdeck.server.change_requests import service
from docdeck.server.change_requests.service import ChangeRequestAccess
from docdeck.server.comments.body import checked_text
from docdeck.server.comments.operations import insert_comment
from docdeck.server.comments.service import Scope
from docdeck.server.content.document_markdown import to_markdown
from docdeck.server.errors import bad_request
from docdeck.server.http.context import Ctx
from docdeck.server.http.openapi import Router, errors
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.ids import new_id, to_db
from docdeck.server.pagination import Listing
from docdeck.server.permissions import at_least, membership, space_grants, space_role
from docdeck.server.wire import Json, no_content, respond, respond_list, respond_resource, wire_time

router = Router(tags=["change-request reviews"])

_CR = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"
_REVIEWS = Listing(
    "reviews",
    "r.*, r.rowid AS seq",
    "FROM change_request_reviews r WHERE r.change_request_id = ?",
    ("r.created_at", "r.rowid"),
)
_REQUESTED = Listing(
    "requested-reviewers",
    "q.*",
    "FROM change_request_requested_reviewers q WHERE q.change_request_id = ?",
    ("q.created_at", "q.user_id"),
)


def _review_json(
    ctx: Ctx,
    cr: ChangeRequestAccess,
    row: sqlite3.Row,
    users: dict[str, sqlite3.Row],
    outdated: bool,
) -> Json:
    base = f"/v1/spaces/{cr.space.row['id']}/change-requests/{cr.id}/reviews"
    data: Json = {
        "object": "change-request-review",
        "id": row["id"],
        "revision": row["revision_id"],
        "reviewer": service.user_of(ctx, users, row["reviewer"]),
        "status": row["status"],
        "outdated": outdated,
        "createdAt": wire_time(row["created_at"]),
        "updatedAt": wire_time(row["created_at"]),
        "urls": {"location": ctx.url(f"{base}/{row['id']}")},
    }
    if row["requested_by"]:
        data["requestedBy"] = service.user_of(ctx, users, row["requested_by"])
    return data


def _outdated(conn: sqlite3.Connection, cr: ChangeRequestAccess, row: sqlite3.Row) -> bool:
    """Superseded by a newer review or request of the same reviewer (the newer document's
    meaning), or made against a revision the change request has since moved past."""
    if row["revision_id"] != cr.row["revision_id"]:
        return True
    newer = conn.execute(
        """SELECT 1 FROM change_request_reviews WHERE change_request_id = ? AND reviewer = ?
            AND (created_at, rowid) > (?, ?)
        UNION ALL SELECT 1 FROM change_request_requested_reviewers
            WHERE change_request_id = ? AND user_id = ? AND created_at > ?""",
        (
            cr.id,
            row["reviewer"],
            row["created_at"],
            row["seq"],
            cr.id,
            row["reviewer"],
            row["created_at"],
        ),
    ).fetchone()
    return newer is not None


@router.get(f"{_CR}/reviews", "getReviewsByChangeRequestId", ListPage[ChangeRequestReview], 404)
async def list_reviews(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    page: PageDep,
    format: Annotated[str | None, Query(description="Format of review comments")] = None,
) -> Response:
    """Oldest first; reviews made at the same instant (the demo's, a frozen clock) keep the
    order they were submitted in (rowid), not the order of their random ids."""
    with ctx.db.read() as conn:
        cr = service.load_change_request(conn, ctx, spaceId, changeRequestId)
        result = _REVIEWS.page(conn, [cr.id], page)
        ids = [u for r in result.rows for u in (r["reviewer"], r["requested_by"])]
        users = service.users_by_id(conn, ids)
        items = [_review_json(ctx, cr, r, users, _outdated(conn, cr, r)) for r in result.rows]
    return respond_list(items, result)


@router.post(
    f"{_CR}/reviews", "submitChangeRequestReview", ChangeRequestReview, 403, 404, status=201
)
def submit_review(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    body: Annotated[ChangeRequestReviewSubmit, Body()],
) -> Response:
    with ctx.db.write() as conn:
        cr = service.load_change_request(conn, ctx, spaceId, changeRequestId)
        me = ctx.caller.user_id
        require(at_least(cr.space.role, "review"), "reviewing needs the review role on the space")
        if body.status == "approved":
            require(me != cr.row["created_by"], "the author of a change request cannot approve it")
        service.require_editable(cr, "reviewing")
        comment = None if body.comment is None else _review_comment(body.comment)
        requested = conn.execute(
            "SELECT requested_by FROM change_request_requested_reviewers"
            " WHERE change_request_id = ? AND user_id = ?",
            (cr.id, me),
        ).fetchone()
        review_id = new_id()
        conn.execute(
            """INSERT INTO change_request_reviews (id, change_request_id, reviewer, requested_by,
                status, comment, revision_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            (
                review_id,
                cr.id,
                me,
                requested[0] if requested else None,
                body.status,
                comment,
                cr.row["revision_id"],
                to_db(ctx.now()),
            ),
        )
        conn.execute(
            "DELETE FROM change_request_requested_reviewers"
            " WHERE change_request_id = ? AND user_id = ?",
            (cr.id, me),
        )
        if comment is not None:  # the review's comment is a thread of the change request
            insert_comment(conn, ctx, Scope(cr.space, cr.row), comment, review=review_id)
        row = conn.execute(
            "SELECT *, rowid AS seq FROM change_request_reviews WHERE id = ?", (review_id,)
        ).fetchone()
        users = service.users_by_id(conn, [row["reviewer"], row["requested_by"]])
        data = _review_json(ctx, cr, row, users, False)
    return respond_resource(data, 201)


def _review_comment(comment: dict[str, Any]) -> str:
    """A review's comment: `{markdown}`, or a platform document (`{nodes}`), as markdown."""
    if "markdown" in comment:
        markdown = comment["markdown"]
        if not isinstance(markdown, str) or not markdown.strip():
            raise bad_request("comment.markdown: must be non-empty text")
        return markdown
    if "nodes" in comment:
        markdown = to_markdown(comment, "comment")
        if not markdown.strip():
            raise bad_request("comment.nodes: the document has no text")
        return checked_text(markdown, "comment.nodes")
    raise bad_request("comment: must be a document ({nodes: [...]}) or {markdown: string}")


def _requested_json(ctx: Ctx, row: sqlite3.Row, users: dict[str, sqlite3.Row]) -> Json:
    return {
        "object": "change-request-requested-reviewer",
        "revision": row["revision_id"],
        "requestedBy": service.user_of(ctx, users, row["requested_by"]),
        "createdAt": wire_time(row["created_at"]),
        "kind": "user",
        "user": service.user_of(ctx, users, row["user_id"]),
    }


@router.get(
    f"{_CR}/requested-reviewers",
    "getRequestedReviewersByChangeRequestId",
    ListPage[ChangeRequestRequestedReviewer],
    404,
)
async def list_requested_reviewers(
    ctx: CtxDep, spaceId: str, changeRequestId: str, page: PageDep
) -> Response:
    with ctx.db.read() as conn:
        cr = service.load_change_request(conn, ctx, spaceId, changeRequestId)
        result = _REQUESTED.page(conn, [cr.id], page)
        ids = [u for r in result.rows for u in (r["user_id"], r["requested_by"])]
        users = service.users_by_id(conn, ids)
        items = [_requested_json(ctx, r, users) for r in result.rows]
    return respond_list(items, result)


@router.post(
    f"{_CR}/requested-reviewers", "requestReviewersForChangeRequest", RequestedReviewers, 403, 404
)
def request_reviewers(
    ctx: CtxDep, spaceId: str, changeRequestId: str, body: Annotated[RequestReviewers, Body()]
) -> Response:
    """Each user must be able to review the space (review role); the author cannot be asked."""
    with ctx.db.write() as conn:
        cr = service.load_change_request(conn, ctx, spaceId, changeRequestId)
        service.require_edit(cr.space, "requesting reviewers")
        service.require_editable(cr, "requesting reviewers")
        org = cr.space.row["organization_id"]
        refused = []
        for user_id in body.users:
            member = membership(conn, org, user_id)
            role = (
                None
                if member is None
                else space_role(member, space_grants(conn, org, user_id), spaceId)
            )
            if not at_least(role, "review") or user_id == cr.row["created_by"]:
                refused.append(user_id)
        if refused:
            raise bad_request(
                f"users: {', '.join(repr(u) for u in refused)} cannot review this change request"
                " (a reviewer needs the review role on the space and is not its author)"
            )
        stamp = to_db(ctx.now())
        for user_id in dict.fromkeys(body.users):
            conn.execute(
                """INSERT INTO change_request_requested_reviewers (change_request_id, user_id,
                    requested_by, revision_id, created_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (change_request_id, user_id) DO UPDATE SET
                    requested_by = excluded.requested_by, revision_id = excluded.revision_id,
                    created_at = excluded.created_at""",
                (cr.id, user_id, ctx.caller.user_id, cr.row["revision_id"], stamp),
            )
        if body.subject is not None:
            conn.execute(
                "UPDATE change_requests SET subject = ?, updated_at = ? WHERE id = ?",
                (body.subject.strip(), stamp, cr.id),
            )
        marks = ",".join("?" for _ in body.users) or "''"
        rows = conn.execute(
            f"SELECT * FROM change_request_requested_reviewers WHERE change_request_id = ?"
            f" AND user_id IN ({marks}) ORDER BY created_at, user_id",
            [cr.id, *body.users],
        ).fetchall()
        users = service.users_by_id(conn, [u for r in rows for u in (r[1], r[2])])
        items = [_requested_json(ctx, r, users) for r in rows]
    return respond({"users": items})


@router.delete(
    f"{_CR}/requested-reviewers/{{userId}}",
    "removeRequestedReviewerFromChangeRequest",
    status=205,
    responses={**errors(403, 404), 204: {"description": "The user was not requested"}},
)
def remove_requested_reviewer(
    ctx: CtxDep, spaceId: str, changeRequestId: str, userId: str
) -> Response:
    """205 when the request was removed, 204 when there was none (as the platform answers)."""
    with ctx.db.write() as conn:
        cr = service.load_change_request(conn, ctx, spaceId, changeRequestId)
        service.require_edit(cr.space, "removing a requested reviewer")
        deleted = conn.execute(
            "DELETE FROM change_request_requested_reviewers"
            " WHERE change_request_id = ? AND user_id = ?",
            (cr.id, userId),
        ).rowcount
    response = no_content()
    response.status_code = 205 if deleted else 204
    return response
