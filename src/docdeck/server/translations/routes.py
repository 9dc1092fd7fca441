"""Translations of an organization's spaces (5 endpoints)."""

from __future__ import annotations

import json
import sqlite3
from typing import Annotated

from fastapi import Body, Request, Response

from docdeck.models import ListPage, Translation, TranslationCreate, TranslationUpdate
from docdeck.server.access import list_in_org, load_membership, require, require_member
from docdeck.server.errors import bad_request, found
from docdeck.server.http.context import Ctx
from docdeck.server.http.openapi import Router, errors
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.ids import new_id, to_db
from docdeck.server.pagination import Listing
from docdeck.server.permissions import Membership, at_least
from docdeck.server.translations.jobs import TranslationJob, start
from docdeck.server.translations.translator import NO_TRANSLATOR, Translator, configured_translator
from docdeck.server.wire import Json, respond, respond_list, wire_time

router = Router(tags=["translations"])

_O = "/v1/orgs/{organizationId}/translations"
_TRANSLATIONS = Listing(
    "translations",
    "t.*",
    "FROM translations t WHERE t.organization_id = ?",
    ("t.created_at", "t.id"),
    descending=True,
)
EMPTY_INSTRUCTIONS = {"object": "document", "data": {}, "nodes": []}
_STATS = (
    "runs",
    "totalWords",
    "totalPages",
    "totalDuration",
    "latestRunDuration",
    "latestPages",
    "latestWords",
)


def _may_edit(member: Membership) -> bool:
    return at_least(member.role, "create")


def translation_json(base: str, row: sqlite3.Row, member: Membership) -> Json:
    stored = json.loads(row["stats"] or "{}")
    data: Json = {
        "object": "translation",
        "id": row["id"],
        "status": row["status"],
        "source": {"space": row["source_space_id"], "language": row["source_language"]},
        "language": row["language"],
        "instructions": json.loads(row["instructions"]),
    }
    if row["result_space_id"] is not None and row["result_revision_id"] is not None:
        data["result"] = {"space": row["result_space_id"], "revision": row["result_revision_id"]}
    data["createdAt"] = wire_time(row["created_at"])
    data["updatedAt"] = wire_time(row["updated_at"])
    data["stats"] = {name: int(stored.get(name, 0)) for name in _STATS}
    data["permissions"] = {"view": True, "edit": _may_edit(member)}
    data["urls"] = {"location": f"{base}/v1/orgs/{row['organization_id']}/translations/{row['id']}"}
    return data


def _translator(request: Request) -> Translator | None:
    state = request.app.state
    if not hasattr(state, "translator"):
        state.translator = configured_translator()
    found: Translator | None = state.translator
    return found


def _load(conn: sqlite3.Connection, org_id: str, translation_id: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM translations WHERE id = ? AND organization_id = ?", (translation_id, org_id)
    ).fetchone()
    return found(row, f"translation {translation_id!r} not found in organization {org_id!r}")


def _submit(request: Request, ctx: Ctx, translation_id: str) -> None:
    translator = _translator(request)
    if translator is not None:
        start(TranslationJob(ctx.db, ctx.sandbox.clock, translation_id, translator))


@router.get(_O, "listTranslations", ListPage[Translation], 403, 404)
async def list_translations(ctx: CtxDep, organizationId: str, page: PageDep) -> Response:
    items, result = list_in_org(
        ctx,
        organizationId,
        page,
        _TRANSLATIONS,
        require_member,
        "list the organization's translations",
        lambda conn, row, member: translation_json(ctx.base_url, row, member),
    )
    return respond_list(items, result)


@router.post(_O, "createTranslation", Translation, 403, 404, status=201)
def create_translation(
    request: Request, ctx: CtxDep, organizationId: str, body: Annotated[TranslationCreate, Body()]
) -> Response:
    if body.language == body.source.language:
        raise bad_request("language: must differ from source.language")
    translator = _translator(request)
    with ctx.db.write() as conn:
        member = load_membership(conn, ctx, organizationId)
        require(_may_edit(member), "only members with the create role or above may translate")
        space = conn.execute(
            "SELECT 1 FROM spaces WHERE id = ? AND organization_id = ? AND deleted_at IS NULL",
            (body.source.space, organizationId),
        ).fetchone()
        if space is None:
            raise bad_request(f"source.space: no space {body.source.space!r} in this organization")
        translation_id, stamp = new_id(), to_db(ctx.now())
        instructions = (
            EMPTY_INSTRUCTIONS if body.instructions is None else body.instructions.model_dump()
        )
        conn.execute(
            "INSERT INTO translations (id, organization_id, source_space_id, source_language,"
            " language, instructions, status, waiting_reason, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)",
            (
                translation_id,
                organizationId,
                body.source.space,
                body.source.language,
                body.language,
                json.dumps(instructions),
                None if translator is not None else NO_TRANSLATOR,
                stamp,
                stamp,
            ),
        )
        row = _load(conn, organizationId, translation_id)
        data = translation_json(ctx.base_url, row, member)
    _submit(request, ctx, translation_id)
    return respond(data, status=201)


@router.get(f"{_O}/{{translationId}}", "getTranslation", Translation, 404)
async def get_translation(ctx: CtxDep, organizationId: str, translationId: str) -> Response:
    with ctx.db.read() as conn:
        member = load_membership(conn, ctx, organizationId)
        row = _load(conn, organizationId, translationId)
        return respond(translation_json(ctx.base_url, row, member))


@router.put(f"{_O}/{{translationId}}", "updateTranslation", Translation, 403, 404)
def update_translation(
    request: Request,
    ctx: CtxDep,
    organizationId: str,
    translationId: str,
    body: Annotated[TranslationUpdate, Body()],
) -> Response:
    """New instructions; with a translator, the translation runs again with them."""
    with ctx.db.write() as conn:
        member = load_membership(conn, ctx, organizationId)
        _load(conn, organizationId, translationId)
        require(_may_edit(member), "only members with the create role or above may translate")
        conn.execute(
            "UPDATE translations SET instructions = ?, updated_at = ? WHERE id = ?",
            (json.dumps(body.instructions.model_dump()), to_db(ctx.now()), translationId),
        )
        row = _load(conn, organizationId, translationId)
        data = translation_json(ctx.base_url, row, member)
    _submit(request, ctx, translationId)
    return respond(data)


@router.delete(
    f"{_O}/{{translationId}}",
    "deleteTranslation",
    status=205,
    responses={204: {"description": "The translation did not exist"}, **errors(403, 404)},
)
def delete_translation(ctx: CtxDep, organizationId: str, translationId: str) -> Response:
    """205 when it deleted the translation, 204 when there was none (the reference's rows).
    The result space stays: it is a space of its own."""
    with ctx.db.write() as conn:
        member = load_membership(conn, ctx, organizationId)
        found = conn.execute(
            "SELECT 1 FROM translations WHERE id = ? AND organization_id = ?",
            (translationId, organizationId),
        ).fetchone()
        if found is None:
            return Response(status_code=204)
        require(_may_edit(member), "only members with the create role or above may translate")
        conn.execute("DELETE FROM translations WHERE id = ?", (translationId,))
    return Response(status_code=205)
