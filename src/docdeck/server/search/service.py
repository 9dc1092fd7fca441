"""The spaces an organization search finds: by title, or by content in the full-text index
(`index.py`); a guest's granted spaces only."""

from __future__ import annotations

import sqlite3
from typing import Any

from docdeck.server.http.context import Ctx
from docdeck.server.http.params import contains
from docdeck.server.pagination import Listing, PageRequest, PageResult, one_of
from docdeck.server.permissions import Membership, space_grants
from docdeck.server.search import index as full_text

_SPACES = Listing(
    "search",
    "s.id, s.title, s.revision_id",
    "FROM spaces s WHERE s.organization_id = ? AND s.deleted_at IS NULL",
    ("casefold(s.title)", "s.id"),
)


def page_of_matching_spaces(
    conn: sqlite3.Connection,
    ctx: Ctx,
    member: Membership,
    organization_id: str,
    query: str,
    page: PageRequest,
) -> PageResult:
    expression = full_text.fts_query(query)
    where = " AND (instr(casefold(s.title), ?) > 0" + (
        " OR s.id IN (SELECT space_id FROM search_sections WHERE search_sections MATCH ?))"
        if expression
        else ")"
    )
    params: list[Any] = [organization_id, contains(query)]
    if expression:
        params.append(expression)
    if member.is_guest:
        granted = list(space_grants(conn, organization_id, ctx.caller.user_id))
        where += one_of("s.id", granted)
        params += granted
    return _SPACES.page(conn, params, page, and_where=where)
