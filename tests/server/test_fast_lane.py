"""The fast lane (`server/http/fast_lane.py`) answers exactly what the full middleware stack
answers: every GET of the API, with good and bad query values, tokens and ids, and as HEAD, is
sent with the lane on and off, and the two answers must be the same."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Response

from docdeck.server.errors import not_found
from docdeck.server.http.fast_lane import FastLane
from docdeck.server.http.fast_routes import install_fast_routes

from ._support import ADMIN, Api, DemoIds, error_of
from .test_every_endpoint import ENDPOINTS, read_probes

READS = [path for method, path, _ in ENDPOINTS if method == "GET" and not path.endswith("/pdf")]
QUERIES = ["", "?limit=1", "?limit=abc", "?limit=1001", "?page=not-a-cursor", "?limit=%ED%A0%80"]


@pytest.fixture
async def lane(api: Api, sandbox_app: FastAPI) -> Iterator[FastLane]:
    await api(None).get("/v1/orgs")  # the stack (and the lane with it) is built on first use
    built: FastLane = sandbox_app.state.fast_lane
    yield built
    built.enabled = True


def _counting(lane: FastLane) -> list[str]:
    """Paths the lane hands to the full stack, from now on."""
    handed: list[str] = []
    full = lane.full

    async def counted(scope: Any, receive: Any, send: Any) -> None:
        handed.append(scope["path"])
        await full(scope, receive, send)

    lane.full = counted
    return handed


async def test_the_hot_reads_take_the_lane_and_writes_do_not(
    api: Api, ids: DemoIds, lane: FastLane
) -> None:
    handed = _counting(lane)
    admin = api(ADMIN)
    space = ids.spaces["Public API Reference"]
    for path in ("/v1/orgs", f"/v1/orgs/{ids.northwind}/spaces", f"/v1/spaces/{space}"):
        assert (await admin.get(path)).status_code == 200
        assert (await admin.head(path)).status_code == 200
    assert handed == []
    await admin.get("/v1/orgs?limit=abc")  # a value that does not validate: the full stack
    await admin.post(f"/v1/spaces/{space}/restore")
    assert handed == ["/v1/orgs", f"/v1/spaces/{space}/restore"]


@pytest.mark.parametrize("path", READS)
async def test_each_read_answers_the_same_with_and_without_the_lane(
    api: Api, ids: DemoIds, lane: FastLane, path: str
) -> None:
    for who, url, client in read_probes(api, ids, path, QUERIES):
        answers = []
        for enabled in (True, False):
            lane.enabled = enabled
            got = await client.get(url)
            head = await client.head(url)
            answers.append(
                (
                    got.status_code,
                    got.headers.get("content-type"),
                    got.content,
                    head.status_code,
                    head.content,
                    head.headers.get("content-length"),
                )
            )
        lane.enabled = True
        assert answers[0] == answers[1], (who, url)


async def test_unknown_paths_and_ids_answer_the_same_with_and_without_the_lane(
    api: Api, lane: FastLane
) -> None:
    admin = api(ADMIN)
    for url in ("/v1/spaces/nope", "/v1/orgs/", "/v1/nothing", "/v1/spaces/a%2Fb", "/v1/orgs/x"):
        answers = []
        for enabled in (True, False):
            lane.enabled = enabled
            got = await admin.get(url)
            answers.append((got.status_code, got.content, got.headers.get("location")))
        lane.enabled = True
        assert answers[0] == answers[1], url


async def test_an_unexpected_error_in_the_lane_is_one_500_logged_once(
    sandbox_app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    async def lane_boom() -> Response:
        raise ZeroDivisionError("no")

    async def lane_missing() -> Response:
        raise not_found("nothing here")

    sandbox_app.add_api_route("/v1/test-lane-boom", lane_boom)
    sandbox_app.add_api_route("/v1/test-lane-missing", lane_missing)
    assert install_fast_routes(sandbox_app.router.routes) == 2
    transport = httpx.ASGITransport(app=sandbox_app, raise_app_exceptions=True)
    with caplog.at_level(logging.ERROR):
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            handed = _counting(await _lane_of(client, sandbox_app))
            response = await client.get("/v1/test-lane-boom")
            head = await client.head("/v1/test-lane-boom")
            missing = await client.get("/v1/test-lane-missing")
    assert handed == []
    assert "internal error" in error_of(response, 500)
    assert head.status_code == 500 and head.content == b""
    assert error_of(missing, 404) == "nothing here"
    logged = [r for r in caplog.records if r.exc_info and r.exc_info[0] is ZeroDivisionError]
    assert len(logged) == 2, [r.getMessage() for r in caplog.records]
    assert "GET /v1/test-lane-boom" in logged[0].getMessage()
    assert "HEAD /v1/test-lane-boom" in logged[1].getMessage()


async def _lane_of(client: httpx.AsyncClient, app: FastAPI) -> FastLane:
    await client.get("/v1/orgs")
    lane: FastLane = app.state.fast_lane
    return lane
