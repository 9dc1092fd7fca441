"""The behaviour of every comment operation, whatever the scope: `routes.py` declares each
operation once for a space and a change request, loads the scope and calls one of these."""

from __future__ import annotations

import sqlite3
from typing import Literal

from fastapi import Response

from docdeck.models.comments import (
    CommentPost,
    CommentReplyPost,
    CommentReplyUpdate,
    CommentUpdate,
    TableCellInput,
)
from docdeck.server.comments import service
from docdeck.server.comments.body import markdown_of, stored_safe
from docdeck.server.comments.service import Scope
from docdeck.server.comments.wire import (
    Targets,
    comments_json,
    comments_text,
    page_nodes,
    replies_json,
)
from docdeck.server.errors import bad_request
from docdeck.server.http.context import Ctx
from docdeck.server.ids import new_id, to_db
from docdeck.server.members.service import MEMBER_COLUMNS, MEMBER_FROM, live_spaces_for
from docdeck.server.members.wire import members_json
from docdeck.server.pagination import Listing, PageRequest, fetch_page, one_of
from docdeck.server.wire import Json, JsonBody, list_text, no_content, respond, respond_list

_COMMENT_KEYS = ("c.posted_at", "c.rowid")
_REPLIES = Listing(
    "replies",
    service.REPLY_SELECT,
    f"{service.REPLY_FROM} WHERE r.comment_id = ?",
    ("r.posted_at", "r.rowid"),
)

Format = Literal["document", "markdown"] | None
# Comments, replies and commenters hold no float (a body's document is made from markdown
# text), so their answers are encoded with orjson (`respond(finite=True)`): the same bytes.


def _comment(
    conn: sqlite3.Connection, ctx: Ctx, scope: Scope, comment_id: str, fmt: Format
) -> Response:
    """The comment as the answer; in markdown, from the text its row keeps."""
    if fmt == "document":
        row = service.comment_to_show(conn, scope, comment_id)
        return respond(comments_json(conn, ctx, scope, [row], fmt)[0], finite=True)
    row = service.comment_wire_to_show(conn, scope, comment_id, ctx.caller.user_id)
    return JsonBody(comments_text(conn, ctx, scope, [row]))


def _reply(
    conn: sqlite3.Connection, ctx: Ctx, scope: Scope, comment_id: str, reply_id: str, fmt: Format
) -> Json:
    row = service.reply_to_show(conn, comment_id, reply_id)
    return replies_json(ctx, scope, comment_id, [row], fmt)[0]


def list_comments(
    conn: sqlite3.Connection,
    ctx: Ctx,
    scope: Scope,
    page: PageRequest,
    *,
    order: str,
    status: str,
    fmt: Format,
    target_page: str | None,
    authors: list[str] | None,
) -> Response:
    where = f" AND {scope.where}"
    params: list[str] = list(scope.params)
    if status != "all":
        where += " AND c.status = ?"
        params.append(status)
    if target_page is not None:
        where += " AND c.page_id = ?"
        params.append(target_page)
    if authors:
        where += one_of("c.posted_by", authors)
        params += authors
    text = fmt != "document"  # in markdown, from the text each row keeps
    result = fetch_page(
        conn,
        select=service.WIRE_SELECT if text else service.COMMENT_SELECT,
        select_params=[ctx.caller.user_id] if text else (),
        from_where=f"{service.COMMENT_FROM if not text else 'FROM comments c'} WHERE 1{where}",
        count_from_where=f"FROM comments c WHERE 1{where}",
        params=params,
        keys=_COMMENT_KEYS,
        descending=order == "desc",
        scope=f"comments-{order}",
        request=page,
        plain_rows=True,
    )
    if text:
        return JsonBody(list_text(comments_text(conn, ctx, scope, result.rows), result))
    return respond_list(comments_json(conn, ctx, scope, result.rows, fmt), result, finite=True)


def get_comment(
    conn: sqlite3.Connection, ctx: Ctx, scope: Scope, comment_id: str, fmt: Format
) -> Response:
    return _comment(conn, ctx, scope, comment_id, fmt)


