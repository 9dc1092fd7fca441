"""OpenAPI specs: create, replace, visibility, delete, versions, and real background
processing against a loopback server (good documents and hostile ones)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from docdeck.server import create_app
from docdeck.server.content.fetch import ImportPolicy
from docdeck.server.openapi_specs.processing import SpecLimits

from ._spec_server import spec_server
from ._support import ADMIN, CREATOR, EDITOR, GUEST, LUMEN_ADMIN, DemoIds, error_of

SHORT = SpecLimits(max_bytes=1_000_000, timeout=0.5, deadline=2.0)


@pytest.fixture
def origin() -> Iterator[str]:
    with spec_server() as url:
        yield url


@pytest.fixture
def loopback_app(sandbox_db: Path, clock: Any) -> FastAPI:
    """The sandbox allowed to fetch from 127.0.0.1 (as `--allow-loopback-import`), with
    short fetch limits."""
    app = create_app(
        sandbox_db,
        clock=clock,
        public_url="http://sandbox.test",
        import_policy=ImportPolicy(allow_loopback=True),
    )
    app.state.openapi_spec_limits = SHORT
    return app


@pytest.fixture
async def client(loopback_app: FastAPI, token_for: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=loopback_app),
        base_url="http://sandbox.test",
        headers={"Authorization": f"Bearer {token_for(ADMIN)}"},
    ) as c:
        yield c


async def processed(client: httpx.AsyncClient, path: str, timeout: float = 15) -> dict[str, Any]:
    """The spec once its processing is complete (polled; fails after `timeout` s)."""
    ends = time.monotonic() + timeout
    while True:
        spec: dict[str, Any] = (await client.get(path)).json()
        if spec["processingState"] == "complete":
            return spec
        assert time.monotonic() < ends, f"still {spec['processingState']} after {timeout} s"
        await asyncio.sleep(0.05)


async def test_demo_specs(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    base = f"/v1/orgs/{ids.northwind}/openapi"
    listed = (await admin.get(base)).json()
    by_slug = {s["slug"]: s for s in listed["items"]}
    assert set(by_slug) == {"billing", "docdeck-sandbox", "petstore", "webhooks"}
    assert by_slug["billing"]["lastProcessErrorCode"] == "FETCH_TIMEOUT"
    assert by_slug["webhooks"]["processingState"] == "complete"
    assert "published" not in by_slug["webhooks"]["urls"]
    published = by_slug["petstore"]["urls"]["published"]
    raw = await admin.get(published.removeprefix("http://sandbox.test"))
    assert raw.status_code == 200 and raw.json()["swagger"] == "2.0"
    # the sandbox's own document, read in-process on the first read
    own = await processed(admin, f"{base}/docdeck-sandbox", timeout=60)
    assert own["sourceURL"] == "http://sandbox.test/openapi.json"
    assert "lastProcessErrorCode" not in own
    content = (await admin.get(f"{base}/docdeck-sandbox/versions/latest/content")).json()
    assert "/v1/orgs/{organizationId}/openapi" in content["filesystem"]["paths"]


async def test_create_process_version_and_replace(
    client: httpx.AsyncClient, ids: DemoIds, origin: str
) -> None:
    base = f"/v1/orgs/{ids.northwind}/openapi"
    created = await client.post(
        base, json={"slug": "loop", "source": {"url": f"{origin}/good.json"}}
    )
    assert created.status_code == 201, created.text
    assert created.json()["processingState"] in ("pending", "progress")
    spec = await processed(client, f"{base}/loop")
    assert "lastProcessErrorCode" not in spec and spec["lastVersion"]
    first = spec["lastVersion"]
    latest = (await client.get(f"{base}/loop/versions/latest")).json()
    assert latest["id"] == first and latest["url"] == f"{origin}/good.json"
    content = (await client.get(f"{base}/loop/versions/{first}/content")).json()
    assert content["filesystem"]["info"]["title"] == "Loopback"
    # the same text again: no new version
    again = await client.put(f"{base}/loop", json={"source": {"url": f"{origin}/good.json"}})
    assert again.status_code == 200
    spec = await processed(client, f"{base}/loop")
    assert spec["lastVersion"] == first
    # a changed text (YAML): a new version, newest first
    await client.put(f"{base}/loop", json={"source": {"url": f"{origin}/good.yaml"}})
    spec = await processed(client, f"{base}/loop")
    assert spec["lastVersion"] != first
    versions = (await client.get(f"{base}/loop/versions")).json()["items"]
    assert [v["id"] for v in versions] == [spec["lastVersion"], first]
    latest_content = (await client.get(f"{base}/loop/versions/latest/content")).json()
    assert latest_content["filesystem"]["openapi"] == "3.1.0"


async def test_put_creates_from_text(client: httpx.AsyncClient, ids: DemoIds) -> None:
    base = f"/v1/orgs/{ids.northwind}/openapi"
    text = "swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {}\n"
    made = await client.put(f"{base}/from-text", json={"source": {"text": text}})
    assert made.status_code == 201, made.text
    spec = await processed(client, f"{base}/from-text")
    assert "lastProcessErrorCode" not in spec
    version = (await client.get(f"{base}/from-text/versions/latest")).json()
    assert version["url"].startswith("http://sandbox.test/openapi/")
    # private: its text is not served
    private = await client.get(version["url"].removeprefix("http://sandbox.test"))
    assert private.status_code == 404
    public = await client.patch(f"{base}/from-text", json={"visibility": "public"})
    assert public.status_code == 200 and public.json()["urls"]["published"]
    served = await client.get(version["url"].removeprefix("http://sandbox.test"))
    assert served.status_code == 200 and "swagger" in served.text
    hidden = (await client.patch(f"{base}/from-text", json={"visibility": "private"})).json()
    assert "published" not in hidden["urls"]


@pytest.mark.parametrize(
    ("path", "code", "words"),
    [
        ("/never", "FETCH_TIMEOUT", "did not answer"),
        ("/endless", "FETCH_ERROR", "larger than"),
        ("/ten-mb.json", "FETCH_ERROR", "larger than"),
        ("/to-metadata", "FETCH_ERROR", "link-local"),
        ("/missing", "FETCH_ERROR", "404"),
        ("/not-openapi.json", "PARSE_ERROR", "openapi"),
        ("/broken.yaml", "PARSE_ERROR", "YAML"),
    ],
)
async def test_hostile_sources_fail_with_a_code(
    client: httpx.AsyncClient,
    ids: DemoIds,
    origin: str,
    loopback_app: FastAPI,
    path: str,
    code: str,
    words: str,
) -> None:
    base = f"/v1/orgs/{ids.northwind}/openapi"
    started = time.monotonic()
    made = await client.post(base, json={"slug": "hostile", "source": {"url": origin + path}})
    assert made.status_code == 201
    spec = await processed(client, f"{base}/hostile")
    assert time.monotonic() - started < SHORT.deadline + 8
    assert spec["lastProcessErrorCode"] == code
    assert spec["lastProcessedAt"]
    assert "lastVersion" not in spec
    with loopback_app.state.sandbox.db.read() as conn:
        (why,) = conn.execute(
            "SELECT last_error FROM openapi_specs WHERE slug = 'hostile'"
        ).fetchone()
    assert words.lower() in why.lower()
    error_of(await client.get(f"{base}/hostile/versions/latest"), 404)


async def test_loopback_refused_without_the_flag(
    admin: httpx.AsyncClient, ids: DemoIds, origin: str
) -> None:
    base = f"/v1/orgs/{ids.northwind}/openapi"
    await admin.post(base, json={"slug": "local", "source": {"url": f"{origin}/good.json"}})
    spec = await processed(admin, f"{base}/local")
    assert spec["lastProcessErrorCode"] == "FETCH_ERROR"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"slug": "Bad Slug", "source": {"text": "x"}}, "slug"),
        ({"slug": "a" * 101, "source": {"text": "x"}}, "slug"),
        ({"slug": "ok", "source": {"text": ""}}, "text"),
        ({"slug": "ok", "source": {"url": "ftp://example.com/x"}}, "source.url"),
        ({"slug": "ok", "source": {"url": "https://x/" + "a" * 2048}}, "url"),
        ({"slug": "ok", "source": {"url": "https://x", "text": "y"}}, "source"),
        ({"slug": "ok"}, "source"),
        ({"slug": "ok", "source": {"text": "x"}, "extra": 1}, "extra"),
        ({"slug": "webhooks", "source": {"text": "x"}}, "already"),
    ],
)
async def test_create_refuses_bad_bodies(
    admin: httpx.AsyncClient, ids: DemoIds, body: dict[str, Any], words: str
) -> None:
    message = error_of(await admin.post(f"/v1/orgs/{ids.northwind}/openapi", json=body), 400)
    assert words in message


async def test_hostile_text_bodies(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    base = f"/v1/orgs/{ids.northwind}/openapi"
    lone = b'{"slug": "s", "source": {"text": "\\ud800"}}'
    response = await admin.post(base, content=lone, headers={"Content-Type": "application/json"})
    error_of(response, 400)
    huge = {"slug": "huge", "source": {"text": "a" * (10 * 1024 * 1024)}}
    assert (await admin.post(base, json=huge)).status_code == 413
    error_of(await admin.put(f"{base}/Not_A_Slug", json={"source": {"text": "x"}}), 400)


async def test_roles_and_unknowns(api: Any, ids: DemoIds) -> None:
    base = f"/v1/orgs/{ids.northwind}/openapi"
    body = {"slug": "mine", "source": {"text": "openapi: 3.0.0"}}
    error_of(await api(EDITOR).post(base, json=body), 403)
    error_of(await api(EDITOR).patch(f"{base}/webhooks", json={"visibility": "public"}), 403)
    error_of(await api(EDITOR).delete(f"{base}/webhooks"), 403)
    assert (await api(CREATOR).post(base, json=body)).status_code == 201
    assert (await api(EDITOR).get(f"{base}/webhooks")).json()["permissions"] == {
        "view": True,
        "edit": False,
    }
    error_of(await api(GUEST).get(base), 403)
    error_of(await api(LUMEN_ADMIN).get(f"{base}/webhooks"), 404)
    error_of(await api(ADMIN).get(f"{base}/nope"), 404)
    error_of(await api(ADMIN).get(f"{base}/webhooks/versions/nope"), 404)
    error_of(await api(ADMIN).get(f"{base}/webhooks/versions/nope/content"), 404)
    assert (await api(ADMIN).delete(f"{base}/nope")).status_code == 204
    assert (await api(ADMIN).delete(f"{base}/webhooks")).status_code == 204
    error_of(await api(ADMIN).get(f"{base}/webhooks"), 404)
    assert (await api(ADMIN).delete(f"{base}/webhooks")).status_code == 204
