"""Keyset pagination: the `page` cursor encodes the last item's sort key and id, not an offset.

So a cursor stays correct while items are added or removed before it: the next page starts
right after the last item the client saw, wherever that item now sits. A cursor names the list
it came from (its path, its sort), so one sent to another list is refused rather than silently
starting that list somewhere in the middle.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from docdeck.server.errors import bad_request

DEFAULT_LIMIT = 50
MAX_LIMIT = 1000


@dataclass(frozen=True)
class PageRequest:
    page: str | None
    limit: int
    list_id: str = ""
    """The list being paged (the request path); cursors are valid only for the same list."""


def cursor_scope(list_id: str, scope: str) -> str:
    """What a cursor must carry to be accepted: the list's sort `scope` and its identity."""
    if not list_id:
        return scope
    return f"{scope}@{hashlib.sha256(list_id.encode()).hexdigest()[:12]}"


@dataclass(frozen=True)
class PageResult:
    rows: list[sqlite3.Row]
    count: int
    next_page: str | None


def encode_cursor(scope: str, key: Sequence[Any]) -> str:
    raw = json.dumps({"s": scope, "k": list(key)}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(scope: str, cursor: str, width: int) -> list[Any]:
    invalid = bad_request("page: not a valid page cursor for this list; use `next.page` as given")
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        data = json.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
    except (ValueError, binascii.Error, UnicodeError):
        raise invalid from None
    if not isinstance(data, dict) or data.get("s") != scope:
        raise invalid
    key = data.get("k")
    if not isinstance(key, list) or len(key) != width:
        raise invalid
    if not all(isinstance(v, str | int | float) and not isinstance(v, bool) for v in key):
        raise invalid
    return key


def fetch_page(
    conn: sqlite3.Connection,
    *,
    select: str,
    from_where: str,
    params: Sequence[Any],
    keys: Sequence[str],
    select_params: Sequence[Any] = (),
    with_sql: str = "",
    with_params: Sequence[Any] = (),
    descending: bool,
    scope: str,
    request: PageRequest,
) -> PageResult:
    """Rows of one page; `keys` are SQL sort expressions, the last one unique (the id).

    `from_where` is the FROM/JOIN/WHERE part shared by the count and the page query; it must end
    with a WHERE clause (use `WHERE 1` when there is no filter). `with_sql` is a leading
    `WITH` clause (see `TREE_ORDER`) used by both queries.
    """
    scope = cursor_scope(request.list_id, scope)
    after = None if request.page is None else decode_cursor(scope, request.page, len(keys))
    count = conn.execute(
        f"{with_sql} SELECT COUNT(*) {from_where}", [*with_params, *params]
    ).fetchone()[0]
    if request.limit == 0:
        return PageResult([], count, None)
    key_list = ", ".join(keys)
    direction = "DESC" if descending else "ASC"
    order = ", ".join(f"{k} {direction}" for k in keys)
    keyed = ", ".join(f"{k} AS k{i}" for i, k in enumerate(keys))
    sql = f"{with_sql} SELECT {select}, {keyed} {from_where}"
    page_params = [*with_params, *select_params, *params]
    if after is not None:
        marks = ", ".join("?" for _ in keys)
        sql += f" AND ({key_list}) {'<' if descending else '>'} ({marks})"
        page_params += after
    sql += f" ORDER BY {order} LIMIT ?"
    page_params.append(request.limit + 1)
    rows = conn.execute(sql, page_params).fetchall()
    next_page = None
    if len(rows) > request.limit:
        rows = rows[: request.limit]
        last = rows[-1]
        next_page = encode_cursor(scope, [last[f"k{i}"] for i in range(len(keys))])
    return PageResult(rows, count, next_page)


def _segment(alias: str) -> str:
    # Fixed width and offset so text order is numeric order, even for negative positions.
    return f"printf('%024.9f', {alias}.position + 1e12) || ':' || {alias}.id || '/'"


TREE_ORDER = f"""WITH RECURSIVE tree(id, path) AS (
    SELECT c.id, {_segment("c")} FROM collections c
        WHERE c.organization_id = ? AND c.parent_id IS NULL
    UNION ALL SELECT c.id, tree.path || {_segment("c")} FROM collections c
        JOIN tree ON c.parent_id = tree.id)"""
"""Depth-first order of an organization's collections (param: organization id): a collection's
`tree.path` sorts after its parent's and before its next sibling's."""

SPACE_TREE_KEY = f"COALESCE(tree.path, '') || {_segment('s')}"
"""The depth-first sort key of a space `s` joined with `LEFT JOIN tree ON tree.id = s.parent_id`
under `TREE_ORDER`."""