def post_comment(conn: sqlite3.Connection, ctx: Ctx, scope: Scope, body: CommentPost) -> Response:
    service.require_comment(scope, "commenting")
    markdown = markdown_of(body.body)
    preview = None
    cell = None
    if body.node is not None and body.page is None:
        raise bad_request("node: a node is a block of a page; give its page too")
    if body.tableCell is not None and body.node is None:
        raise bad_request("tableCell: a cell is in a table block; give its page and node too")
    if body.page is not None:
        targets = Targets(conn, scope)
        if targets.page_info(body.page) is None:
            raise bad_request(f"page: no page {body.page!r} in revision {scope.revision_id!r}")
        if body.node is not None:
            previews, tables = page_nodes(conn, scope.revision_id, body.page)
            if body.node not in previews:
                raise bad_request(
                    f"node: no block with key {body.node!r} in page {body.page!r}"
                    " (a node is the `key` of a block of the page's document)"
                )
            preview = previews[body.node] or None
            if body.tableCell is not None:
                cell = _table_cell(tables.get(body.node), body.tableCell, body.node)
    comment_id = insert_comment(
        conn, ctx, scope, markdown, page=body.page, node=(body.node, preview), cell=cell
    )
    return _comment(conn, ctx, scope, comment_id, None)


def _table_cell(table: Json | None, cell: TableCellInput, node: str) -> tuple[str, str]:
    if table is None:
        raise bad_request(f"tableCell: block {node!r} is not a table")
    if cell.record not in table["records"]:
        raise bad_request(
            f"tableCell.record: no record {cell.record!r} in table {node!r}"
            f" (its records: {', '.join(table['records']) or 'none'})"
        )
    if cell.definition not in table["definition"]:
        raise bad_request(
            f"tableCell.definition: no column {cell.definition!r} in table {node!r}"
            f" (its columns: {', '.join(table['definition']) or 'none'})"
        )
    return cell.record, cell.definition


def insert_comment(
    conn: sqlite3.Connection,
    ctx: Ctx,
    scope: Scope,
    markdown: str,
    *,
    page: str | None = None,
    node: tuple[str | None, str | None] = (None, None),
    cell: tuple[str, str] | None = None,
    review: str | None = None,
) -> str:
    """Stores a checked comment and recounts the scope's open comments; its id. A review's
    comment (`review`) is posted here too, so it is a thread like any other."""
    comment_id = new_id()
    conn.execute(
        """INSERT INTO comments (id, space_id, change_request_id, page_id, node_id, node_preview,
            revision_id, posted_by, posted_at, body, review_id, table_record, table_definition,
            safe_body)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (
            comment_id,
            scope.space_id,
            scope.change_request_id,
            page,
            node[0],
            node[1],
            scope.revision_id,
            ctx.caller.user_id,
            to_db(ctx.now()),
            markdown,
            review,
            *(cell or (None, None)),
            stored_safe(markdown),
        ),
    )
    service.recount(conn, scope)
    return comment_id


_REWRITE = {
    "comment": "UPDATE comments SET body = ?, safe_body = ?, edited_at = ? WHERE id = ?",
    "reply": "UPDATE comment_replies SET body = ?, safe_body = ?, edited_at = ? WHERE id = ?",
}


def _rewrite(
    conn: sqlite3.Connection,
    ctx: Ctx,
    scope: Scope,
    kind: Literal["comment", "reply"],
    post_id: str,
    author: str,
    body: CommentReplyUpdate,
) -> None:
    """The new body of a comment or a reply, if `body` gives one: its author's to change."""
    if body.body is None:
        return
    service.require_author(scope, ctx.caller.user_id, author, kind)
    markdown = markdown_of(body.body)
    conn.execute(_REWRITE[kind], (markdown, stored_safe(markdown), to_db(ctx.now()), post_id))


def _react(
    conn: sqlite3.Connection, ctx: Ctx, scope: Scope, post_id: str, body: CommentReplyUpdate
) -> None:
    """The caller's reactions added to and removed from a comment or a reply."""
    if body.addedReactions or body.removedReactions:
        service.require_comment(scope, "reacting")
        service.react(
            conn,
            post_id,
            ctx.caller.user_id,
            body.addedReactions or [],
            body.removedReactions or [],
            ctx.now(),
        )


def update_comment(
    conn: sqlite3.Connection, ctx: Ctx, scope: Scope, comment_id: str, body: CommentUpdate
) -> Response:
    row = service.load_comment(conn, scope, comment_id)
    me = ctx.caller.user_id
    service.check_reactions(body.addedReactions, body.removedReactions)
    _rewrite(conn, ctx, scope, "comment", comment_id, row["posted_by"], body)
    if body.resolved is not None:
        service.require_comment(scope, "resolving or reopening a comment")
        if body.resolved and row["status"] != "resolved":
            conn.execute(
                "UPDATE comments SET status = 'resolved', resolved_at = ?, resolved_by = ?"
                " WHERE id = ?",
                (to_db(ctx.now()), me, comment_id),
            )
        elif not body.resolved:
            conn.execute(
                "UPDATE comments SET status = 'open', resolved_at = NULL, resolved_by = NULL"
                " WHERE id = ?",
                (comment_id,),
            )
        service.recount(conn, scope)
    _react(conn, ctx, scope, comment_id, body)
    return _comment(conn, ctx, scope, comment_id, None)


def delete_comment(conn: sqlite3.Connection, ctx: Ctx, scope: Scope, comment_id: str) -> Response:
    """204 whether or not it existed; its replies and reactions go with it."""
    row = service.find_comment(conn, scope, comment_id)
    if row is not None:
        service.require_delete(scope, ctx.caller.user_id, row["posted_by"], "comment")
        conn.execute("DELETE FROM comments WHERE id = ?", (comment_id,))
        service.recount(conn, scope)
    return no_content()


def list_replies(
    conn: sqlite3.Connection,
    ctx: Ctx,
    scope: Scope,
    comment_id: str,
    page: PageRequest,
    fmt: Format,
) -> Response:
    """Oldest first, as a thread reads."""
    service.load_comment(conn, scope, comment_id)
    result = _REPLIES.page(conn, [comment_id], page, plain_rows=True)
    return respond_list(replies_json(ctx, scope, comment_id, result.rows, fmt), result, finite=True)


def get_reply(
    conn: sqlite3.Connection, ctx: Ctx, scope: Scope, comment_id: str, reply_id: str, fmt: Format
) -> Response:
    service.load_comment(conn, scope, comment_id)
    return respond(_reply(conn, ctx, scope, comment_id, reply_id, fmt), finite=True)


def post_reply(
    conn: sqlite3.Connection,
    ctx: Ctx,
    scope: Scope,
    comment_id: str,
    body: CommentReplyPost,
    fmt: Format = None,
) -> Response:
    service.load_comment(conn, scope, comment_id)
    service.require_comment(scope, "replying")
    markdown = markdown_of(body.body)
    reply_id = new_id()
    conn.execute(
        "INSERT INTO comment_replies (id, comment_id, posted_by, posted_at, body, safe_body)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (
            reply_id,
            comment_id,
            ctx.caller.user_id,
            to_db(ctx.now()),
            markdown,
            stored_safe(markdown),
        ),
    )
    return respond(_reply(conn, ctx, scope, comment_id, reply_id, fmt), finite=True)


