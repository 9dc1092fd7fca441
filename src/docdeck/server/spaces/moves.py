"""Moves within an organization and transfers between organizations, shared by spaces and
collections."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from docdeck.models import ContentPosition
from docdeck.server.errors import bad_request, conflict, forbidden
from docdeck.server.permissions import membership
from docdeck.server.spaces.ordering import position_at_index, siblings, target_index


@dataclass(frozen=True)
class Placement:
    parent: str | None
    position: float


def check_parent(conn: sqlite3.Connection, org_id: str, parent: str | None) -> None:
    if parent is None:
        return
    row = conn.execute("SELECT organization_id FROM collections WHERE id = ?", (parent,)).fetchone()
    if row is None or row["organization_id"] != org_id:
        raise bad_request(f"parent: no collection {parent!r} in this organization")


def plan_move(
    conn: sqlite3.Connection,
    *,
    kind: str,
    row: sqlite3.Row,
    parent_given: bool,
    parent: str | None,
    position: ContentPosition | None,
) -> Placement:
    """Where a move puts the item; 409 when it would stay exactly where it is."""
    org_id = row["organization_id"]
    if not parent_given and position is None:
        raise bad_request("body: give `parent`, `position` or both")
    destination = parent if parent_given else row["parent_id"]
    check_parent(conn, org_id, destination)
    current = siblings(conn, org_id, destination)
    others = [s for s in current if not (s.kind == kind and s.id == row["id"])]
    index = target_index(others, position)
    if destination == row["parent_id"]:
        here = next(
            (i for i, s in enumerate(current) if s.kind == kind and s.id == row["id"]), None
        )
        if here == index:
            raise conflict(f"the {kind} is already at that place; the move would change nothing")
    return Placement(destination, position_at_index(conn, others, index, org_id, destination))


def check_transfer_target(
    conn: sqlite3.Connection, source_org: str, target_org: str, user_id: str, kind: str
) -> None:
    """The target must be another organization where the caller is an admin."""
    target = membership(conn, target_org, user_id)
    exists = conn.execute("SELECT 1 FROM organizations WHERE id = ?", (target_org,)).fetchone()
    if exists is None or target is None:
        raise bad_request(f"organization: no organization {target_org!r} you are a member of")
    if target_org == source_org:
        raise conflict(f"the {kind} already belongs to organization {target_org!r}")
    if not target.is_admin:
        raise forbidden(
            f"transferring a {kind} needs the admin role in the target organization {target_org!r}"
        )


def settle_visibility(conn: sqlite3.Connection, space_ids: list[str]) -> None:
    """`in-collection` is only for spaces in a collection: a space that ends up at the top
    level with it becomes `private`, which never opens it to more people than before."""
    for space_id in space_ids:
        conn.execute(
            "UPDATE spaces SET visibility = 'private'"
            " WHERE id = ? AND parent_id IS NULL AND visibility = 'in-collection'",
            (space_id,),
        )


def drop_team_grants(conn: sqlite3.Connection, space_ids: list[str]) -> None:
    """Teams belong to one organization, so their grants do not follow a transferred space."""
    for space_id in space_ids:
        conn.execute(
            "DELETE FROM space_grants WHERE space_id = ? AND team_id IS NOT NULL", (space_id,)
        )
