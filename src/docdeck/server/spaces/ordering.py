"""Sibling order of spaces and collections under one parent (a collection or the top level).

Positions are fractional: inserting between two siblings takes the midpoint, so other items
keep their positions (and page cursors built on them stay valid). When two positions get too
close, the siblings are renumbered.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from docdeck.models import CollectionPointer, ContentPosition, SpacePointer
from docdeck.server.errors import bad_request

_MIN_GAP = 1e-6


@dataclass(frozen=True)
class Sibling:
    kind: str  # "space" or "collection"
    id: str
    position: float


def siblings(conn: sqlite3.Connection, org_id: str, parent_id: str | None) -> list[Sibling]:
    rows = conn.execute(
        """SELECT 'space' AS kind, id, position FROM spaces
            WHERE organization_id = ? AND parent_id IS ? AND deleted_at IS NULL
        UNION ALL SELECT 'collection', id, position FROM collections
            WHERE organization_id = ? AND parent_id IS ?
        ORDER BY position, id""",
        (org_id, parent_id, org_id, parent_id),
    ).fetchall()
    return [Sibling(r["kind"], r["id"], r["position"]) for r in rows]


def end_position(conn: sqlite3.Connection, org_id: str, parent_id: str | None) -> float:
    row = conn.execute(
        """SELECT MAX(p) FROM (
            SELECT MAX(position) AS p FROM spaces WHERE organization_id = ? AND parent_id IS ?
            UNION ALL SELECT MAX(position) FROM collections
                WHERE organization_id = ? AND parent_id IS ?)""",
        (org_id, parent_id, org_id, parent_id),
    ).fetchone()
    return 1.0 if row[0] is None else float(row[0]) + 1.0


def _renumber(conn: sqlite3.Connection, items: list[Sibling]) -> list[Sibling]:
    renumbered = []
    for index, item in enumerate(items, start=1):
        table = "spaces" if item.kind == "space" else "collections"
        conn.execute(f"UPDATE {table} SET position = ? WHERE id = ?", (float(index), item.id))
        renumbered.append(Sibling(item.kind, item.id, float(index)))
    return renumbered


def position_at_index(
    conn: sqlite3.Connection, others: list[Sibling], index: int, org_id: str, parent: str | None
) -> float:
    """A position placing an item at `index` among `others` (which exclude the item)."""
    if index >= len(others):
        return end_position(conn, org_id, parent)
    before = others[index - 1].position if index > 0 else others[0].position - 2.0
    after = others[index].position
    if after - before < _MIN_GAP:
        others = _renumber(conn, others)
        before = others[index - 1].position if index > 0 else 0.0
        after = others[index].position
    return (before + after) / 2


def _pointer_id(pointer: SpacePointer | CollectionPointer) -> tuple[str, str]:
    if isinstance(pointer, SpacePointer):
        return "space", pointer.space
    return "collection", pointer.collection


def target_index(others: list[Sibling], position: ContentPosition | None) -> int:
    """Index among `others` that `position` asks for; the end when no pointer is given."""
    if position is None:
        return len(others)
    if position.before is not None and position.after is not None:
        raise bad_request("position: give either before or after, not both")
    field = "before" if position.before is not None else "after"
    pointer = position.before or position.after
    if pointer is None:
        return len(others)
    kind, pointer_id = _pointer_id(pointer)
    for index, item in enumerate(others):
        if item.kind == kind and item.id == pointer_id:
            return index if field == "before" else index + 1
    raise bad_request(
        f"position.{field}.{kind}: {pointer_id!r} is not a {kind} next to the destination "
        "(it must be a sibling in the destination collection or top level)"
    )
