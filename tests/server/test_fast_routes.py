"""The fast request path (`server/http/fast_routes.py`) answers exactly what FastAPI's own path
answers: every GET of the API, with good and bad query values, tokens and ids, is sent twice,
once through each path, and the two answers must be the same."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute

from docdeck.server import create_app
from docdeck.server.http.fast_routes import SLOW_APP

from ._support import ADMIN, Api, DemoIds
from .test_every_endpoint import ENDPOINTS, fill, read_probes

READS = [path for method, path, _ in ENDPOINTS if method == "GET" and not path.endswith("/pdf")]
QUERIES = [
    "",
    "?limit=1",
    "?limit=0",
    "?limit=-1",
    "?limit=abc",
    "?limit=1001",
    "?limit=1&limit=2",
    "?page=not-a-cursor",
    "?page=",
    "?unknown=1",
    "?limit=%ED%A0%80",
]
HOT = ("/v1/orgs", "/v1/orgs/{organizationId}/spaces", "/v1/spaces/{spaceId}")


def _gets(app: FastAPI) -> list[APIRoute]:
    return [r for r in app.router.routes if isinstance(r, APIRoute) and r.methods == {"GET"}]


@pytest.fixture
def sandbox_app(sandbox_db: Path, clock: Callable[[], datetime]) -> FastAPI:
    """The app with the answer cache off: the same GET is sent down both paths, and the
    second would otherwise be answered from the first's kept answer (`answer_cache`)."""
    return create_app(sandbox_db, clock=clock, public_url="http://sandbox.test", answer_cache=False)


@pytest.fixture
def slow_path(sandbox_app: FastAPI) -> Iterator[list[APIRoute]]:
    """Hands back the routes given the fast path; swap_slow puts FastAPI's own in place."""
    routes = [r for r in _gets(sandbox_app) if hasattr(r, SLOW_APP)]
    fast = {id(r): r.app for r in routes}
    yield routes
    for route in routes:
        route.app = fast[id(route)]


def _swap(routes: list[APIRoute], slow: bool, fast: dict[int, object]) -> None:
    for route in routes:
        route.app = getattr(route, SLOW_APP) if slow else fast[id(route)]  # type: ignore[assignment]


def test_the_hot_reads_and_nearly_every_get_take_the_fast_path(sandbox_app: FastAPI) -> None:
    gets = _gets(sandbox_app)
    fast = {r.path for r in gets if hasattr(r, SLOW_APP)}
    assert set(HOT) <= fast
    assert "/v1/orgs/{organizationId}/members" in fast
    # What keeps FastAPI's path: a handler that does not return a Response itself.
    assert len(fast) >= len(gets) - 4, sorted(r.path for r in gets if r.path not in fast)


@pytest.mark.parametrize("path", READS)
async def test_each_read_answers_the_same_on_both_paths(
    api: Api, ids: DemoIds, slow_path: list[APIRoute], path: str
) -> None:
    fast = {id(r): r.app for r in slow_path}
    for who, url, client in read_probes(api, ids, path, QUERIES):
        answers = []
        for slow in (False, True):
            _swap(slow_path, slow, fast)
            response = await client.get(url)
            answers.append(
                (response.status_code, response.headers.get("content-type"), response.content)
            )
        _swap(slow_path, False, fast)
        assert answers[0] == answers[1], (who, url)


async def test_a_missing_id_and_head_answer_the_same_on_both_paths(
    api: Api, ids: DemoIds, slow_path: list[APIRoute]
) -> None:
    fast = {id(r): r.app for r in slow_path}
    admin = api(ADMIN)
    for url in ("/v1/spaces/nope", f"/v1/orgs/{ids.northwind}/spaces", "/v1/orgs/nope/members"):
        answers = []
        for slow in (False, True):
            _swap(slow_path, slow, fast)
            got = await admin.get(url)
            head = await admin.head(url)
            answers.append(
                (
                    got.status_code,
                    got.content,
                    head.status_code,
                    head.content,
                    head.headers.get("content-length"),
                )
            )
        _swap(slow_path, False, fast)
        assert answers[0] == answers[1], url


CACHED_READS = (
    "/v1/spaces/{space}/content/pages",
    "/v1/spaces/{space}/content/page/{page}?format=markdown",
    "/v1/spaces/{space}/content/page/{page}?format=markdown&evaluated=true",
    "/v1/spaces/{space}/change-requests/{cr}/changes",
    "/v1/spaces/{space}/change-requests/{cr}/changes?limit=1",
    "/v1/spaces/{space}/change-requests/{cr}/content/pages",
)


async def test_kept_content_answers_are_what_fastapis_path_answers(
    sandbox_db: Path, clock: Callable[[], datetime], api: Api, ids: DemoIds
) -> None:
    """The content reads the answer cache keeps: the kept answer (served the second time)
    is byte for byte, headers included, what FastAPI's own path answers, for GET and HEAD."""
    import httpx

    app = create_app(sandbox_db, clock=clock, public_url="http://sandbox.test")
    token = api(ADMIN).headers["Authorization"]
    values = {"space": ids.spaces["Webhooks Guide"], "page": ids.content["page"], "cr": "1"}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://sandbox.test", headers={"Authorization": token}
    ) as client:
        assert (await client.get("/v1/orgs")).status_code == 200  # the lane is built
        lane = app.state.fast_lane
        routes = [r for r in _gets(app) if hasattr(r, SLOW_APP)]
        fast = {id(r): r.app for r in routes}
        for template in CACHED_READS:
            url = fill(template, values)
            made = await client.get(url)
            assert made.status_code == 200, (url, made.text)
            seen: list[str] = []
            conn = app.state.sandbox.db.connection()  # the routes' (this thread's)
            conn.set_trace_callback(seen.append)
            try:
                kept = await client.get(url)
                kept_head = await client.head(url)
            finally:
                conn.set_trace_callback(None)
            assert seen == ["PRAGMA data_version"] * 2, url  # both from the kept answer
            lane.enabled = False
            _swap(routes, True, fast)
            try:
                slow = await client.get(url)
                slow_head = await client.head(url)
            finally:
                _swap(routes, False, fast)
                lane.enabled = True
            for mine, theirs in ((made, slow), (kept, slow), (kept_head, slow_head)):
                assert mine.status_code == theirs.status_code, url
                assert mine.headers.raw == theirs.headers.raw, url
                assert mine.content == theirs.content, url


def test_a_query_string_reads_as_parse_qsl_reads_it() -> None:
    """`_Query` skips `parse_qsl` for a query with nothing to unquote (no `%`, no `+`): its
    pairs must be `parse_qsl`'s all the same, blank values, names without `=`, empty pieces
    and text beyond ASCII included; and the intake's check skips such a query too."""
    from itertools import product
    from urllib.parse import parse_qsl

    from docdeck.server.http.fast_routes import _Query
    from docdeck.server.http.intake import check_url

    pieces = ["a", "=", "&", "%", "+", ";", "é", "%ff", "%41", " "]
    for size in range(1, 5):
        for parts in product(pieces, repeat=size):
            text = "".join(parts)
            expected = parse_qsl(text, keep_blank_values=True)
            assert _Query(text).pairs == expected, text
            assert _Query(text.encode("latin-1")).pairs == expected, text
    scope = {"raw_path": b"/v1/x", "path": "/v1/x"}
    assert check_url(scope | {"query_string": b"format=markdown&a&=b&&c=d=e"}) is None
    assert check_url(scope | {"query_string": b"a=%ff"}) is not None
    assert check_url(scope | {"query_string": b"a=\xff"}) is not None
