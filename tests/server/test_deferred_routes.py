"""Routes registered after start-up (`docdeck serve`): the same API, whatever comes first."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from docdeck.server import create_app, ensure_demo, finish_demo, mint_token
from docdeck.server.http import deferred_routes as deferred_module
from docdeck.server.http.deferred_routes import DeferredRoutes

from ._support import ADMIN, DemoIds


def _deferred_app(db: Path) -> FastAPI:
    return create_app(db, public_url="http://sandbox.test", defer_routes=True)


def _client(app: FastAPI, token: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://sandbox.test",
        headers={"Authorization": f"Bearer {token}"},
    )


def _deferred(app: FastAPI) -> DeferredRoutes:
    deferred = app.state.deferred_routes
    assert isinstance(deferred, DeferredRoutes)
    return deferred


async def test_the_organization_tree_is_served_before_the_other_routes_are_built(
    sandbox_db: Path, token_for: Callable[[str], str], ids: DemoIds
) -> None:
    app = _deferred_app(sandbox_db)
    eager = create_app(sandbox_db, public_url="http://sandbox.test")
    assert len(app.routes) < len(eager.routes)
    org = ids.orgs["Northwind Labs"]
    async with _client(app, token_for(ADMIN)) as client:
        for path in ("/v1/orgs", f"/v1/orgs/{org}/spaces", f"/v1/orgs/{org}/members"):
            assert (await client.get(path)).status_code == 200
        assert not _deferred(app).loaded

        # A route of a later group waits for the group, then answers as usual.
        space = ids.spaces["Webhooks Guide"]
        pages = await client.get(f"/v1/spaces/{space}/content/pages")
        assert pages.status_code == 200, pages.text
        assert pages.json()["pages"]
    assert _deferred(app).loaded
    assert [r.path for r in app.routes] == [r.path for r in eager.routes]  # type: ignore[attr-defined]


async def test_the_openapi_document_is_complete_when_asked_first(
    sandbox_db: Path, token_for: Callable[[str], str]
) -> None:
    eager = create_app(sandbox_db, public_url="http://sandbox.test")
    async with _client(eager, token_for(ADMIN)) as client:
        expected = (await client.get("/openapi.json")).json()
    async with _client(_deferred_app(sandbox_db), token_for(ADMIN)) as client:
        document = (await client.get("/openapi.json")).json()
    assert document == expected


async def test_a_method_not_allowed_on_an_early_route_stays_405(
    sandbox_db: Path, token_for: Callable[[str], str]
) -> None:
    app = _deferred_app(sandbox_db)
    async with _client(app, token_for(ADMIN)) as client:
        assert (await client.delete("/v1/orgs")).status_code == 405
    assert not _deferred(app).loaded


async def test_requests_arriving_together_build_the_later_routes_once(
    sandbox_db: Path,
    token_for: Callable[[str], str],
    ids: DemoIds,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = _deferred_app(sandbox_db)
    built: list[tuple[str, ...]] = []
    real = deferred_module.router_routes

    def counting(modules: tuple[str, ...]) -> list[object]:
        built.append(tuple(modules))
        return real(modules)  # type: ignore[return-value]

    monkeypatch.setattr(deferred_module, "router_routes", counting)
    space = ids.spaces["Webhooks Guide"]
    async with _client(app, token_for(ADMIN)) as client:
        answers = await asyncio.gather(
            *(client.get(f"/v1/spaces/{space}/content/pages") for _ in range(5)),
            client.get(f"/v1/orgs/{ids.orgs['Northwind Labs']}/search?query=webhook"),
        )
    assert [a.status_code for a in answers] == [200] * 6
    assert len(built) == 1


async def test_after_start_up_the_later_routes_are_built_without_a_request(
    sandbox_db: Path,
) -> None:
    app = _deferred_app(sandbox_db)
    await _deferred(app).load_soon(delay=0)
    assert _deferred(app).loaded
    assert any(
        getattr(r, "path", "").startswith("/v1/spaces/{spaceId}/content") for r in app.routes
    )


async def test_the_demo_content_loaded_after_start_up_is_there_for_the_first_content_request(
    tmp_path: Path,
) -> None:
    """As `docdeck serve` does: the workspace before the server is ready, the demo's pages
    and change requests with the later routes. A request for them waits for both."""
    path = tmp_path / "sandbox.db"
    app = _deferred_app(path)
    accounts = ensure_demo(path, content_later=True)
    _deferred(app).run_before(partial(finish_demo, app.state.sandbox.db))
    token = mint_token(path, accounts[0].email)
    async with _client(app, token) as client:
        orgs = (await client.get("/v1/orgs")).json()["items"]
        org = next(o["id"] for o in orgs if o["title"] == "Northwind Labs")
        spaces = (await client.get(f"/v1/orgs/{org}/spaces", params={"limit": 100})).json()
        space = next(s["id"] for s in spaces["items"] if s["title"] == "Webhooks Guide")
        assert not _deferred(app).loaded
        pages = await client.get(f"/v1/spaces/{space}/content/pages")
        assert pages.status_code == 200, pages.text
        assert pages.json()["pages"], "the pages were loaded before the route answered"
        requests = await client.get(
            f"/v1/spaces/{ids_of(spaces, 'Public API Reference')}/change-requests"
        )
        assert requests.status_code == 200, requests.text
        assert requests.json()["items"]


def ids_of(spaces: dict[str, list[dict[str, str]]], title: str) -> str:
    return next(s["id"] for s in spaces["items"] if s["title"] == title)


async def test_start_up_work_that_fails_is_logged_and_the_routes_come_all_the_same(
    sandbox_db: Path,
    token_for: Callable[[str], str],
    ids: DemoIds,
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = _deferred_app(sandbox_db)

    def broken() -> None:
        raise RuntimeError("no demo today")

    _deferred(app).run_before(broken)
    async with _client(app, token_for(ADMIN)) as client:
        space = ids.spaces["Webhooks Guide"]
        assert (await client.get(f"/v1/spaces/{space}/content/pages")).status_code == 200
    assert "start-up work failed" in caplog.text
    assert "no demo today" in caplog.text


async def test_spaces_read_before_the_demo_content_name_the_revision_that_has_it(
    tmp_path: Path,
) -> None:
    """As `docdeck serve` does on a first start: the demo's content gives each space its
    revision, so a space (or a list of them) waits for it: read before, it named the empty
    first revision, and a client opening that space showed no pages."""
    path = tmp_path / "sandbox.db"
    app = _deferred_app(path)
    accounts = ensure_demo(path, content_later=True)
    _deferred(app).run_before(partial(finish_demo, app.state.sandbox.db), holds=("/spaces",))
    token = mint_token(path, accounts[0].email)
    async with _client(app, token) as client:
        orgs = (await client.get("/v1/orgs")).json()["items"]
        assert not _deferred(app).loaded  # the tree's first read does not wait
        org = next(o["id"] for o in orgs if o["title"] == "Northwind Labs")
        spaces = (await client.get(f"/v1/orgs/{org}/spaces", params={"limit": 100})).json()
        assert _deferred(app).loaded
        listed = next(s for s in spaces["items"] if s["title"] == "Public API Reference")
        pages = await client.get(f"/v1/spaces/{listed['id']}/revisions/{listed['revision']}")
        assert pages.status_code == 200, pages.text
        assert pages.json()["pages"], "the listed revision is the one with the pages"
        assert listed["changeRequests"] > 0
