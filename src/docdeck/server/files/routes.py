"""File downloads through the signed links in `downloadURL` (see files/service.py)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from docdeck.server.content.snapshots import get_object, space_owns
from docdeck.server.errors import ApiError, forbidden, not_found
from docdeck.server.files import service as file_links
from docdeck.server.http.context import Sandbox, authenticate

router = APIRouter(include_in_schema=False)


@router.get("/files/{spaceId}/{blob}/{name}")
async def download_file(
    request: Request,
    spaceId: str,
    blob: str,
    name: str,
    user: str = "",
    expires: int = 0,
    signature: str = "",
) -> Response:
    sandbox: Sandbox = request.app.state.sandbox
    if request.headers.get("authorization"):
        caller = await authenticate(request)
        if caller.user_id != user:
            raise forbidden("this file link was issued to another user; ask the API for yours")
    link = file_links.FileLink(spaceId, blob, user, expires)

    def read() -> tuple[bytes, str]:
        with sandbox.db.read() as conn:
            problem = file_links.verify(conn, link, signature, sandbox.clock())
            if problem is not None:
                raise ApiError(403, problem)
            if not file_links.may_read(conn, spaceId, user):
                raise forbidden("the user this link was issued to may no longer read the space")
            data = get_object(conn, blob) if space_owns(conn, spaceId, blob) else None
            if data is None:
                raise not_found("file not found")
            return data, file_links.content_type_for(name, data)

    data, content_type = await run_in_threadpool(read)
    return Response(
        data, media_type=content_type, headers=file_links.download_headers(name, content_type)
    )
