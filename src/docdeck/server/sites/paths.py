"""Paths of sections and site spaces: URL segments, unique among siblings.

A section's path is a segment right under the site's URL, so it is unique among all sections
of the site (section groups add no segment). A site space's path is a segment under its
section (or under the site for root site spaces), so it is unique within that section.
"""

from __future__ import annotations

import re
import sqlite3

from docdeck.server.errors import bad_request

PATH_MAX = 100
_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._~-]*")


def check_segment(path: str, field: str = "path") -> str:
    if not _SEGMENT.fullmatch(path):
        raise bad_request(
            f"{field}: {path!r} is not a URL segment; use letters, digits, '-', '_', '.' and '~',"
            " starting with a letter or digit"
        )
    return path


def _taken(
    conn: sqlite3.Connection, kind: str, scope: str | None, site_id: str, own: str
) -> set[str]:
    if kind == "site-section":
        rows = conn.execute(
            "SELECT path FROM site_sections WHERE site_id = ? AND id != ?", (site_id, own)
        )
    else:
        rows = conn.execute(
            "SELECT path FROM site_spaces WHERE site_id = ? AND section_id IS ? AND id != ?",
            (site_id, scope, own),
        )
    return {r[0] for r in rows}


def free_path(
    conn: sqlite3.Connection, kind: str, site_id: str, scope: str | None, wanted: str
) -> str:
    """`wanted`, or `wanted-2`, `wanted-3`, ... : the first one no sibling uses."""
    taken = _taken(conn, kind, scope, site_id, "")
    candidate, number = wanted, 2
    while candidate in taken:
        suffix = f"-{number}"
        candidate, number = wanted[: PATH_MAX - len(suffix)] + suffix, number + 1
    return candidate


def check_free(
    conn: sqlite3.Connection, kind: str, site_id: str, scope: str | None, path: str, own: str
) -> str:
    """A path given by the client: a valid segment no sibling uses (400 naming it otherwise)."""
    check_segment(path)
    if path in _taken(conn, kind, scope, site_id, own):
        where = "section of this site" if kind == "site-section" else "site space beside it"
        raise bad_request(f"path: {path!r} is already used by another {where}")
    return path
