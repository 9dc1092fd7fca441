"""Every comment operation (the reference's 17 rows and the five platform operations around
them) answers what the platform's OpenAPI document says: a documented status and a body
valid against its response schema, on threads with a page and block target, replies,
reactions and a resolved comment."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from .openapi import operations, response_validator


@dataclass(frozen=True)
class Thread:
    base: str  # .../comments of a space or of a change request
    comment: str
    reply: str


@pytest.fixture
def space(sandbox_db: Path) -> str:
    conn = sqlite3.connect(sandbox_db)
    try:
        row = conn.execute("SELECT id FROM spaces WHERE title = 'Webhooks Guide'").fetchone()
        return str(row[0])
    finally:
        conn.close()


@pytest.fixture
async def client(sandbox_app: FastAPI, admin_token: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=sandbox_app),
        base_url="http://sandbox.test",
        headers={"Authorization": f"Bearer {admin_token}"},
    ) as c:
        yield c


async def _thread(c: httpx.AsyncClient, space: str, in_change_request: bool) -> Thread:
    """A resolved comment on a block, with a reply, both with a reaction."""
    scope = f"/v1/spaces/{space}"
    if in_change_request:
        made = await c.post(f"{scope}/change-requests", json={"subject": "Conformance"})
        scope = f"{scope}/change-requests/{made.json()['id']}"
    revision = (await c.get(f"{scope}/content")).json()
    page = next(p for p in revision["pages"] if p["type"] == "document")["id"]
    document = (await c.get(f"{scope}/content/page/{page}", params={"format": "document"})).json()
    node = document["document"]["nodes"][0]["key"]
    base = f"{scope}/comments"
    posted = await c.post(base, json={"page": page, "node": node, "body": {"markdown": "*a*"}})
    assert posted.status_code == 200, posted.text
    comment = posted.json()["id"]
    await c.put(f"{base}/{comment}", json={"resolved": True, "addedReactions": ["👍"]})
    reply = (await c.post(f"{base}/{comment}/replies", json={"body": {"markdown": "b"}})).json()
    await c.put(f"{base}/{comment}/replies/{reply['id']}", json={"addedReactions": ["🎉"]})
    return Thread(base, comment, reply["id"])


Call = Callable[[httpx.AsyncClient, Thread], Awaitable[httpx.Response]]

_SHARED: dict[str, Call] = {
    "listCommentsIn": lambda c, t: c.get(t.base, params={"format": "document"}),
    "postCommentIn": lambda c, t: c.post(t.base, json={"body": {"markdown": "new"}}),
    "getCommentIn": lambda c, t: c.get(f"{t.base}/{t.comment}", params={"format": "markdown"}),
    "updateCommentIn": lambda c, t: c.put(f"{t.base}/{t.comment}", json={"resolved": False}),
    "deleteCommentIn": lambda c, t: c.delete(f"{t.base}/{t.comment}"),
    "listCommentRepliesIn": lambda c, t: c.get(f"{t.base}/{t.comment}/replies"),
    "postCommentReplyIn": lambda c, t: c.post(
        f"{t.base}/{t.comment}/replies", json={"body": {"markdown": "more"}}
    ),
    "getCommentReplyIn": lambda c, t: c.get(f"{t.base}/{t.comment}/replies/{t.reply}"),
    "updateCommentReplyIn": lambda c, t: c.put(
        f"{t.base}/{t.comment}/replies/{t.reply}", json={"body": {"markdown": "edited"}}
    ),
    "deleteCommentReplyIn": lambda c, t: c.delete(f"{t.base}/{t.comment}/replies/{t.reply}"),
    "listCommentersIn": lambda c, t: c.get(t.base.removesuffix("/comments") + "/commenters"),
}
CALLS: dict[str, tuple[bool, Call]] = {
    f"{name}{where}": (where == "ChangeRequest", call)
    for name, call in _SHARED.items()
    for where in ("Space", "ChangeRequest")
}


def test_every_comment_operation_is_called() -> None:
    assert len(CALLS) == 22  # 17 reference rows + 5 platform operations
    known = operations()
    for operation_id in CALLS:
        assert operation_id in known, operation_id


@pytest.mark.parametrize("operation_id", sorted(CALLS))
async def test_comment_response_matches_platform_schema(
    operation_id: str, client: httpx.AsyncClient, space: str
) -> None:
    in_change_request, call = CALLS[operation_id]
    thread = await _thread(client, space, in_change_request)
    response = await call(client, thread)
    assert response.status_code < 300, response.text
    method, path, _ = operations()[operation_id]
    assert response.request.method == method
    template = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path))
    assert re.fullmatch(template, response.request.url.path), (path, response.request.url.path)
    validator = response_validator(operation_id, response.status_code)
    if validator is None:
        assert response.content == b"", f"{operation_id} documents no body"
        return
    body = response.json()
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}" for e in errors[:10]
    )
    if "items" in body:
        assert body["items"], f"{operation_id}: a non-empty list to check"


async def test_the_comment_validator_is_not_vacuous(client: httpx.AsyncClient, space: str) -> None:
    thread = await _thread(client, space, False)
    body = (await client.get(f"{thread.base}/{thread.comment}")).json()
    validator = response_validator("getCommentInSpace", 200)
    assert validator is not None and not list(validator.iter_errors(body))
    for broken in (
        {k: v for k, v in body.items() if k != "resolvedBy"},  # resolved needs resolvedBy
        {**body, "body": {"markdown": 5}},
        {k: v for k, v in body.items() if k != "replies"},
    ):
        assert list(validator.iter_errors(broken))
