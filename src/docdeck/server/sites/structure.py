"""A site's structure: site spaces, sections and section groups, and their defaults.

A site has either root site spaces or sections (optionally in section groups). Invariants kept
after every write by `settle_defaults`: a site with sections has exactly one default section,
and every section (and the root, for a site without sections) with site spaces has exactly one
default site space; deleting a default promotes the first remaining item.
"""

from __future__ import annotations

import sqlite3

from docdeck.models import (
    SiteSectionCreate,
    SiteSectionGroupCreate,
    SiteSectionGroupUpdate,
    SiteSectionUpdate,
    SiteSpaceUpdate,
    slugify,
)
from docdeck.server.errors import bad_request, found
from docdeck.server.ids import new_id
from docdeck.server.sites import order as site_order
from docdeck.server.sites.adaptive import check_condition
from docdeck.server.sites.defaults import settle_defaults
from docdeck.server.sites.order import ROOT, Level, Node
from docdeck.server.sites.paths import check_free, free_path
from docdeck.server.sites.service import check_site_space_source
from docdeck.server.validation import check_not_null, check_title

_TABLE_NAMES = {
    "site-space": ("site_spaces", "site space"),
    "site-section": ("site_sections", "section"),
    "site-section-group": ("site_section_groups", "section group"),
}


def _find_item(
    conn: sqlite3.Connection, site_id: str, kind: str, item_id: str
) -> tuple[sqlite3.Row | None, str]:
    """The item's row (None when it is not in the site) and the name its errors use."""
    table, name = _TABLE_NAMES[kind]
    row: sqlite3.Row | None = conn.execute(
        f"SELECT * FROM {table} WHERE id = ? AND site_id = ?", (item_id, site_id)
    ).fetchone()
    return row, name


def load_item(conn: sqlite3.Connection, site_id: str, kind: str, item_id: str) -> sqlite3.Row:
    row, name = _find_item(conn, site_id, kind, item_id)
    return found(row, f"{name} {item_id!r} not found in this site")


def body_item(
    conn: sqlite3.Connection, site_id: str, kind: str, item_id: str, field: str
) -> sqlite3.Row:
    """An item named in a request body: 400 naming the field when it is not in the site."""
    row, name = _find_item(conn, site_id, kind, item_id)
    if row is None:
        raise bad_request(f"{field}: no {name} {item_id!r} in this site")
    return row


def has_sections(conn: sqlite3.Connection, site_id: str) -> bool:
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM site_sections WHERE site_id = ?)"
        " OR EXISTS (SELECT 1 FROM site_section_groups WHERE site_id = ?)",
        (site_id, site_id),
    ).fetchone()
    return bool(row[0])


def _space_title(conn: sqlite3.Connection, space_id: str) -> str:
    return str(conn.execute("SELECT title FROM spaces WHERE id = ?", (space_id,)).fetchone()[0])


def insert_site_space(
    conn: sqlite3.Connection, site: sqlite3.Row, space_id: str, section_id: str | None
) -> str:
    site_space_id = new_id()
    level = Level("section", section_id) if section_id else ROOT
    path = free_path(
        conn, "site-space", site["id"], section_id, slugify(_space_title(conn, space_id), "space")
    )
    conn.execute(
        """INSERT INTO site_spaces (id, site_id, section_id, space_id, path, position)
        VALUES (?, ?, ?, ?, ?, ?)""",
        (
            site_space_id,
            site["id"],
            section_id,
            space_id,
            path,
            site_order.end_position(conn, site["id"], level),
        ),
    )
    return site_space_id


def add_site_space(
    conn: sqlite3.Connection, site: sqlite3.Row, space_id: str, section_id: str | None
) -> str:
    """A site space in `section_id`, else in the default section, else at the root."""
    check_site_space_source(conn, site["organization_id"], space_id, "spaceId")
    if section_id is not None:
        body_item(conn, site["id"], "site-section", section_id, "sectionId")
    elif has_sections(conn, site["id"]):
        row = conn.execute(
            "SELECT id FROM site_sections WHERE site_id = ? AND is_default = 1", (site["id"],)
        ).fetchone()
        if row is None:
            raise bad_request("sectionId: this site has section groups but no section yet")
        section_id = row["id"]
    site_space_id = insert_site_space(conn, site, space_id, section_id)
    settle_defaults(conn, site["id"])
    return site_space_id


