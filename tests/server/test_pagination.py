"""Keyset pagination: walking every page while items are added and removed between pages."""

from __future__ import annotations

import httpx
import pytest

from docdeck.server import add_bulk_spaces
from docdeck.server.pagination import decode_cursor, encode_cursor

from ._support import DemoIds, error_of


async def walk(client: httpx.AsyncClient, path: str, limit: int) -> list[dict]:
    items: list[dict] = []
    page: str | None = None
    while True:
        params: dict[str, str | int] = {"limit": limit}
        if page is not None:
            params["page"] = page
        body = (await client.get(path, params=params)).json()
        assert len(body["items"]) <= limit
        items += body["items"]
        if "next" not in body:
            return items
        page = body["next"]["page"]


async def test_walk_every_page(admin: httpx.AsyncClient, ids: DemoIds, sandbox_db) -> None:  # type: ignore[no-untyped-def]
    add_bulk_spaces(sandbox_db, ids.northwind, 120)
    path = f"/v1/orgs/{ids.northwind}/spaces"
    items = await walk(admin, path, 25)
    assert len(items) == 127 and len({s["id"] for s in items}) == 127
    first = (await admin.get(path, params={"limit": 25})).json()
    assert first["count"] == 127
    everything = (await admin.get(path, params={"limit": 1000})).json()
    assert [s["id"] for s in everything["items"]] == [s["id"] for s in items]
    assert "next" not in everything


async def test_default_limit_is_fifty(admin: httpx.AsyncClient, ids: DemoIds, sandbox_db) -> None:  # type: ignore[no-untyped-def]
    add_bulk_spaces(sandbox_db, ids.northwind, 60)
    body = (await admin.get(f"/v1/orgs/{ids.northwind}/spaces")).json()
    assert len(body["items"]) == 50 and body["count"] == 67 and "next" in body


async def test_limit_zero_gives_only_the_count(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    body = (await admin.get(f"/v1/orgs/{ids.northwind}/spaces", params={"limit": 0})).json()
    assert body == {"items": [], "count": 7}


async def test_cursor_survives_inserts_and_deletes_between_pages(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    path = f"/v1/orgs/{ids.northwind}/spaces"
    first = (await admin.get(path, params={"limit": 3})).json()
    seen = [s["id"] for s in first["items"]]
    # Between pages: delete an item already seen and one not yet seen, and add a new one.
    not_yet = (await admin.get(path, params={"limit": 1000})).json()["items"][5]["id"]
    assert (await admin.delete(f"/v1/spaces/{seen[0]}")).status_code == 204
    assert (await admin.delete(f"/v1/spaces/{not_yet}")).status_code == 204
    created = (await admin.post(path, json={"title": "Added while paging"})).json()
    rest = await admin.get(path, params={"limit": 1000, "page": first["next"]["page"]})
    later = [s["id"] for s in rest.json()["items"]]
    assert not set(later) & set(seen), "no item is repeated"
    assert not_yet not in later, "a deleted item is not returned"
    assert created["id"] == later[-1], "an item added at the end shows up"
    remaining = (await admin.get(path, params={"limit": 1000})).json()["items"]
    assert len(seen) - 1 + len(later) == len(remaining), "nothing still present is skipped"


async def test_duplicate_inserted_before_the_cursor_does_not_shift_pages(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    path = f"/v1/collections/{ids.collections['API']}/spaces"
    first = (await admin.get(path, params={"limit": 1})).json()
    assert [s["title"] for s in first["items"]] == ["Public API Reference"]
    await admin.post(f"/v1/spaces/{first['items'][0]['id']}/duplicate")
    rest = (await admin.get(path, params={"page": first["next"]["page"]})).json()
    assert [s["title"] for s in rest["items"]] == ["Public API Reference (copy)", "Webhooks Guide"]


@pytest.mark.parametrize(
    "cursor",
    [
        "!!!",
        "e30",  # {} in base64url
        encode_cursor("members:joinedAt:desc", ["x", "y"]),  # another list's cursor
        encode_cursor("spaces:0", ["x"]),  # wrong width
        encode_cursor("spaces:0", [True, "y"]),
    ],
)
async def test_invalid_cursors_are_400(admin: httpx.AsyncClient, ids: DemoIds, cursor: str) -> None:
    response = await admin.get(f"/v1/orgs/{ids.northwind}/spaces", params={"page": cursor})
    assert "page:" in error_of(response, 400)


def test_cursor_round_trip() -> None:
    cursor = encode_cursor("scope", [1.5, "abc"])
    assert "=" not in cursor
    assert decode_cursor("scope", cursor, 2) == [1.5, "abc"]