def update_reply(
    conn: sqlite3.Connection,
    ctx: Ctx,
    scope: Scope,
    comment_id: str,
    reply_id: str,
    body: CommentReplyUpdate,
) -> Response:
    if isinstance(body, CommentUpdate) and body.resolved is not None:
        raise bad_request("resolved: a reply is not resolved on its own; resolve its comment")
    service.load_comment(conn, scope, comment_id)
    row = service.load_reply(conn, comment_id, reply_id)
    service.check_reactions(body.addedReactions, body.removedReactions)
    _rewrite(conn, ctx, scope, "reply", reply_id, row["posted_by"], body)
    _react(conn, ctx, scope, reply_id, body)
    return respond(_reply(conn, ctx, scope, comment_id, reply_id, None), finite=True)


def delete_reply(
    conn: sqlite3.Connection, ctx: Ctx, scope: Scope, comment_id: str, reply_id: str
) -> bool:
    """True when a reply was deleted (the change request route answers 205 then)."""
    comment = service.find_comment(conn, scope, comment_id)
    if comment is None:
        return False
    row = conn.execute(
        "SELECT posted_by FROM comment_replies WHERE id = ? AND comment_id = ?",
        (reply_id, comment_id),
    ).fetchone()
    if row is None:
        return False
    service.require_delete(scope, ctx.caller.user_id, row["posted_by"], "reply")
    conn.execute("DELETE FROM comment_replies WHERE id = ?", (reply_id,))
    return True


def list_commenters(
    conn: sqlite3.Connection, ctx: Ctx, scope: Scope, page: PageRequest
) -> Response:
    """The organization's members who posted a comment or a reply here, by user id."""
    org_id = scope.space.row["organization_id"]
    posters = f"""SELECT c.posted_by FROM comments c WHERE {scope.where}
        UNION SELECT r.posted_by FROM comment_replies r JOIN comments c ON c.id = r.comment_id
            WHERE {scope.where}"""
    where = f"WHERE m.organization_id = ? AND m.user_id IN ({posters})"
    result = fetch_page(
        conn,
        select=MEMBER_COLUMNS,
        from_where=f"{MEMBER_FROM} {where}",
        count_from_where=f"FROM members m {where}",
        params=[org_id, *scope.params, *scope.params],
        keys=["m.user_id"],
        descending=False,
        scope="commenters",
        request=page,
    )
    items = members_json(ctx, result.rows, live_spaces_for(conn, org_id, result.rows))
    envelope: Json = {"items": items, "count": result.count, "total": result.count}
    if result.next_page is not None:
        envelope["next"] = {"page": result.next_page}
    return respond(envelope, finite=True)
