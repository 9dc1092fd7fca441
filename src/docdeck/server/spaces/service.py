"""Space life cycle: create, update, delete, restore, duplicate, move and transfer."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from docdeck.models import SpaceCreate, SpaceMove, SpaceUpdate
from docdeck.server.access import retention_cutoff
from docdeck.server.errors import bad_request
from docdeck.server.http.context import Ctx
from docdeck.server.ids import new_id, to_db
from docdeck.server.pagination import (
    PageRequest,
    PageResult,
    fetch_page,
    live_space_count,
    one_of,
)
from docdeck.server.permissions import Membership
from docdeck.server.sites.defaults import remove_space_from_sites
from docdeck.server.spaces.moves import (
    check_parent,
    check_transfer_target,
    drop_team_grants,
    plan_move,
    settle_visibility,
)
from docdeck.server.spaces.ordering import end_position, position_at_index, siblings
from docdeck.server.store.schema import space_wire
from docdeck.server.validation import check_http_url, check_title

TITLE_MAX = 50
COPY_SUFFIX = " (copy)"
DEFAULT_TITLE = "Untitled"


def insert_space(
    conn: sqlite3.Connection,
    *,
    org_id: str,
    now: datetime,
    title: str,
    parent: str | None,
    position: float,
    emoji: str | None = None,
    icon: str | None = None,
    visibility: str = "private",
    edit_mode: str = "live",
    default_level: str | None = "inherit",
) -> str:
    space_id, revision_id = new_id(), new_id()
    stamp = to_db(now)
    conn.execute(
        """INSERT INTO spaces (id, organization_id, parent_id, title, emoji, icon, visibility,
            edit_mode, default_level, position, revision_id, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (
            space_id,
            org_id,
            parent,
            title,
            emoji,
            icon,
            visibility,
            edit_mode,
            default_level,
            position,
            revision_id,
            stamp,
            stamp,
        ),
    )
    conn.execute(
        "INSERT INTO revisions (id, space_id, type, created_at) VALUES (?, ?, 'edits', ?)",
        (revision_id, space_id, stamp),
    )
    return space_id


def create_space(conn: sqlite3.Connection, org_id: str, body: SpaceCreate, now: datetime) -> str:
    title = DEFAULT_TITLE if "title" not in body.model_fields_set else check_title(body.title)
    check_parent(conn, org_id, body.parent)
    if body.template is not None:
        # Content services are imported when a space gets content, not with the server:
        # the organization tree's routes are registered before the sandbox is ready.
        from docdeck.server.content.templates import check_template

        check_template(body.template.id, "template.id")
    space_id = insert_space(
        conn,
        org_id=org_id,
        now=now,
        title=title,
        parent=body.parent,
        position=end_position(conn, org_id, body.parent),
        emoji=body.emoji,
        edit_mode=body.editMode or "live",
    )
    if body.template is not None:
        from docdeck.server.content.templates import apply_template

        apply_template(conn, space_id, body.template.id, now, "template.id")
    return space_id


def update_space(
    conn: sqlite3.Connection, row: sqlite3.Row, body: SpaceUpdate, now: datetime
) -> None:
    given = body.model_fields_set
    changes: dict[str, object] = {}
    if "title" in given:
        changes["title"] = check_title(body.title)
    if "editMode" in given:
        if body.editMode is None:
            raise bad_request("editMode: must be one of live, locked")
        changes["edit_mode"] = body.editMode
    if "defaultLevel" in given:
        changes["default_level"] = body.defaultLevel
    if body.emoji is not None and body.icon is not None:
        raise bad_request("emoji, icon: give only one of them")
    if "emoji" in given:
        changes["emoji"] = body.emoji
        if body.emoji is not None:
            changes["icon"] = None
    if "icon" in given:
        changes["icon"] = None if body.icon is None else check_http_url(body.icon, "icon")
        if body.icon is not None:
            changes["emoji"] = None
    if not changes:
        return
    changes["updated_at"] = to_db(now)
    assignments = ", ".join(f"{column} = ?" for column in changes)
    conn.execute(f"UPDATE spaces SET {assignments} WHERE id = ?", [*changes.values(), row["id"]])


def delete_space(conn: sqlite3.Connection, space_id: str, now: datetime) -> None:
    """Soft delete; the space leaves every site that used it (a restore does not bring it
    back there: the site may have been rearranged meanwhile)."""
    conn.execute(
        "UPDATE spaces SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL",
        (to_db(now), space_id),
    )
    remove_space_from_sites(conn, space_id)


