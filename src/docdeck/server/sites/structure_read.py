"""`GET {ST}/structure`: a site's whole structure read in one statement and written from its
plain rows.

`SiteTree` (wire.py) serves every answer about one item of a site; loaded for the whole
structure it cost ten statements (BEGIN, the membership, the site twice, its sections, groups,
site spaces and spaces, the caller's grants, COMMIT) and a `sqlite3.Row` lookup by name for
each value it wrote. Here the statement's arms are told apart by their first column, the
levels are sorted as `order.levels` sorts them, and the items are written by the same
functions `SiteTree` uses (`site_space_json`, `section_json`, `group_json`). One statement is
its own snapshot, so no transaction is opened around it. The errors are `load_site`'s and
`share_key_site`'s, in their order.

A site space's space is not read as its 17 columns to write as JSON again (`space_values`):
the index `spaces_wire` holds it as JSON text in four pieces (`store.schema.space_wire`,
migration 25, remade by SQLite on every write to the space), and the caller's role in it is
ranked in SQL (their organization role raised by their grants, as `permissions.highest`
ranks them), so the grants are no rows of their own. The pieces, the public URL and that
role's permissions are put together here and sent inside the answer as they are
(`orjson.Fragment`). Tried and measured slower on this SQLite (3.40): the whole structure
written by SQL (`json_object`, or `||` and `json_quote`: 2-3x the statement's time), and
placeholders filled in the answer afterwards (a `replace` over a 9 KB answer: ~20 us).
"""

from __future__ import annotations

from functools import cache, lru_cache
from operator import itemgetter
from typing import Any
from urllib.parse import quote

import orjson

from docdeck.models import ROLE_ORDER
from docdeck.server.errors import bad_request, not_found
from docdeck.server.http.context import Ctx
from docdeck.server.permissions import Membership, space_permissions
from docdeck.server.sites.service import has_feature, require_site_reader
from docdeck.server.sites.wire import (
    group_json,
    root_url,
    section_json,
    site_space_json,
    url_segment,
)
from docdeck.server.store.schema import space_wire
from docdeck.server.store.server_key import same_digest, secret_digest
from docdeck.server.wire import Json

_WIDTH = 13
"""Every arm's columns: a site space's thirteen."""

_RANK = "CASE {0} " + " ".join(f"WHEN '{r}' THEN {n}" for n, r in enumerate(ROLE_ORDER)) + " END"
_MY_RANK = f"coalesce({_RANK.format('my.role')}, -1)"


def _grant(source: str) -> str:
    return f"coalesce((SELECT max({_RANK.format('g.role')}) FROM {source}), -1)"


@cache
def _permissions() -> tuple[str, ...]:
    """The space permissions of each rank of role, as JSON text: -1 (the last) no role, then
    `ROLE_ORDER`'s."""
    return tuple(
        orjson.dumps(space_permissions(role).model_dump(mode="json")).decode()
        for role in (*ROLE_ORDER, None)
    )


_SPACE = ", ".join(space_wire("sp."))
"""A site space's space as JSON text in four pieces (`store.schema.space_wire`), read from the
index `spaces_wire` that holds them: SQLite 3.40 reads an indexed expression from the index
only where a column of the result is that very expression, so the pieces are put together
in Python (with the public URL and the caller's permissions)."""

_ANY_GRANT = (
    "(EXISTS (SELECT 1 FROM space_grants WHERE user_id = ?1) OR EXISTS (SELECT 1"
    " FROM team_members tm CROSS JOIN space_grants g ON g.team_id = tm.team_id"
    " WHERE tm.user_id = ?1))"
)
"""Whether the caller holds any grant, to them or to one of their teams: worked out once per
statement (it refers to no row), where the grants of each site space's space were looked up
for each of them."""

_SPACE_RANK = (
    f"CASE WHEN my.role = '{ROLE_ORDER[-1]}' THEN {len(ROLE_ORDER) - 1}"
    f" WHEN sp.organization_id = ?3 AND {_ANY_GRANT} THEN max({_MY_RANK},"
    f" {_grant('space_grants g WHERE g.space_id = sp.id AND g.user_id = ?1')},"
    + _grant(
        "team_members tm CROSS JOIN space_grants g ON g.team_id = tm.team_id"
        " WHERE tm.user_id = ?1 AND g.space_id = sp.id"
    )
    + f") ELSE {_MY_RANK} END"
)
"""The rank of the caller's role in a site space's space (`sp`; `my` their membership): their
organization role raised by a grant to them or to one of their teams, as
`permissions.highest` ranks them; -1 for none. An organization admin's grants are not read
(no grant raises the top role: `permissions.grants_that_raise`), nor those of a caller who
holds none (`_ANY_GRANT`, most callers): CASE stops at the first match, so their two
subqueries a site space are never run."""


def _padded(columns: str, count: int) -> str:
    return columns + ", NULL" * (_WIDTH - count)


