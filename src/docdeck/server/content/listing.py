"""Keyset pages over lists computed in memory (files, links, search hits, backlinks).

The cursor carries the last item's sort key, like the SQL lists' cursors, so a walk stays
correct while the list changes between requests: the next page starts after that key.
"""

from __future__ import annotations

import bisect
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from docdeck.server.pagination import (
    PageRequest,
    cursor_scope,
    cursor_secret,
    decode_cursor,
    encode_cursor,
)

T = TypeVar("T")
SortKey = tuple[Any, ...]


@dataclass(frozen=True)
class ItemPage(Generic[T]):
    items: list[T]
    count: int
    next_page: str | None


def page_of(
    conn: sqlite3.Connection,
    items: Sequence[T],
    key: Callable[[T], SortKey],
    request: PageRequest,
    scope: str,
) -> ItemPage[T]:
    """One page of `items` (already sorted by `key`, keys unique). Cursors are signed like
    the SQL lists' (`pagination.encode_cursor`), with the database's cursor secret."""
    scope = cursor_scope(request.list_id, scope)
    secret = cursor_secret(conn)
    # Keys are made only for the items the binary search and the cursor look at, so a page
    # of a long list costs its length, not the list's.
    start = 0
    if request.page is not None and items:
        after = decode_cursor(secret, scope, request.page, len(key(items[0])))
        start = bisect.bisect_right(items, after, key=lambda item: list(key(item)))
    if request.limit == 0:
        return ItemPage([], len(items), None)
    chosen = list(items[start : start + request.limit])
    more = start + request.limit < len(items)
    last = start + request.limit - 1
    next_page = encode_cursor(secret, scope, list(key(items[last]))) if more else None
    return ItemPage(chosen, len(items), next_page)