def restore_space(conn: sqlite3.Connection, row: sqlite3.Row, now: datetime) -> None:
    """Back where it was; at the end of the top level if its collection is gone."""
    parent = row["parent_id"]
    position = row["position"]
    if parent is not None:
        exists = conn.execute("SELECT 1 FROM collections WHERE id = ?", (parent,)).fetchone()
        if exists is None:
            parent, position = None, end_position(conn, row["organization_id"], None)
    conn.execute(
        "UPDATE spaces SET deleted_at = NULL, parent_id = ?, position = ?, updated_at = ?"
        " WHERE id = ?",
        (parent, position, to_db(now), row["id"]),
    )
    settle_visibility(conn, [row["id"]])


def copy_title(title: str) -> str:
    """`title (copy)` within TITLE_MAX characters, shortened at a grapheme boundary, so an
    emoji sequence or a letter with its accent is kept whole or dropped whole."""
    import grapheme  # the server's only user of it; keeps it off the TUI's start-up

    room = TITLE_MAX - len(COPY_SUFFIX)
    if len(title) > room:
        title = title[: grapheme.safe_split_index(title, room)].rstrip()
    return title + COPY_SUFFIX


def duplicate_space(conn: sqlite3.Connection, row: sqlite3.Row, now: datetime) -> str:
    """A copy right after the original, with a new first revision of its own."""
    org_id, parent = row["organization_id"], row["parent_id"]
    others = siblings(conn, org_id, parent)
    index = next(i + 1 for i, s in enumerate(others) if s.kind == "space" and s.id == row["id"])
    copy_id = insert_space(
        conn,
        org_id=org_id,
        now=now,
        title=copy_title(row["title"]),
        parent=parent,
        position=position_at_index(conn, others, index, org_id, parent),
        emoji=row["emoji"],
        icon=row["icon"],
        visibility=row["visibility"],
        edit_mode=row["edit_mode"],
        default_level=row["default_level"],
    )
    from docdeck.server.content.edits import copy_content  # see create_space

    copy_content(conn, row["id"], copy_id, now)
    return copy_id


def move_space(conn: sqlite3.Connection, row: sqlite3.Row, body: SpaceMove, now: datetime) -> None:
    placement = plan_move(
        conn,
        kind="space",
        row=row,
        parent_given="parent" in body.model_fields_set,
        parent=body.parent,
        position=body.position,
    )
    conn.execute(
        "UPDATE spaces SET parent_id = ?, position = ?, updated_at = ? WHERE id = ?",
        (placement.parent, placement.position, to_db(now), row["id"]),
    )
    settle_visibility(conn, [row["id"]])


def transfer_space(
    conn: sqlite3.Connection, row: sqlite3.Row, target_org: str, user_id: str, now: datetime
) -> None:
    """To the end of the target's top level; the space leaves its collection."""
    check_transfer_target(conn, row["organization_id"], target_org, user_id, "space")
    conn.execute(
        "UPDATE spaces SET organization_id = ?, parent_id = NULL, position = ?, updated_at = ?"
        " WHERE id = ?",
        (target_org, end_position(conn, target_org, None), to_db(now), row["id"]),
    )
    settle_visibility(conn, [row["id"]])
    drop_team_grants(conn, [row["id"]])
    remove_space_from_sites(conn, row["id"])


# A listed space is its JSON text in four pieces, as UTF-8 (`store.schema.space_wire`, held
# by the `spaces_in_tree` index: migration 26), then its id (for the caller's role in it) and
# its sort key, read from there rather than selected a second time.
_SPACE_SELECT = ", ".join(
    [*(f"CAST({piece} AS BLOB)" for piece in space_wire("s.")), "s.id", "s.tree_key"]
)


def page_of_spaces(
    conn: sqlite3.Connection,
    ctx: Ctx,
    member: Membership,
    grants: dict[str, str],
    organization_id: str,
    deleted: bool,
    page: PageRequest,
) -> PageResult:
    """A page of the organization's spaces in tree order: the live ones, or those deleted
    within the retention period (`deleted`); a guest's granted ones only. Its rows are plain
    tuples of the space's JSON text in four pieces, its id and its tree key, for
    `wire.spaces_page`."""
    # Members page through the tree-order index; a guest's few granted spaces are found by
    # id, without walking the organization.
    index = "" if member.is_guest else " INDEXED BY spaces_in_tree"
    where = f"FROM spaces s{index} WHERE s.organization_id = ?"
    params: list[Any] = [organization_id]
    if deleted:
        where += " AND s.deleted_at > ?"
        params.append(retention_cutoff(ctx))
    else:
        where += " AND s.deleted_at IS NULL"
    counter = (
        None if deleted or member.is_guest else lambda: live_space_count(conn, organization_id)
    )
    if member.is_guest:
        where += one_of("s.id", grants)
        params += list(grants)
    return fetch_page(
        conn,
        select=_SPACE_SELECT,
        from_where=where,
        params=params,
        keys=["s.tree_key"],
        descending=False,
        scope=f"spaces:{int(deleted)}",
        request=page,
        counter=counter,
        key_columns=(5,),
        plain_rows=True,
    )