def _section_row(conn: sqlite3.Connection, site: sqlite3.Row, title: str, icon: str | None) -> str:
    section_id = new_id()
    conn.execute(
        """INSERT INTO site_sections (id, site_id, title, path, icon, position)
        VALUES (?, ?, ?, ?, ?, ?)""",
        (
            section_id,
            site["id"],
            title,
            free_path(conn, "site-section", site["id"], None, slugify(title, "section")),
            icon,
            site_order.end_position(conn, site["id"], ROOT),
        ),
    )
    return section_id


def add_section(conn: sqlite3.Connection, site: sqlite3.Row, body: SiteSectionCreate) -> str:
    """A new section at the end of the root, with the space as its first site space.

    A site that still has root site spaces gets them gathered into a first section (titled
    after the site) so that nothing it showed is lost: a site has sections or root site
    spaces, never both.
    """
    check_site_space_source(conn, site["organization_id"], body.spaceId, "spaceId")
    title = body.title if body.title is not None else _space_title(conn, body.spaceId)
    check_title(title)
    if len(title) < 2:
        title = f"{title} section"
    if not has_sections(conn, site["id"]):
        roots = [n for n in site_order.siblings(conn, site["id"], ROOT) if n.kind == "site-space"]
        if roots:
            first = _section_row(conn, site, site["title"], None)
            conn.execute(
                "UPDATE site_spaces SET section_id = ? WHERE site_id = ? AND section_id IS NULL",
                (first, site["id"]),
            )
    section_id = _section_row(conn, site, title, body.icon)
    insert_site_space(conn, site, body.spaceId, section_id)
    settle_defaults(conn, site["id"])
    return section_id


def _make_default(
    conn: sqlite3.Connection, table: str, item_id: str, peers_sql: str, peer: object
) -> None:
    conn.execute(f"UPDATE {table} SET is_default = (id = ?) WHERE {peers_sql}", (item_id, peer))


def set_default_section(
    conn: sqlite3.Connection, site_id: str, section_id: str, field: str
) -> None:
    body_item(conn, site_id, "site-section", section_id, field)
    _make_default(conn, "site_sections", section_id, "site_id = ?", site_id)


def set_default_site_space(
    conn: sqlite3.Connection,
    site_id: str,
    site_space_id: str,
    field: str,
    section_id: str | None = "",
) -> None:
    """Makes the site space the default of its section (or of the root); with `section_id`
    given, it must belong to that section. Its section becomes the site's default section
    when set through the site (`section_id` left at "")."""
    row = body_item(conn, site_id, "site-space", site_space_id, field)
    if section_id != "" and row["section_id"] != section_id:
        raise bad_request(f"{field}: site space {site_space_id!r} is not in this section")
    conn.execute(
        "UPDATE site_spaces SET is_default = (id = ?) WHERE site_id = ? AND section_id IS ?",
        (site_space_id, site_id, row["section_id"]),
    )
    if section_id == "" and row["section_id"] is not None:
        set_default_section(conn, site_id, row["section_id"], field)


def update_section(
    conn: sqlite3.Connection, site: sqlite3.Row, section: sqlite3.Row, body: SiteSectionUpdate
) -> None:
    given = body.model_fields_set
    changes: dict[str, object] = {}
    check_not_null(body, ("title", "path", "defaultSiteSpace"))
    if body.title is not None:
        changes["title"] = check_title(body.title)
    if body.path is not None:
        changes["path"] = check_free(
            conn, "site-section", site["id"], None, body.path, section["id"]
        )
    if "condition" in given:
        check_condition(site, body.condition)
        changes["condition"] = body.condition
    for field in ("icon", "description"):
        if field in given:
            changes[field] = getattr(body, field) or None
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        conn.execute(
            f"UPDATE site_sections SET {assignments} WHERE id = ?",
            [*changes.values(), section["id"]],
        )
    if body.defaultSiteSpace is not None:
        set_default_site_space(
            conn, site["id"], body.defaultSiteSpace, "defaultSiteSpace", section["id"]
        )


def update_site_space(
    conn: sqlite3.Connection, site: sqlite3.Row, row: sqlite3.Row, body: SiteSpaceUpdate
) -> None:
    given = body.model_fields_set
    changes: dict[str, object] = {}
    check_not_null(body, ("path", "spaceId"))
    if body.path is not None:
        changes["path"] = check_free(
            conn, "site-space", site["id"], row["section_id"], body.path, row["id"]
        )
    if "condition" in given:
        check_condition(site, body.condition)
        changes["condition"] = body.condition
    if body.spaceId is not None:
        check_site_space_source(conn, site["organization_id"], body.spaceId, "spaceId")
        changes["space_id"] = body.spaceId
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        conn.execute(
            f"UPDATE site_spaces SET {assignments} WHERE id = ?", [*changes.values(), row["id"]]
        )


