"""Sibling order inside a site's structure, one level at a time.

A level is the site's root (section groups and ungrouped sections, or the root site spaces of
a site without sections), the sections of one group, or the site spaces of one section. Every
item has a fractional `position`; ties are broken by id, so each level is a total order that a
reload reads back the same. Moving takes the midpoint of the new neighbours; when two
neighbours get too close the whole level is renumbered 1, 2, 3, ... in its current order, so
any number of moves keeps the order exact.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from docdeck.server.errors import bad_request

TABLES = {
    "site-space": "site_spaces",
    "site-section": "site_sections",
    "site-section-group": "site_section_groups",
}
_MIN_GAP = 1e-6


@dataclass(frozen=True)
class Level:
    """`kind` is "root", "group" (parent = group id) or "section" (parent = section id)."""

    kind: str
    parent: str | None = None


ROOT = Level("root")


@dataclass(frozen=True)
class Node:
    kind: str  # a key of TABLES
    id: str
    position: float


def level_of(kind: str, row: sqlite3.Row) -> Level:
    if kind == "site-space":
        return Level("section", row["section_id"]) if row["section_id"] else ROOT
    if kind == "site-section":
        return Level("group", row["group_id"]) if row["group_id"] else ROOT
    return ROOT


def levels(rows: dict[str, Iterable[sqlite3.Row]]) -> dict[Level, list[Node]]:
    """Every level of a site's structure from its rows already read (`rows` by kind, a key of
    `TABLES`): the order `siblings` reads, without a query per level. The root level is
    always there, even empty."""
    found: dict[Level, list[Node]] = {ROOT: []}
    for kind, kind_rows in rows.items():
        for row in kind_rows:
            node = Node(kind, row["id"], float(row["position"]))
            found.setdefault(level_of(kind, row), []).append(node)
    for nodes in found.values():
        nodes.sort(key=lambda node: (node.position, node.id))
    return found


def siblings(conn: sqlite3.Connection, site_id: str, level: Level) -> list[Node]:
    if level.kind == "section":
        sql = "SELECT 'site-space' AS kind, id, position FROM site_spaces WHERE section_id = ?"
        params: tuple[str | None, ...] = (level.parent,)
    elif level.kind == "group":
        sql = "SELECT 'site-section' AS kind, id, position FROM site_sections WHERE group_id = ?"
        params = (level.parent,)
    else:
        sql = """SELECT 'site-section-group' AS kind, id, position FROM site_section_groups
                WHERE site_id = ?
            UNION ALL SELECT 'site-section', id, position FROM site_sections
                WHERE site_id = ? AND group_id IS NULL
            UNION ALL SELECT 'site-space', id, position FROM site_spaces
                WHERE site_id = ? AND section_id IS NULL"""
        params = (site_id, site_id, site_id)
    rows = conn.execute(f"{sql} ORDER BY position, id", params).fetchall()
    return [Node(r["kind"], r["id"], float(r["position"])) for r in rows]


def end_position(conn: sqlite3.Connection, site_id: str, level: Level) -> float:
    nodes = siblings(conn, site_id, level)
    return nodes[-1].position + 1.0 if nodes else 1.0


def _write(conn: sqlite3.Connection, node: Node, position: float) -> None:
    conn.execute(f"UPDATE {TABLES[node.kind]} SET position = ? WHERE id = ?", (position, node.id))


def position_at(conn: sqlite3.Connection, others: list[Node], index: int) -> float:
    """A position that puts an item at `index` among `others` (the level without the item)."""
    if not others:
        return 1.0
    if index >= len(others):
        return others[-1].position + 1.0
    before = others[index - 1].position if index > 0 else others[0].position - 2.0
    after = others[index].position
    if after - before < _MIN_GAP:
        for number, node in enumerate(others, start=1):
            _write(conn, node, float(number))
        return index + 0.5 if index > 0 else 0.0
    return (before + after) / 2


def index_for(
    others: list[Node], before: tuple[str, str] | None, after: tuple[str, str] | None, field: str
) -> int:
    """The index among `others` that a before/after pointer asks for; the end without one.

    A pointer must name a sibling (sorting changes sibling order only), else 400.
    """
    if before is not None and after is not None:
        raise bad_request(f"{field}: give either before or after, not both")
    pointer, side = (before, "before") if before is not None else (after, "after")
    if pointer is None:
        return len(others)
    for index, node in enumerate(others):
        if (node.kind, node.id) == pointer:
            return index if side == "before" else index + 1
    kind, item_id = pointer
    raise bad_request(
        f"{field}.{side}: {kind} {item_id!r} is not a sibling of the item being moved"
        " (sorting changes the order among siblings only; the item itself is not a sibling)"
    )


def move(
    conn: sqlite3.Connection,
    site_id: str,
    item: Node,
    level: Level,
    before: tuple[str, str] | None,
    after: tuple[str, str] | None,
    field: str = "position",
) -> None:
    others = [n for n in siblings(conn, site_id, level) if (n.kind, n.id) != (item.kind, item.id)]
    _write(conn, item, position_at(conn, others, index_for(others, before, after, field)))
