"""Comments on a space or on a change request: finding them for a caller, who may do what,
the counters, and reactions.

A comment belongs to a space and, when posted in a change request, to that change request
too (`change_request_id`); space comment routes see only the space's own comments. The
content a comment targets is the space's current revision, or the change request's.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from docdeck.server.access import SpaceAccess, load_space, require, require_live
from docdeck.server.errors import bad_request, found
from docdeck.server.http.context import Ctx
from docdeck.server.ids import to_db
from docdeck.server.permissions import at_least

MAX_REACTIONS_LISTED = 1000
"""Users listed under one emoji (the count is always exact)."""


@dataclass(frozen=True)
class Scope:
    """Where comments are read and written: a space, or one of its change requests."""

    space: SpaceAccess
    change_request: sqlite3.Row | None

    @property
    def space_id(self) -> str:
        return str(self.space.row["id"])

    @property
    def change_request_id(self) -> str | None:
        return None if self.change_request is None else str(self.change_request["id"])

    @property
    def revision_id(self) -> str:
        """The content comments are posted on and checked against for `outdated`."""
        row = self.change_request if self.change_request is not None else self.space.row
        return str(row["revision_id"])

    @property
    def base_path(self) -> str:
        if self.change_request is None:
            return f"/v1/spaces/{self.space_id}/comments"
        return f"/v1/spaces/{self.space_id}/change-requests/{self.change_request_id}/comments"

    @property
    def where(self) -> str:
        """SQL restricting `comments c` to this scope; parameters from `params`."""
        if self.change_request is None:
            return "c.space_id = ? AND c.change_request_id IS NULL"
        return "c.space_id = ? AND c.change_request_id = ?"

    @property
    def params(self) -> list[str]:
        cr = self.change_request_id
        return [self.space_id] if cr is None else [self.space_id, cr]


def load_scope(
    conn: sqlite3.Connection, ctx: Ctx, space_id: str, change_request: str | None = None
) -> Scope:
    if change_request is None:
        access = load_space(conn, ctx, space_id)
        require_live(access)
        return Scope(access, None)
    from docdeck.server.change_requests.service import load_change_request

    cr = load_change_request(conn, ctx, space_id, change_request)
    return Scope(cr.space, cr.row)


def load_comment(conn: sqlite3.Connection, scope: Scope, comment_id: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        f"SELECT c.*, c.rowid AS seq FROM comments c WHERE {scope.where} AND c.id = ?",
        [*scope.params, comment_id],
    ).fetchone()
    return found(row, f"comment {comment_id!r} not found")


def find_comment(conn: sqlite3.Connection, scope: Scope, comment_id: str) -> sqlite3.Row | None:
    row: sqlite3.Row | None = conn.execute(
        f"SELECT c.* FROM comments c WHERE {scope.where} AND c.id = ?",
        [*scope.params, comment_id],
    ).fetchone()
    return row


def load_reply(conn: sqlite3.Connection, comment_id: str, reply_id: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        "SELECT r.*, r.rowid AS seq FROM comment_replies r WHERE r.comment_id = ? AND r.id = ?",
        (comment_id, reply_id),
    ).fetchone()
    return found(row, f"reply {reply_id!r} not found in comment {comment_id!r}")


# --- what a comment or a reply shows, in the statement that finds it ------------------------


def _post_select(alias: str) -> str:
    """The columns comments and replies (`alias`) share, joined to their poster (`u`) and
    their reactions with their users (a JSON array, `[]` when none)."""
    return (
        f"{alias}.id, {alias}.posted_by, {alias}.posted_at, {alias}.edited_at, {alias}.body,"
        " u.id IS NOT NULL, u.email, u.display_name, u.photo_url,"
        " (SELECT json_group_array(json_array(x.emoji, x.user_id, x.reacted_at,"
        " xu.id IS NOT NULL, xu.email, xu.display_name, xu.photo_url))"
        " FROM comment_reactions x LEFT JOIN users xu ON xu.id = x.user_id"
        f" WHERE x.subject_id = {alias}.id), {alias}.safe_body"
    )


POST_ID, POST_BY, POST_AT, POST_EDITED, POST_BODY = range(5)
POST_USER = 5
"""The poster: whether the user exists, then their email, name and photo."""
POST_REACTIONS = 9
POST_SAFE_BODY = 10
"""The body as sent, when its writer stored it (`body.stored_safe`)."""

COMMENT_SELECT = (
    _post_select("c")
    + ", (SELECT COUNT(*) FROM comment_replies n WHERE n.comment_id = c.id), c.status,"
    " c.space_id, c.revision_id, c.change_request_id, c.review_id, c.page_id, c.node_id,"
    " c.node_preview, c.table_record, c.table_definition, c.resolved_at, c.resolved_by,"
    " ru.id IS NOT NULL, ru.email, ru.display_name, ru.photo_url"
)
"""A comment with everything it shows but its target's page (which is in the content): one
statement for a page of comments, where a query each for the users, the reactions and the
replies' counts cost more than the rows (positions: `POST_*`, then `C_*`)."""
(
    C_REPLIES,
    C_STATUS,
    C_SPACE,
    C_REVISION,
    C_CHANGE_REQUEST,
    C_REVIEW,
    C_PAGE,
    C_NODE,
    C_NODE_PREVIEW,
    C_TABLE_RECORD,
    C_TABLE_DEFINITION,
    C_RESOLVED_AT,
    C_RESOLVED_BY,
    C_RESOLVER,
) = range(11, 25)
COMMENT_FROM = (
    "FROM comments c LEFT JOIN users u ON u.id = c.posted_by"
    " LEFT JOIN users ru ON ru.id = c.resolved_by"
)
REPLY_SELECT = _post_select("r")
REPLY_FROM = "FROM comment_replies r LEFT JOIN users u ON u.id = r.posted_by"


