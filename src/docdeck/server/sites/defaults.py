"""Defaults of a site's structure, kept true after every write.

A site with sections has exactly one default section, and every section (and the root, for a
site without sections) that has site spaces has exactly one default site space. When a default
goes away (deleted, or its space deleted or transferred), the first remaining item in order is
promoted.
"""

from __future__ import annotations

import sqlite3

from docdeck.server.sites import order as site_order
from docdeck.server.sites.order import ROOT, Level


def sections_in_order(conn: sqlite3.Connection, site_id: str) -> list[str]:
    """Section ids depth-first: root order, a group's sections where the group sits."""
    out: list[str] = []
    for node in site_order.siblings(conn, site_id, ROOT):
        if node.kind == "site-section":
            out.append(node.id)
        elif node.kind == "site-section-group":
            out += [n.id for n in site_order.siblings(conn, site_id, Level("group", node.id))]
    return out


def _settle(conn: sqlite3.Connection, table: str, ids: list[str]) -> None:
    if not ids:
        return
    marks = ",".join("?" for _ in ids)
    defaults = [
        r[0]
        for r in conn.execute(
            f"SELECT id FROM {table} WHERE is_default = 1 AND id IN ({marks})", ids
        )
    ]
    keep = next((i for i in ids if i in defaults), ids[0])
    conn.execute(f"UPDATE {table} SET is_default = (id = ?) WHERE id IN ({marks})", [keep, *ids])


def settle_defaults(conn: sqlite3.Connection, site_id: str) -> None:
    sections = sections_in_order(conn, site_id)
    _settle(conn, "site_sections", sections)
    for level in [ROOT, *(Level("section", s) for s in sections)]:
        nodes = site_order.siblings(conn, site_id, level)
        _settle(conn, "site_spaces", [n.id for n in nodes if n.kind == "site-space"])


def remove_space_from_sites(conn: sqlite3.Connection, space_id: str) -> None:
    """A deleted or transferred space leaves every site that used it."""
    sites = [
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT site_id FROM site_spaces WHERE space_id = ?", (space_id,)
        )
    ]
    conn.execute("DELETE FROM site_spaces WHERE space_id = ?", (space_id,))
    for site_id in sites:
        settle_defaults(conn, site_id)
