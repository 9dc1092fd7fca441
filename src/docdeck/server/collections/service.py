"""Collection life cycle: create, update, delete (with its contents), move and transfer."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from docdeck.models import CollectionCreate, CollectionMove, CollectionUpdate
from docdeck.server.access import guest_collections
from docdeck.server.errors import bad_request
from docdeck.server.http.context import Ctx
from docdeck.server.ids import new_id, to_db
from docdeck.server.pagination import Listing, PageRequest, PageResult, one_of
from docdeck.server.permissions import Membership, space_grants
from docdeck.server.sites.defaults import remove_space_from_sites
from docdeck.server.spaces.moves import (
    check_parent,
    check_transfer_target,
    drop_team_grants,
    plan_move,
    settle_visibility,
)
from docdeck.server.spaces.ordering import end_position
from docdeck.server.validation import check_title

DEFAULT_TITLE = "Untitled collection"
_SPACES = Listing(
    "collection-spaces",
    "s.*",
    "FROM spaces s WHERE s.parent_id = ? AND s.deleted_at IS NULL",
    ("s.position", "s.id"),
)
_COLLECTIONS = Listing(
    "collections",
    "c.*",
    "FROM collections c INDEXED BY collections_in_tree WHERE c.organization_id = ?",
    ("c.tree_path",),
)


def subtree(conn: sqlite3.Connection, collection_id: str) -> list[str]:
    """The collection and every collection nested in it, at any depth."""
    rows = conn.execute(
        """WITH RECURSIVE tree(id) AS (
            SELECT ? UNION SELECT c.id FROM collections c JOIN tree ON c.parent_id = tree.id)
        SELECT id FROM tree""",
        (collection_id,),
    ).fetchall()
    return [r[0] for r in rows]


def _spaces_in(conn: sqlite3.Connection, collection_ids: list[str]) -> list[sqlite3.Row]:
    marks = ",".join("?" for _ in collection_ids)
    return conn.execute(
        f"SELECT id, deleted_at FROM spaces WHERE parent_id IN ({marks}) ORDER BY position, id",
        collection_ids,
    ).fetchall()


def create_collection(
    conn: sqlite3.Connection, org_id: str, body: CollectionCreate, now: datetime
) -> str:
    title = DEFAULT_TITLE if "title" not in body.model_fields_set else check_title(body.title)
    check_parent(conn, org_id, body.parent)
    collection_id = new_id()
    conn.execute(
        """INSERT INTO collections (id, organization_id, parent_id, title, position, created_at)
        VALUES (?, ?, ?, ?, ?, ?)""",
        (
            collection_id,
            org_id,
            body.parent,
            title,
            end_position(conn, org_id, body.parent),
            to_db(now),
        ),
    )
    return collection_id


def update_collection(conn: sqlite3.Connection, collection_id: str, body: CollectionUpdate) -> None:
    given = body.model_fields_set
    changes: dict[str, object] = {}
    if "title" in given:
        changes["title"] = check_title(body.title)
    if "description" in given:
        changes["description"] = body.description or None
    if "defaultLevel" in given:
        changes["default_level"] = body.defaultLevel
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        conn.execute(
            f"UPDATE collections SET {assignments} WHERE id = ?", [*changes.values(), collection_id]
        )


def delete_collection(conn: sqlite3.Connection, row: sqlite3.Row, now: datetime) -> list[str]:
    """Deletes nested collections too; their spaces are soft-deleted and go to the top level,
    so a restore brings them back there. Returns the ids of the spaces deleted now."""
    org_id = row["organization_id"]
    tree = subtree(conn, row["id"])
    deleted_now = []
    position = end_position(conn, org_id, None)
    spaces = _spaces_in(conn, tree)
    for space in spaces:
        conn.execute(
            "UPDATE spaces SET parent_id = NULL, position = ?, deleted_at = COALESCE(deleted_at, ?)"
            " WHERE id = ?",
            (position, to_db(now), space["id"]),
        )
        position += 1.0
        if space["deleted_at"] is None:
            deleted_now.append(space["id"])
        remove_space_from_sites(conn, space["id"])
    conn.execute("DELETE FROM collections WHERE id = ?", (row["id"],))
    settle_visibility(conn, [space["id"] for space in spaces])
    return deleted_now


def move_collection(conn: sqlite3.Connection, row: sqlite3.Row, body: CollectionMove) -> None:
    parent_given = "parent" in body.model_fields_set
    if parent_given and body.parent is not None and body.parent in subtree(conn, row["id"]):
        raise bad_request(
            "parent: a collection cannot be moved into itself or a collection inside it"
        )
    placement = plan_move(
        conn,
        kind="collection",
        row=row,
        parent_given=parent_given,
        parent=body.parent,
        position=body.position,
    )
    conn.execute(
        "UPDATE collections SET parent_id = ?, position = ? WHERE id = ?",
        (placement.parent, placement.position, row["id"]),
    )


def transfer_collection(
    conn: sqlite3.Connection, row: sqlite3.Row, target_org: str, user_id: str
) -> None:
    """The collection goes to the target's top level with its nested collections and spaces."""
    check_transfer_target(conn, row["organization_id"], target_org, user_id, "collection")
    tree = subtree(conn, row["id"])
    marks = ",".join("?" for _ in tree)
    conn.execute(
        f"UPDATE collections SET organization_id = ? WHERE id IN ({marks})", [target_org, *tree]
    )
    conn.execute(
        "UPDATE collections SET parent_id = NULL, position = ? WHERE id = ?",
        (end_position(conn, target_org, None), row["id"]),
    )
    spaces = [s["id"] for s in _spaces_in(conn, tree)]
    if spaces:
        space_marks = ",".join("?" for _ in spaces)
        conn.execute(
            f"UPDATE spaces SET organization_id = ? WHERE id IN ({space_marks})",
            [target_org, *spaces],
        )
        drop_team_grants(conn, spaces)
        for space_id in spaces:
            remove_space_from_sites(conn, space_id)


def page_of_spaces(
    conn: sqlite3.Connection,
    collection_id: str,
    member: Membership,
    grants: dict[str, str],
    page: PageRequest,
) -> PageResult:
    """A page of the collection's live spaces in their order (a guest's granted ones only)."""
    if member.is_guest:
        return _SPACES.page(conn, [collection_id, *grants], page, and_where=one_of("s.id", grants))
    return _SPACES.page(conn, [collection_id], page)


def page_of_collections(
    conn: sqlite3.Connection,
    ctx: Ctx,
    member: Membership,
    organization_id: str,
    nested: bool,
    page: PageRequest,
) -> PageResult:
    """A page of the organization's collections in tree order (a guest sees those that hold
    a space granted to them)."""
    where = ""
    params: list[Any] = [organization_id]
    if not nested:
        where += " AND c.parent_id IS NULL"
    if member.is_guest:
        grants = space_grants(conn, organization_id, ctx.caller.user_id)
        visible = sorted(guest_collections(conn, organization_id, grants))
        where += one_of("c.id", visible)
        params += visible
    return _COLLECTIONS.page(conn, params, page, and_where=where, variant=f":{int(nested)}")
