"""Dependencies and helpers every router uses."""

from __future__ import annotations

import inspect
import json
import sqlite3
from collections.abc import Callable, Iterable
from typing import Annotated, Any

from fastapi import Depends, Query, Request

from docdeck.server.errors import bad_request, describe_value, name_items
from docdeck.server.http.context import Ctx, get_ctx
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
    # scope["path"] is request.url.path without building a URL object on every list request
    return PageRequest(page, limit, request.scope["path"])


# Async, as every dependency must be: a plain `def` dependency costs a thread hop per request.
PageDep = Annotated[PageRequest, Depends(page_request)]


def contains(value: str) -> str:
    """The argument for `instr(casefold(column), ?) > 0`: a case-insensitive substring test."""
    return value.casefold()


def resolve_members(
    conn: sqlite3.Connection, org_id: str, refs: Iterable[str], field: str
) -> dict[str, str]:
    """User ids of organization members given by id or email; 400 naming the unknown ones.

    One query for the whole list (bodies hold at most MAX_ARRAY_ITEMS of them), so a long list
    keeps the write lock for one statement, not one per item."""
    wanted = list(dict.fromkeys(refs))
    if not wanted:
        return {}
    refs_json = json.dumps(wanted)
    # CROSS JOIN keeps SQLite walking the given list, one index lookup per item.
    rows = conn.execute(
        "SELECT r.value AS ref, u.id FROM json_each(?) r CROSS JOIN users u ON u.id = r.value"
        " CROSS JOIN members m ON m.organization_id = ? AND m.user_id = u.id"
        " UNION ALL SELECT r.value, u.id FROM json_each(?) r"
        " CROSS JOIN users u ON u.email = trim(r.value)"
        " CROSS JOIN members m ON m.organization_id = ? AND m.user_id = u.id",
        (refs_json, org_id, refs_json, org_id),
    ).fetchall()
    resolved = {row["ref"]: row["id"] for row in rows}
    unknown = [describe_value(ref) for ref in wanted if ref not in resolved]
    if unknown:
        raise bad_request(
            f"{field}: no member of this organization has the user id or email"
            f" {name_items(unknown)} (a team can hold only organization members)"
        )
    return {ref: resolved[ref] for ref in wanted}


def with_scope_ids(
    handler: Callable[..., Any],
    ids: tuple[str, ...],
    *,
    without: tuple[str, ...] = (),
    annotations: dict[str, Any] | None = None,
) -> Callable[..., Any]:
    """`handler` (written as `(ctx, ..., **ids)`) declaring the scope's ids (`ids`) as its
    path parameters right after `ctx`, as a route written for one scope would: an operation
    that exists under several parents (content at a revision or in a change request, comments
    on a space or a change request) is written once and documented with its parameters in
    path order. `without` drops parameters a scope lacks; `annotations` sets a parameter's
    type for one scope."""
    signature = inspect.signature(handler)
    params = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    params = [p.replace(kind=p.KEYWORD_ONLY) for p in params if p.name not in without]
    for name, annotation in (annotations or {}).items():
        params = [p.replace(annotation=annotation) if p.name == name else p for p in params]
    keyword = inspect.Parameter.KEYWORD_ONLY
    scope_params = [inspect.Parameter(i, keyword, annotation=str) for i in ids]
    handler.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[params[0], *scope_params, *params[1:]]
    )
    return handler
