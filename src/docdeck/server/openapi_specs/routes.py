"""OpenAPI specs of an organization and their versions (11 endpoints)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from typing import Annotated

from fastapi import Body, Request, Response

from docdeck.models import (
    ListPage,
    OpenAPISpec,
    OpenAPISpecContent,
    OpenAPISpecCreate,
    OpenAPISpecPut,
    OpenAPISpecSource,
    OpenAPISpecSourceURL,
    OpenAPISpecUpdate,
    OpenAPISpecVersion,
)
from docdeck.models.openapi_specs import OPENAPI_SPEC_SLUG_PATTERN
from docdeck.server.access import list_in_org, load_membership, require_member
from docdeck.server.errors import bad_request
from docdeck.server.http.context import Ctx
from docdeck.server.http.openapi import Router, errors
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.ids import new_id, to_db
from docdeck.server.openapi_specs.processing import Job, SpecLimits, start
from docdeck.server.openapi_specs.service import (
    find_spec,
    load_spec,
    load_version,
    require_create,
    rights,
)
from docdeck.server.openapi_specs.wire import (
    SELF_SOURCE,
    content_json,
    spec_json,
    version_json,
)
from docdeck.server.pagination import Listing
from docdeck.server.validation import check_http_url
from docdeck.server.wire import Json, no_content, respond, respond_list

router = Router(tags=["openapi"])

_O = "/v1/orgs/{organizationId}/openapi"
_SLUG = re.compile(OPENAPI_SPEC_SLUG_PATTERN)
_SPECS = Listing(
    "openapi-specs", "s.*", "FROM openapi_specs s WHERE s.organization_id = ?", ("s.slug", "s.id")
)
_VERSIONS = Listing(
    "openapi-spec-versions",
    "v.id, v.created_at, v.url, v.seq",
    "FROM openapi_spec_versions v WHERE v.spec_id = ?",
    ("v.seq",),
    descending=True,
)


def _check_slug(slug: str) -> str:
    if not 1 <= len(slug) <= 100 or not _SLUG.match(slug):
        raise bad_request(
            "specSlug: use 1 to 100 lowercase letters and digits, words joined by single"
            f" hyphens (pattern {OPENAPI_SPEC_SLUG_PATTERN})"
        )
    return slug


def _source_columns(
    ctx: Ctx, source: OpenAPISpecSource
) -> tuple[str | None, str | None, str | None]:
    """(source_url, source_text, source_self). The sandbox's own `/openapi.json`, named by its
    public URL, is read in-process (`processing.sandbox_document_text`), never fetched."""
    if isinstance(source, OpenAPISpecSourceURL):
        url = check_http_url(source.url.strip(), "source.url")
        if url == ctx.url(SELF_SOURCE):
            return None, None, SELF_SOURCE
        return url, None, None
    if not source.text.strip():
        raise bad_request("source.text: must not be empty")
    return None, source.text, None


def _submit(request: Request, ctx: Ctx, row: sqlite3.Row) -> None:
    state = request.app.state
    limits: SpecLimits = getattr(state, "openapi_spec_limits", None) or SpecLimits()
    start(
        Job(
            db=ctx.db,
            clock=ctx.sandbox.clock,
            spec_id=row["id"],
            run=row["run"],
            allow_loopback=state.import_policy.allow_loopback,
            limits=limits,
        )
    )


def _resume(request: Request, ctx: Ctx, rows: list[sqlite3.Row]) -> None:
    """Runs not started by this process (the server stopped during one) start now."""
    for row in rows:
        if row["processing_state"] != "complete":
            _submit(request, ctx, row)


def _resubmit(
    conn: sqlite3.Connection, spec_id: str, columns: tuple[str | None, ...], stamp: str
) -> sqlite3.Row:
    conn.execute(
        "UPDATE openapi_specs SET source_url = ?, source_text = ?, source_self = ?,"
        " processing_state = 'pending', run = run + 1, updated_at = ? WHERE id = ?",
        (*columns, stamp, spec_id),
    )
    row: sqlite3.Row = conn.execute(
        "SELECT * FROM openapi_specs WHERE id = ?", (spec_id,)
    ).fetchone()
    return row


def _insert(
    conn: sqlite3.Connection, org_id: str, slug: str, columns: tuple[str | None, ...], stamp: str
) -> sqlite3.Row:
    spec_id = new_id()
    conn.execute(
        "INSERT INTO openapi_specs (id, organization_id, slug, source_url, source_text,"
        " source_self, processing_state, run, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, 'pending', 1, ?, ?)",
        (spec_id, org_id, slug, *columns, stamp, stamp),
    )
    row: sqlite3.Row = conn.execute(
        "SELECT * FROM openapi_specs WHERE id = ?", (spec_id,)
    ).fetchone()
    return row


@router.get(_O, "listOpenAPISpecs", ListPage[OpenAPISpec], 404)
async def list_specs(request: Request, ctx: CtxDep, organizationId: str, page: PageDep) -> Response:
    items, result = list_in_org(
        ctx,
        organizationId,
        page,
        _SPECS,
        require_member,
        "list the organization's OpenAPI specs",
        lambda conn, row, member: spec_json(ctx.base_url, row, rights(member)),
    )
    _resume(request, ctx, result.rows)
    return respond_list(items, result)


@router.post(_O, "createOpenAPISpec", OpenAPISpec, 403, 404, status=201)
def create_spec(
    request: Request,
    ctx: CtxDep,
    organizationId: str,
    body: Annotated[OpenAPISpecCreate, Body()],
) -> Response:
    columns = _source_columns(ctx, body.source)
    with ctx.db.write() as conn:
        member = load_membership(conn, ctx, organizationId)
        require_create(member, "create OpenAPI specs")
        if find_spec(conn, organizationId, body.slug) is not None:
            raise bad_request(
                f"slug: the organization already has an OpenAPI spec {body.slug!r}"
                " (PUT it to replace its source)"
            )
        row = _insert(conn, organizationId, body.slug, columns, to_db(ctx.now()))
    _submit(request, ctx, row)
    return respond(spec_json(ctx.base_url, row, rights(member)), status=201)


@router.get(f"{_O}/{{specSlug}}", "getOpenAPISpecBySlug", OpenAPISpec, 404)
async def get_spec(request: Request, ctx: CtxDep, organizationId: str, specSlug: str) -> Response:
    with ctx.db.read() as conn:
        row, member = load_spec(conn, ctx, organizationId, specSlug)
    _resume(request, ctx, [row])
    return respond(spec_json(ctx.base_url, row, rights(member)))


@router.put(
    f"{_O}/{{specSlug}}",
    "createOrUpdateOpenAPISpecBySlug",
    OpenAPISpec,
    responses={201: {"description": "Created"}, **errors(403, 404)},
)
def put_spec(
    request: Request,
    ctx: CtxDep,
    organizationId: str,
    specSlug: str,
    body: Annotated[OpenAPISpecPut, Body()],
) -> Response:
    """200 when the spec existed (its source replaced and processed again), 201 when made."""
    columns = _source_columns(ctx, body.source)
    with ctx.db.write() as conn:
        member = load_membership(conn, ctx, organizationId)
        existing = find_spec(conn, organizationId, specSlug)
        stamp = to_db(ctx.now())
        if existing is None:
            require_create(member, "create OpenAPI specs")
            row = _insert(conn, organizationId, _check_slug(specSlug), columns, stamp)
            status = 201
        else:
            require_create(member, "update OpenAPI specs")
            row = _resubmit(conn, existing["id"], columns, stamp)
            status = 200
    _submit(request, ctx, row)
    return respond(spec_json(ctx.base_url, row, rights(member)), status=status)


@router.patch(f"{_O}/{{specSlug}}", "updateOpenAPISpecBySlug", OpenAPISpec, 403, 404)
def update_spec(
    ctx: CtxDep, organizationId: str, specSlug: str, body: Annotated[OpenAPISpecUpdate, Body()]
) -> Response:
    with ctx.db.write() as conn:
        row, member = load_spec(conn, ctx, organizationId, specSlug)
        require_create(member, "change an OpenAPI spec's visibility")
        if row["visibility"] != body.visibility:
            conn.execute(
                "UPDATE openapi_specs SET visibility = ?, updated_at = ? WHERE id = ?",
                (body.visibility, to_db(ctx.now()), row["id"]),
            )
        row, _ = load_spec(conn, ctx, organizationId, specSlug)
        return respond(spec_json(ctx.base_url, row, rights(member)))


@router.delete(f"{_O}/{{specSlug}}", "deleteOpenAPISpecBySlug", None, 403, 404, status=204)
def delete_spec(ctx: CtxDep, organizationId: str, specSlug: str) -> Response:
    with ctx.db.write() as conn:
        member = load_membership(conn, ctx, organizationId)
        row = find_spec(conn, organizationId, specSlug)
        if row is None:
            return no_content()
        require_create(member, "delete OpenAPI specs")
        conn.execute("DELETE FROM openapi_specs WHERE id = ?", (row["id"],))
    return no_content()


@router.get(
    f"{_O}/{{specSlug}}/versions", "listOpenAPISpecVersions", ListPage[OpenAPISpecVersion], 404
)
async def list_versions(ctx: CtxDep, organizationId: str, specSlug: str, page: PageDep) -> Response:
    """Newest first."""
    with ctx.db.read() as conn:
        spec, _ = load_spec(conn, ctx, organizationId, specSlug)
        result = _VERSIONS.page(conn, [spec["id"]], page)
        items = [version_json(ctx.base_url, spec, row) for row in result.rows]
    return respond_list(items, result)


def _version(
    ctx: Ctx,
    organizationId: str,
    specSlug: str,
    versionId: str,
    encode: Callable[[str, sqlite3.Row, sqlite3.Row], Json],
) -> Response:
    """One version of a spec (`latest` or by id), as `encode` writes it: its metadata or its
    content."""
    with ctx.db.read() as conn:
        spec, _ = load_spec(conn, ctx, organizationId, specSlug)
        return respond(encode(ctx.base_url, spec, load_version(conn, spec, versionId)))


@router.get(
    f"{_O}/{{specSlug}}/versions/latest", "getLatestOpenAPISpecVersion", OpenAPISpecVersion, 404
)
async def get_latest_version(ctx: CtxDep, organizationId: str, specSlug: str) -> Response:
    return _version(ctx, organizationId, specSlug, "latest", version_json)


@router.get(
    f"{_O}/{{specSlug}}/versions/latest/content",
    "getLatestOpenAPISpecVersionContent",
    OpenAPISpecContent,
    404,
)
async def get_latest_content(ctx: CtxDep, organizationId: str, specSlug: str) -> Response:
    return _version(ctx, organizationId, specSlug, "latest", content_json)


@router.get(
    f"{_O}/{{specSlug}}/versions/{{versionId}}",
    "getOpenAPISpecVersionById",
    OpenAPISpecVersion,
    404,
)
async def get_version(ctx: CtxDep, organizationId: str, specSlug: str, versionId: str) -> Response:
    return _version(ctx, organizationId, specSlug, versionId, version_json)


@router.get(
    f"{_O}/{{specSlug}}/versions/{{versionId}}/content",
    "getOpenAPISpecVersionContentById",
    OpenAPISpecContent,
    404,
)
async def get_version_content(
    ctx: CtxDep, organizationId: str, specSlug: str, versionId: str
) -> Response:
    return _version(ctx, organizationId, specSlug, versionId, content_json)