WIRE_SELECT = (
    "CASE WHEN c.posted_by = ? THEN replace(c.wire, char(5), char(6)) ELSE c.wire END,"
    " c.page_id, c.node_id, c.id"
)
"""A comment as the JSON text its row keeps (`store.schema.comment_wire`, NULL when SQL could
not write it), the caller's own with `COMMENT_WIRE_MINE` for their permissions (its one
parameter: the caller's id), then what its target's page is made from, and its id
(positions `W_*`)."""
W_TEXT, W_PAGE, W_NODE, W_ID = range(4)


def _one_row(
    conn: sqlite3.Connection, sql: str, params: Sequence[Any], missing: str
) -> tuple[Any, ...]:
    """The one row `sql` reads, as a plain tuple; 404 saying `missing` when there is none."""
    cursor = conn.cursor()
    cursor.row_factory = None
    row: tuple[Any, ...] | None = cursor.execute(sql, params).fetchone()
    return found(row, missing)


def comment_wire_to_show(
    conn: sqlite3.Connection, scope: Scope, comment_id: str, me: str
) -> tuple[Any, ...]:
    """The comment as `WIRE_SELECT` reads it; 404 as `load_comment`."""
    return _one_row(
        conn,
        f"SELECT {WIRE_SELECT} FROM comments c WHERE {scope.where} AND c.id = ?",
        [me, *scope.params, comment_id],
        f"comment {comment_id!r} not found",
    )


def comment_to_show(conn: sqlite3.Connection, scope: Scope, comment_id: str) -> tuple[Any, ...]:
    """The comment as `COMMENT_SELECT` reads it; 404 as `load_comment`."""
    return _one_row(
        conn,
        f"SELECT {COMMENT_SELECT} {COMMENT_FROM} WHERE {scope.where} AND c.id = ?",
        [*scope.params, comment_id],
        f"comment {comment_id!r} not found",
    )


def reply_to_show(conn: sqlite3.Connection, comment_id: str, reply_id: str) -> tuple[Any, ...]:
    """The reply as `REPLY_SELECT` reads it; 404 as `load_reply`."""
    return _one_row(
        conn,
        f"SELECT {REPLY_SELECT} {REPLY_FROM} WHERE r.comment_id = ? AND r.id = ?",
        (comment_id, reply_id),
        f"reply {reply_id!r} not found in comment {comment_id!r}",
    )


# --- who may do what ------------------------------------------------------------------------


def permissions(role: str | None, me: str, author: str) -> dict[str, bool]:
    """Commenting, replying, reacting and resolving need the comment role; editing is the
    author's; deleting is the author's or an admin's. The routes check exactly these."""
    return post_permissions(role, author=me == author)


def post_permissions(role: str | None, *, author: bool) -> dict[str, bool]:
    """`permissions` of the post's `author` or of another caller."""
    may_comment = at_least(role, "comment")
    return {
        "view": role is not None,
        "edit": may_comment and author,
        "reply": may_comment,
        "delete": (may_comment and author) or role == "admin",
    }


def require_comment(scope: Scope, action: str) -> None:
    require(at_least(scope.space.role, "comment"), f"{action} needs the comment role on the space")


def require_author(scope: Scope, me: str, author: str, what: str) -> None:
    require(
        permissions(scope.space.role, me, author)["edit"],
        f"only the author of a {what} may change its body",
    )


def require_delete(scope: Scope, me: str, author: str, what: str) -> None:
    require(
        permissions(scope.space.role, me, author)["delete"],
        f"deleting a {what} is for its author or an admin of the space",
    )


# --- counters -------------------------------------------------------------------------------


def recount(conn: sqlite3.Connection, scope: Scope) -> None:
    """The open comments of the space (its own) or of the change request, from the rows."""
    if scope.change_request is None:
        conn.execute(
            """UPDATE spaces SET comments = (SELECT COUNT(*) FROM comments
                WHERE space_id = :s AND change_request_id IS NULL AND status = 'open')
            WHERE id = :s""",
            {"s": scope.space_id},
        )
    else:
        conn.execute(
            """UPDATE change_requests SET comments = (SELECT COUNT(*) FROM comments
                WHERE change_request_id = :c AND status = 'open')
            WHERE id = :c""",
            {"c": scope.change_request_id},
        )


# --- reactions ------------------------------------------------------------------------------


def react(
    conn: sqlite3.Connection,
    subject_id: str,
    user_id: str,
    added: list[str],
    removed: list[str],
    now: datetime,
) -> bool:
    """Adds and removes the caller's reactions; adding one already there keeps its time, and
    removing one that is not there changes nothing. True when something changed."""
    changed = 0
    stamp = to_db(now)
    for emoji in dict.fromkeys(added):
        changed += conn.execute(
            "INSERT OR IGNORE INTO comment_reactions (subject_id, emoji, user_id, reacted_at)"
            " VALUES (?, ?, ?, ?)",
            (subject_id, emoji, user_id, stamp),
        ).rowcount
    for emoji in dict.fromkeys(removed):
        changed += conn.execute(
            "DELETE FROM comment_reactions WHERE subject_id = ? AND emoji = ? AND user_id = ?",
            (subject_id, emoji, user_id),
        ).rowcount
    return changed > 0


def check_reactions(added: list[str] | None, removed: list[str] | None) -> None:
    both = set(added or ()) & set(removed or ())
    if both:
        raise bad_request(
            f"addedReactions: {', '.join(sorted(both))} also in removedReactions;"
            " add or remove an emoji, not both"
        )
