"""Dispatch through the route index answers exactly what FastAPI's scan of every route does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from starlette.routing import Match
from starlette.types import Scope

from docdeck.server import create_app
from docdeck.server.http.routing import RouteIndex

from ._support import ADMIN, DemoIds


async def _answers(app: FastAPI, token: str, requests: list[tuple[str, str]]) -> list[object]:
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as c:
        out: list[object] = []
        for method, path in requests:
            response = await c.request(method, path)
            out.append(
                (
                    method,
                    path,
                    response.status_code,
                    response.headers.get("location"),
                    response.content,
                )
            )
        return out


async def test_indexed_dispatch_answers_like_the_scan_of_every_route(
    sandbox_db: Path, token_for: Callable[[str], str], ids: DemoIds
) -> None:
    org, space = ids.northwind, ids.spaces["Webhooks Guide"]
    requests = [
        ("GET", "/v1/orgs"),
        ("GET", "/v1/orgs/"),
        ("GET", f"/v1/orgs/{org}"),
        ("GET", f"/v1/orgs/{org}/"),
        ("GET", f"/v1/orgs/{org}/spaces"),
        ("GET", f"/v1/orgs/{org}/members?limit=2"),
        ("PUT", f"/v1/orgs/{org}"),
        ("DELETE", "/v1/orgs"),
        ("GET", f"/v1/spaces/{space}"),
        ("POST", f"/v1/spaces/{space}"),
        ("GET", f"/v1/spaces/{space}/nothing"),
        # Told apart by their fourth segment (the area under one space).
        ("GET", f"/v1/spaces/{space}/comments?limit=1"),
        ("GET", f"/v1/spaces/{space}/comments/nothing/replies"),
        ("GET", f"/v1/spaces/{space}/change-requests/1/comments?limit=1"),
        ("PATCH", f"/v1/spaces/{space}/comments/nothing"),
        ("GET", f"/v1/spaces/{space}/content/nothing/x"),
        ("GET", "/v1/nothing/at/all"),
        ("GET", "/v1"),
        ("GET", "/"),
        ("GET", "/openapi.json"),
        ("GET", f"/app/spaces/{space}"),
        # Paths with a `{name:path}` convertor (any number of segments) and a parameter as
        # their second segment.
        ("GET", f"/v1/spaces/{space}/content/path/setup"),
        ("GET", f"/v1/spaces/{space}/content/path/a/b/c/d"),
        ("GET", f"/v1/spaces/{space}/revisions/nothing/path/a/b"),
        ("GET", "/s/nothing/docs/"),
        ("GET", "/s/nothing/docs/a/b/c"),
        ("GET", "/s/nothing"),
    ]
    token = token_for(ADMIN)
    indexed = create_app(sandbox_db, public_url="http://t")
    index = indexed.router.middleware_stack
    assert isinstance(index, RouteIndex)
    scanned = create_app(sandbox_db, public_url="http://t")
    scanned.router.middleware_stack = scanned.router.app
    assert await _answers(indexed, token, requests) == await _answers(scanned, token, requests)
    # Every route is indexed (none forces the full scan), and a group holds few routes.
    assert index._shapes is not None and len(index._shapes) == len(indexed.routes)
    # (7, v1, spaces) holds the change request routes of that length too (16 with them).
    assert max(len(group.routes) for group in index._groups.values()) <= 16


async def test_a_route_added_after_the_app_is_built_is_reached(sandbox_db: Path) -> None:
    app = create_app(sandbox_db)
    await _answers(app, "x", [("GET", "/v1/orgs")])  # the index is built

    async def late() -> dict[str, str]:
        return {"late": "yes"}

    app.add_api_route("/v1/late/route", late)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        assert (await client.get("/v1/late/route")).json() == {"late": "yes"}


async def test_the_route_a_request_reaches_is_matched_once(
    sandbox_db: Path,
    token_for: Callable[[str], str],
    ids: DemoIds,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The group answers what its routes match, without a check beforehand that matched the
    route a second time (about 10% of a small GET); a 404 still reaches the full router."""
    matched: list[str] = []
    matches = APIRoute.matches

    def counting(route: APIRoute, scope: Scope) -> tuple[Match, Scope]:
        match, child = matches(route, scope)
        if match is Match.FULL:
            matched.append(route.path)
        return match, child

    monkeypatch.setattr(APIRoute, "matches", counting)
    app = create_app(sandbox_db, public_url="http://t")
    await _answers(app, "x", [("GET", "/v1/orgs")])  # the stack is built
    app.state.fast_lane.enabled = False  # the index serves what the lane does not take
    matched.clear()
    space = ids.spaces["Webhooks Guide"]
    answers = await _answers(
        app, token_for(ADMIN), [("GET", f"/v1/spaces/{space}"), ("GET", "/v1/spaces/x/nothing")]
    )
    assert [answer[2] for answer in answers] == [200, 404]  # type: ignore[index]
    assert matched == ["/v1/spaces/{spaceId}"]