# ?1 the caller, ?2 the site, ?3 the organization, ?4 the share key's digest (or NULL).
# Arms: 0 the organization, the caller's membership and the site; 1 the site's section
# groups; 2 its sections; 3 its site spaces with their spaces; 4 the caller's grants in the
# organization's spaces (as `space_grants` reads them); 5 the share link of the key.
STATEMENT = " UNION ALL ".join(
    (
        "SELECT "
        + _padded(
            "0, my.role, my.user_id IS NOT NULL, s.id, s.type, s.published, s.basename, t.hostname",
            8,
        )
        + " FROM organizations t LEFT JOIN members my ON my.organization_id = t.id"
        " AND my.user_id = ?1 AND my.disabled = 0"
        " LEFT JOIN sites s ON s.id = ?2 AND s.organization_id = t.id WHERE t.id = ?3",
        "SELECT "
        + _padded("1, id, position, title, icon", 5)
        + " FROM site_section_groups WHERE site_id = ?2",
        "SELECT "
        + _padded(
            "2, id, position, title, is_default, path, description, condition, icon, group_id",
            10,
        )
        + " FROM site_sections WHERE site_id = ?2",
        "SELECT "
        + _padded(
            "3, ss.id, ss.position, ss.path, ss.is_default, ss.section_id, ss.condition,"
            f" sp.title, {_SPACE}, {_SPACE_RANK}",
            13,
        )
        + " FROM site_spaces ss JOIN spaces sp INDEXED BY spaces_wire ON sp.id = ss.space_id"
        " LEFT JOIN members my ON my.organization_id = ?3 AND my.user_id = ?1"
        " AND my.disabled = 0 WHERE ss.site_id = ?2",
        "SELECT "
        + _padded("5, key_digest, active", 3)
        + " FROM site_share_links WHERE key_digest = ?4 AND site_id = ?2",
    )
)


_order = itemgetter(2, 1)
"""An item's place among its siblings (`order.levels`): its position, then its id (every
item's arm has them in its second and third columns; a position is REAL NOT NULL)."""


@cache
def _advanced(site_type: str) -> bool:
    return has_feature(site_type, "sites-advanced-customization")


def structure_text(ctx: Ctx, org_id: str, site_id: str, share_key: str | None) -> bytes:
    """The site's structure for the caller, as the JSON `SiteTree.structure` of `tree_for`'s
    tree encodes to."""
    return orjson.dumps(_structure(ctx, org_id, site_id, share_key))  # no float in it


def _structure(ctx: Ctx, org_id: str, site_id: str, share_key: str | None) -> Json:
    digest = None if share_key is None else secret_digest(share_key)
    cursor = ctx.db.connection().cursor()
    cursor.row_factory = None
    rows = cursor.execute(STATEMENT, (ctx.caller.user_id, site_id, org_id, digest)).fetchall()
    site: tuple[Any, ...] | None = None
    groups: list[tuple[Any, ...]] = []
    sections: list[tuple[Any, ...]] = []
    site_spaces: list[tuple[Any, ...]] = []
    link: tuple[Any, ...] | None = None
    for row in rows:
        kind = row[0]
        if kind == 3:
            site_spaces.append(row)
        elif kind == 2:
            sections.append(row)
        elif kind == 1:
            groups.append(row)
        elif kind == 0:
            site = row
        elif link is None:
            link = row
    if site is None or not site[2]:
        raise not_found(f"organization {org_id!r} not found")
    if site[3] is None:
        raise not_found(f"site {site_id!r} not found in organization {org_id!r}")
    role = site[1]
    require_site_reader(Membership(org_id, ctx.caller.user_id, role))
    if share_key is not None:
        if digest is None or link is None or not same_digest(link[1], digest):
            raise bad_request("shareKey: no share link of this site has this key")
        if not link[2]:
            raise bad_request("shareKey: this share link is inactive; activate it or use another")
    base = ctx.base_url
    escaped = _escaped(base)
    permissions = _permissions()
    root = None  # the site's URL when it is published: items have URLs under it
    if site[5]:
        root = root_url(base, site[7], org_id, site[6])
    key = "" if share_key is None else f"?shareKey={quote(share_key, safe='')}"
    advanced = _advanced(site[4])

    def site_space(row: tuple[Any, ...], under: str | None, section_id: str | None) -> Json:
        """`under`: the URL its own path goes under (None when the site is unpublished)."""
        path = row[3]
        space: Any = orjson.Fragment(
            f"{row[8]}{escaped}{row[9]}{escaped}{row[10]}{permissions[row[12]]}{row[11]}"
        )
        return site_space_json(
            space,
            row[7],
            row[1],
            path,
            row[4],
            advanced,
            None if under is None else f"{under}{url_segment(path)}/{key}",
            section_id,
            row[6],
        )

    if not sections and not groups:
        site_spaces.sort(key=_order)
        return {
            "type": "siteSpaces",
            "structure": [site_space(r, root, None) for r in site_spaces if not r[5]],
        }
    in_section: dict[str, list[tuple[Any, ...]]] = {}
    for row in site_spaces:
        if row[5]:
            in_section.setdefault(row[5], []).append(row)
    in_group: dict[str, list[tuple[Any, ...]]] = {}
    root_items = groups
    for row in sections:
        if row[9]:
            in_group.setdefault(row[9], []).append(row)
        else:
            root_items.append(row)

    def section(row: tuple[Any, ...]) -> Json:
        section_id, path = row[1], row[5]
        under = None if root is None else f"{root}{url_segment(path)}/"
        children = in_section.get(section_id)
        if children is None:
            written = []
        else:
            children.sort(key=_order)
            written = [site_space(r, under, section_id) for r in children]
        return section_json(
            section_id,
            row[3],
            row[4],
            path,
            written,
            None if under is None else under + key,
            row[6],
            row[7],
            row[8],
            row[9],
        )

    root_items.sort(key=_order)
    items = []
    for row in root_items:
        if row[0] == 2:
            items.append(section(row))
        else:
            children = in_group.get(row[1], [])
            children.sort(key=_order)
            items.append(group_json(row[1], row[3], [section(r) for r in children], row[4]))
    return {"type": "sections", "structure": items}


@lru_cache(maxsize=8)
def _escaped(base: str) -> str:
    """The public URL as it goes inside a JSON string (the server's setting: a few values a
    process)."""
    return orjson.dumps(base).decode()[1:-1]