def delete_item(conn: sqlite3.Connection, site_id: str, kind: str, item_id: str) -> bool:
    """Deletes a section (with its site spaces), a site space or a group (its sections stay,
    at the root where the group was). False when there was nothing to delete."""
    table, _ = _TABLE_NAMES[kind]
    if kind == "site-section-group":
        if (
            conn.execute(
                "SELECT 1 FROM site_section_groups WHERE id = ? AND site_id = ?", (item_id, site_id)
            ).fetchone()
            is None
        ):
            return False
        order: list[Node] = []
        for node in site_order.siblings(conn, site_id, ROOT):
            if node.kind == "site-section-group" and node.id == item_id:
                order += site_order.siblings(conn, site_id, Level("group", item_id))
            else:
                order.append(node)
        conn.execute("UPDATE site_sections SET group_id = NULL WHERE group_id = ?", (item_id,))
        for number, node in enumerate(order, start=1):
            conn.execute(
                f"UPDATE {_TABLE_NAMES[node.kind][0]} SET position = ? WHERE id = ?",
                (float(number), node.id),
            )
    deleted = conn.execute(
        f"DELETE FROM {table} WHERE id = ? AND site_id = ?", (item_id, site_id)
    ).rowcount
    settle_defaults(conn, site_id)
    return bool(deleted)


def add_group(conn: sqlite3.Connection, site: sqlite3.Row, body: SiteSectionGroupCreate) -> str:
    title = check_title(body.title)
    section_ids = list(dict.fromkeys(body.sections or []))
    for index, section_id in enumerate(section_ids):
        body_item(conn, site["id"], "site-section", section_id, f"sections[{index}]")
    group_id = new_id()
    conn.execute(
        "INSERT INTO site_section_groups (id, site_id, title, icon, position) VALUES (?,?,?,?,?)",
        (group_id, site["id"], title, body.icon, site_order.end_position(conn, site["id"], ROOT)),
    )
    for number, section_id in enumerate(section_ids, start=1):
        conn.execute(
            "UPDATE site_sections SET group_id = ?, position = ? WHERE id = ?",
            (group_id, float(number), section_id),
        )
    settle_defaults(conn, site["id"])
    return group_id


def update_group(
    conn: sqlite3.Connection, group: sqlite3.Row, body: SiteSectionGroupUpdate
) -> None:
    given = body.model_fields_set
    if "title" in given:
        conn.execute(
            "UPDATE site_section_groups SET title = ? WHERE id = ?",
            (check_title(body.title), group["id"]),
        )
    if "icon" in given:
        conn.execute(
            "UPDATE site_section_groups SET icon = ? WHERE id = ?", (body.icon or None, group["id"])
        )


def add_section_to_group(
    conn: sqlite3.Connection, site_id: str, group_id: str, section_id: str
) -> None:
    section = body_item(conn, site_id, "site-section", section_id, "sectionId")
    if section["group_id"] == group_id:
        return
    position = site_order.end_position(conn, site_id, Level("group", group_id))
    conn.execute(
        "UPDATE site_sections SET group_id = ?, position = ? WHERE id = ?",
        (group_id, position, section_id),
    )
    settle_defaults(conn, site_id)


def remove_section_from_group(
    conn: sqlite3.Connection, site_id: str, group_id: str, section_id: str
) -> bool:
    """The section goes to the root right after its former group; False if it was not in it."""
    row = conn.execute(
        "SELECT id FROM site_sections WHERE id = ? AND site_id = ? AND group_id = ?",
        (section_id, site_id, group_id),
    ).fetchone()
    if row is None:
        return False
    conn.execute("UPDATE site_sections SET group_id = NULL WHERE id = ?", (section_id,))
    site_order.move(
        conn,
        site_id,
        Node("site-section", section_id, 0.0),
        ROOT,
        None,
        ("site-section-group", group_id),
    )
    settle_defaults(conn, site_id)
    return True


def sort_item(
    conn: sqlite3.Connection,
    site_id: str,
    kind: str,
    item_id: str,
    before: tuple[str, str] | None,
    after: tuple[str, str] | None,
    field: str = "position",
) -> None:
    """Moves an item among its siblings (404 for an unknown item, 400 for a bad pointer)."""
    row = load_item(conn, site_id, kind, item_id)
    level = site_order.level_of(kind, row)
    site_order.move(
        conn, site_id, Node(kind, item_id, float(row["position"])), level, before, after, field
    )
    settle_defaults(conn, site_id)
