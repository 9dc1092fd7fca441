"""Dependencies and helpers every router uses."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Annotated

from fastapi import Depends, Query, Request

from docdeck.server.context import Ctx, get_ctx
from docdeck.server.errors import bad_request
from docdeck.server.pagination import DEFAULT_LIMIT, MAX_LIMIT, PageRequest

CtxDep = Annotated[Ctx, Depends(get_ctx)]
"""The request's context. `get_ctx` is async: no thread hop to authenticate."""


async def page_request(
    request: Request,
    page: Annotated[
        str | None, Query(description="Opaque cursor: the `next.page` of the previous page")
    ] = None,
    limit: Annotated[
        int,
        Query(ge=0, le=MAX_LIMIT, description=f"Items per page (default {DEFAULT_LIMIT})"),
    ] = DEFAULT_LIMIT,
) -> PageRequest:
    return PageRequest(page, limit, request.url.path)


# Async, as every dependency must be: a plain `def` dependency costs a thread hop per request.
PageDep = Annotated[PageRequest, Depends(page_request)]


def contains(value: str) -> str:
    """The argument for `instr(casefold(column), ?) > 0`: a case-insensitive substring test."""
    return value.casefold()


def resolve_members(
    conn: sqlite3.Connection, org_id: str, refs: Iterable[str], field: str
) -> dict[str, str]:
    """User ids of organization members given by id or email; 400 naming the unknown ones."""
    resolved: dict[str, str] = {}
    unknown: list[str] = []
    for ref in refs:
        row = conn.execute(
            "SELECT u.id FROM members m JOIN users u ON u.id = m.user_id"
            " WHERE m.organization_id = ? AND (u.id = ? OR u.email = ?)",
            (org_id, ref, ref.strip()),
        ).fetchone()
        if row is None:
            unknown.append(ref)
        else:
            resolved[ref] = row["id"]
    if unknown:
        names = ", ".join(repr(u) for u in unknown)
        raise bad_request(
            f"{field}: no member of this organization has the user id or email {names}"
            " (a team can hold only organization members)"
        )
    return resolved
