"""The text of a public spec, where its `urls.published` and its versions' `url` point.

Outside `/v1` and without a token, as a published spec is on the platform ("available to
anyone with a public link"); a private spec, or an unknown one, is a plain 404."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from docdeck.server.http.context import Sandbox

router = APIRouter(include_in_schema=False)

_SELECT = (
    "SELECT v.text FROM openapi_spec_versions v JOIN openapi_specs s ON s.id = v.spec_id"
    " WHERE s.organization_id = ? AND s.slug = ? AND s.visibility = 'public'"
)


def _answer(text: str | None) -> Response:
    if text is None:
        return Response("no such public OpenAPI spec\n", 404, media_type="text/plain")
    kind = "application/json" if text.lstrip().startswith("{") else "application/yaml"
    return Response(text, media_type=kind)


@router.get("/openapi/{organizationId}/{specSlug}")
def published_spec(request: Request, organizationId: str, specSlug: str) -> Response:
    sandbox: Sandbox = request.app.state.sandbox
    with sandbox.db.read() as conn:
        row = conn.execute(
            f"{_SELECT} ORDER BY v.seq DESC LIMIT 1", (organizationId, specSlug)
        ).fetchone()
    return _answer(None if row is None else str(row[0]))


@router.get("/openapi/{organizationId}/{specSlug}/versions/{versionId}")
def published_version(
    request: Request, organizationId: str, specSlug: str, versionId: str
) -> Response:
    sandbox: Sandbox = request.app.state.sandbox
    with sandbox.db.read() as conn:
        row = conn.execute(
            f"{_SELECT} AND v.id = ?", (organizationId, specSlug, versionId)
        ).fetchone()
    return _answer(None if row is None else str(row[0]))
