"""Space content over HTTP: link analysis (every status, incremental), file backlinks and
signed file links, and search (ranking, odd queries, limits, following revisions)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from ._content import API_DOCS, _edit, _space
from ._support import ADMIN, READER, Api, DemoIds, error_of


async def test_every_link_status_and_the_filter(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    body = (await admin.get(_space(ids) + "/links", params={"limit": 1000})).json()
    statuses = {item["status"] for item in body["items"]}
    assert statuses == {"ok", "broken", "in-app"}
    broken = [i for i in body["items"] if i["status"] == "broken"]
    hrefs = {i["targetReference"]["url"] for i in broken}
    assert any(h.endswith("legacy-events.md") for h in hrefs)  # a missing page
    assert any(h.endswith("#missing-section") for h in hrefs)  # a missing anchor
    assert any(h.endswith("carrier-logos.zip") for h in hrefs)  # a missing file
    assert body["stats"] == {"total": body["count"], "broken": {"total": len(broken)}}
    only = (await admin.get(_space(ids) + "/links", params={"status": "broken"})).json()
    assert [i["status"] for i in only["items"]] == ["broken"] * len(broken)
    assert only["stats"] == body["stats"], "stats cover the whole list, not the filter"
    in_app = (await admin.get(_space(ids) + "/links", params={"status": "in-app"})).json()
    assert in_app["items"][0]["targetReference"] == {"kind": "url", "url": "/app/orgs/northwind"}
    ok_page = next(i for i in body["items"] if i["targetReference"].get("kind") == "page")
    location = ok_page["locationReferences"][0]
    assert location["kind"] == "page" and location["space"]["id"] == ids.spaces[API_DOCS]
    bad = await admin.get(_space(ids) + "/links", params={"status": "fine"})
    assert "status: must be one of ok, broken, in-app" in error_of(bad, 400)


async def test_a_fixed_link_stops_being_broken(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    events = (await admin.get(_space(ids) + "/content/path/guides/webhooks/event-types")).json()
    links = await admin.get(_space(ids) + f"/content/page/{events['id']}/links")
    assert {i["status"] for i in links.json()["items"]} == {"ok", "broken"}
    _edit(
        sandbox_db,
        ids.spaces[API_DOCS],
        lambda d: d.add_page("Legacy events", parent=d.pages[events["id"]]["parent"]),
    )
    links = await admin.get(_space(ids) + f"/content/page/{events['id']}/links")
    assert {i["status"] for i in links.json()["items"]} == {"ok"}


async def test_file_backlinks(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    files = (await admin.get(_space(ids) + "/content/files")).json()["items"]
    invoice = next(f for f in files if f["name"] == "sample-invoice.pdf")
    body = (await admin.get(_space(ids) + f"/content/files/{invoice['id']}/backlinks")).json()
    assert [loc["page"]["title"] for loc in body["items"]] == ["Invoices"]
    missing = await admin.get(_space(ids) + "/content/files/nope/backlinks")
    assert "file 'nope' not found" in error_of(missing, 404)


async def test_signed_file_links_expire_and_refuse_another_caller(
    api: Api, ids: DemoIds, clock: Any
) -> None:
    admin, reader = api(ADMIN), api(READER)
    files = (await admin.get(_space(ids) + "/content/files")).json()["items"]
    pdf = next(f for f in files if f["name"] == "sample-invoice.pdf")
    url = pdf["downloadURL"].removeprefix("http://sandbox.test")
    anonymous = api(None)
    got = await anonymous.get(url)
    assert got.status_code == 200 and got.content.startswith(b"%PDF")
    assert got.headers["content-type"] == "application/pdf"
    assert (await admin.get(url)).status_code == 200
    assert "another user" in error_of(await reader.get(url), 403)
    tampered = url.replace("signature=", "signature=0")
    assert "bad signature" in error_of(await anonymous.get(tampered), 403)
    clock.advance(timedelta(hours=2))
    assert "expired" in error_of(await anonymous.get(url), 403)


async def test_a_link_stops_working_when_its_user_loses_the_space(
    api: Api, ids: DemoIds, sandbox_db: Path
) -> None:
    reader = api(READER)
    files = (await reader.get(_space(ids) + "/content/files")).json()["items"]
    url = files[0]["downloadURL"].removeprefix("http://sandbox.test")
    assert (await api(None).get(url)).status_code == 200
    removed = await api(ADMIN).delete(f"/v1/orgs/{ids.northwind}/members/{ids.users[READER]}")
    assert removed.status_code in (204, 205)
    assert "no longer read" in error_of(await api(None).get(url), 403)


async def test_search_ranks_title_hits_first_and_groups_sections(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    body = (await admin.get(_space(ids) + "/search", params={"query": "limits"})).json()
    assert body["items"][0]["title"] == "Rate limits"
    first = body["items"][0]
    assert first["path"] == "getting-started/rate-limits"
    assert {s["title"] for s in first["sections"]} >= {"Limits per token"}
    section = next(s for s in first["sections"] if s["title"] == "Limits per token")
    assert section["path"] == "getting-started/rate-limits#limits-per-token"
    prefix = (await admin.get(_space(ids) + "/search", params={"query": "idempot"})).json()
    assert "Idempotency" in [i["title"] for i in prefix["items"]]


@pytest.mark.parametrize(
    "query",
    ['"unbalanced', "AND OR NOT", "NEAR(token", "*", "🙂🚀", "token*", "col:umn", "a" * 512],
)
async def test_odd_queries_never_fail(admin: httpx.AsyncClient, ids: DemoIds, query: str) -> None:
    response = await admin.get(_space(ids) + "/search", params={"query": query})
    assert response.status_code == 200, response.text
    assert isinstance(response.json()["items"], list)


async def test_search_query_limits(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    too_long = await admin.get(_space(ids) + "/search", params={"query": "a" * 513})
    assert "query: must be at most 512 characters" in error_of(too_long, 400)
    blank = await admin.get(_space(ids) + "/search", params={"query": "   "})
    assert "query: must not be empty" in error_of(blank, 400)
    missing = await admin.get(_space(ids) + "/search")
    assert "query: is required" in error_of(missing, 400)


async def test_the_search_index_follows_new_revisions(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    page = (await admin.get(_space(ids) + "/content/path/reference/versioning")).json()
    _edit(
        sandbox_db,
        ids.spaces[API_DOCS],
        lambda d: d.set_markdown(page["id"], "# Versioning\n\nZanzibar semantics.\n"),
    )

    async def titles(query: str) -> list[str]:
        body = (await admin.get(_space(ids) + "/search", params={"query": query})).json()
        return [i["title"] for i in body["items"]]

    assert await titles("zanzibar") == ["Versioning"]
    assert "Versioning" not in await titles("additive")


async def test_incremental_link_analysis_agrees_with_a_full_one(
    admin: httpx.AsyncClient,
    ids: DemoIds,
    sandbox_db: Path,
    sandbox_app: FastAPI,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from docdeck.server.content import snapshots

    url = _space(ids) + "/links"
    before = (await admin.get(url, params={"limit": 1000})).json()  # the parent's, in memory
    assert any(
        i["targetReference"].get("url", "").endswith("#missing-section") for i in before["items"]
    )
    lifecycle = (
        await admin.get(_space(ids) + "/content/path/guides/orders/order-lifecycle")
    ).json()
    markdown = (
        await admin.get(
            _space(ids) + f"/content/page/{lifecycle['id']}", params={"format": "markdown"}
        )
    ).json()["markdown"]
    _edit(
        sandbox_db,
        ids.spaces[API_DOCS],
        lambda d: d.set_markdown(lifecycle["id"], markdown + "\n## Missing section\n\nFound.\n"),
    )
    incremental = (await admin.get(url, params={"limit": 1000})).json()
    assert not any(
        i["targetReference"].get("url", "").endswith("#missing-section")
        for i in incremental["items"]
    )
    assert incremental["stats"]["broken"]["total"] == before["stats"]["broken"]["total"] - 1
    monkeypatch.setattr(snapshots, "_cache", snapshots._Cache(8))  # nothing derived in memory
    sandbox_app.state.fast_lane.cache.clear()  # nor the answer just given (`answer_cache`)
    full = (await admin.get(url, params={"limit": 1000})).json()
    assert full == incremental


async def test_incremental_link_analysis_without_moved_anchors_agrees_with_a_full_one(
    admin: httpx.AsyncClient,
    ids: DemoIds,
    sandbox_db: Path,
    sandbox_app: FastAPI,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A body edit that keeps every heading: the other pages' links are reused as they are."""
    from docdeck.server.content import snapshots

    url = _space(ids) + "/links"
    before = (await admin.get(url, params={"limit": 1000})).json()  # the parent's, in memory
    lifecycle = (
        await admin.get(_space(ids) + "/content/path/guides/orders/order-lifecycle")
    ).json()
    markdown = (
        await admin.get(
            _space(ids) + f"/content/page/{lifecycle['id']}", params={"format": "markdown"}
        )
    ).json()["markdown"]
    _edit(
        sandbox_db,
        ids.spaces[API_DOCS],
        lambda d: d.set_markdown(lifecycle["id"], markdown + "\nSee [nowhere](./no-such-page).\n"),
    )
    other = next(
        where["page"]["id"]
        for item in before["items"]
        for where in item["locationReferences"]
        if where["page"]["id"] != lifecycle["id"]
    )
    page_links = _space(ids) + f"/content/page/{other}/links"
    incremental = (await admin.get(url, params={"limit": 1000})).json()
    incremental_page = (await admin.get(page_links, params={"limit": 1000})).json()
    assert incremental_page["items"]  # a page the edit did not touch keeps its links
    assert incremental["stats"]["broken"]["total"] == before["stats"]["broken"]["total"] + 1
    monkeypatch.setattr(snapshots, "_cache", snapshots._Cache(8))  # nothing derived in memory
    sandbox_app.state.fast_lane.cache.clear()  # nor the answer just given (`answer_cache`)
    full = (await admin.get(url, params={"limit": 1000})).json()
    assert full == incremental
    assert (await admin.get(page_links, params={"limit": 1000})).json() == incremental_page
