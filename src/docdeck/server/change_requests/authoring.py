"""Writing a change request's content: who may, and committing a draft as the change
request's next revision (outside main, so main and its search index never move)."""

from __future__ import annotations

import sqlite3

from docdeck.server.change_requests.service import (
    Actor,
    ChangeRequestAccess,
    add_contributor,
    require_edit,
    require_editable,
)
from docdeck.server.content.edits import Draft
from docdeck.server.ids import to_db


def may_author(cr: ChangeRequestAccess) -> None:
    require_edit(cr.space, "authoring a change request")
    require_editable(cr, "authoring")


def draft_of(conn: sqlite3.Connection, ctx: Actor, cr: ChangeRequestAccess) -> Draft:
    return Draft(conn, cr.space.row["id"], ctx.now(), base_revision=cr.row["revision_id"])


def commit(
    conn: sqlite3.Connection,
    ctx: Actor,
    cr: ChangeRequestAccess,
    draft: Draft,
    message: str,
    *,
    type: str = "edits",
    parents: list[str] | None = None,
) -> str:
    """The draft as the change request's new revision; the caller becomes a contributor."""
    revision = draft.commit(type=type, message=message, parents=parents, make_current=False)
    conn.execute(
        "UPDATE change_requests SET revision_id = ?, updated_at = ? WHERE id = ?",
        (revision, to_db(ctx.now()), cr.id),
    )
    add_contributor(conn, cr.id, ctx.caller.user_id)
    return revision
