"""Keyset pagination: walking every page while items are added and removed between pages."""

from __future__ import annotations

import base64
import json
import sqlite3
from pathlib import Path

import httpx
import pytest

from docdeck.server import add_bulk_spaces
from docdeck.server.pagination import cursor_scope, decode_cursor, encode_cursor

from ._support import DemoIds, error_of


def secret_of(db: Path) -> bytes:
    conn = sqlite3.connect(db)
    try:
        row = conn.execute("SELECT value FROM sandbox_secrets WHERE name = 'cursor'").fetchone()
        return bytes.fromhex(row[0])
    finally:
        conn.close()


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
    ("scope", "key"),
    [
        (None, "!!!"),
        (None, "e30"),  # {} in base64url
        ("members:joinedAt:desc", ["x", "y"]),  # another list's cursor
        ("spaces:0", ["x", "y"]),  # this list's sort, but no list named
        ("spaces:0@{path}", ["x", "y"]),  # wrong width (the key is one value)
        ("spaces:0@{path}", [True]),
        ("spaces:0@{path}", [{"a": 1}]),
    ],
)
@pytest.mark.parametrize("limit", [0, 10])
async def test_invalid_cursors_are_400(
    admin: httpx.AsyncClient,
    ids: DemoIds,
    sandbox_db: Path,
    scope: str | None,
    key: object,
    limit: int,
) -> None:
    """Signed with this database's own secret, so only the contents are wrong."""
    path = f"/v1/orgs/{ids.northwind}/spaces"
    if scope is None:
        cursor = str(key)
    else:
        sort, _, at = scope.partition("@")
        assert isinstance(key, list)
        cursor = encode_cursor(secret_of(sandbox_db), cursor_scope(path, sort) if at else sort, key)
    response = await admin.get(path, params={"page": cursor, "limit": limit})
    assert "page:" in error_of(response, 400)


async def test_a_well_formed_cursor_of_this_list_is_accepted(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    """The counterpart of the refusals above: the same construction with a valid key works."""
    path = f"/v1/orgs/{ids.northwind}/spaces"
    first = (await admin.get(path, params={"limit": 2})).json()
    secret = secret_of(sandbox_db)
    assert decode_cursor(secret, cursor_scope(path, "spaces:0"), first["next"]["page"], 1)
    rest = await admin.get(path, params={"page": first["next"]["page"], "limit": 0})
    assert rest.status_code == 200 and rest.json()["count"] == 7


@pytest.mark.parametrize(
    ("make", "use"),
    [
        ("/v1/orgs/{lumen}/spaces", "/v1/orgs/{northwind}/spaces"),
        ("/v1/orgs/{northwind}/collections", "/v1/orgs/{lumen}/collections"),
        ("/v1/collections/{api}/spaces", "/v1/collections/{engineering}/spaces"),
        ("/v1/orgs/{lumen}/members", "/v1/orgs/{northwind}/members"),
        ("/v1/orgs/{northwind}/members/{ada}/spaces", "/v1/orgs/{northwind}/members/{chen}/spaces"),
        ("/v1/orgs/{northwind}/teams/{guild}/members", "/v1/orgs/{northwind}/teams/{core}/members"),
    ],
)
async def test_a_cursor_of_another_list_of_the_same_kind_is_refused(
    admin: httpx.AsyncClient, ids: DemoIds, make: str, use: str
) -> None:
    """Keys of one organization's (or collection's) list would silently start another one
    somewhere in the middle; the cursor names its list, so this is a 400."""
    values = {
        "lumen": ids.lumen,
        "northwind": ids.northwind,
        "api": ids.collections["API"],
        "engineering": ids.collections["Engineering"],
        "ada": ids.users["ada@northwind.dev"],
        "chen": ids.users["chen@northwind.dev"],
        "guild": ids.teams["Docs Guild"],
        "core": ids.teams["Platform"],
    }
    make, use = make.format(**values), use.format(**values)
    first = (await admin.get(make, params={"limit": 1})).json()
    cursor = first["next"]["page"]
    assert (await admin.get(make, params={"page": cursor})).status_code == 200
    assert "page:" in error_of(await admin.get(use, params={"page": cursor}), 400)


def test_cursor_round_trip() -> None:
    cursor = encode_cursor(b"secret", "scope", [1.5, "abc"])
    assert "=" not in cursor
    assert decode_cursor(b"secret", "scope", cursor, 2) == [1.5, "abc"]


@pytest.mark.parametrize(
    "key",
    [
        ["2024-01-01T00:00:00.000000Z", "user-1"],
        ['quote " and back\\slash', 7, None, -(2**63)],
        ["Zoë", "x"],  # json.dumps escapes non-ASCII text; orjson would not
        ["tab\there", "del\x7f"],  # controls and DEL, escaped by json.dumps alone
        [1.5, 1e16, "a"],  # floats: `1e+16` against orjson's `1e16`
        [2**64, "big"],  # beyond orjson's integers
        [True, "b"],
    ],
)
def test_a_cursor_is_the_one_json_dumps_made(key: list[object]) -> None:
    """A cursor's payload is written by orjson where that gives json.dumps' very bytes, so
    cursors handed out before are the same cursors (and answers stay byte for byte)."""
    raw = json.dumps({"v": 1, "s": "members:x@1", "k": key}, separators=(",", ":")).encode()
    cursor = encode_cursor(b"secret", "members:x@1", key)
    assert base64.urlsafe_b64decode(cursor.partition(".")[0] + "==") == raw


async def test_team_and_collection_cursors_survive_inserts_and_deletes(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    teams = f"/v1/orgs/{ids.northwind}/teams"
    for title in ("Alpha", "Beta", "Gamma", "Delta"):
        assert (await admin.put(teams, json={"title": title})).status_code == 201
    # Title order: Alpha, Beta, Delta, Docs Guild, Gamma, Platform.
    first = (await admin.get(teams, params={"limit": 2})).json()
    assert [t["title"] for t in first["items"]] == ["Alpha", "Beta"]
    by_title = {t["title"]: t["id"] for t in (await admin.get(teams)).json()["items"]}
    await admin.delete(f"{teams}/{by_title['Alpha']}")  # seen
    await admin.delete(f"{teams}/{by_title['Gamma']}")  # not yet seen
    await admin.put(teams, json={"title": "Aardvark"})  # before the cursor
    await admin.put(teams, json={"title": "Epsilon"})  # after it
    rest = (await admin.get(teams, params={"page": first["next"]["page"]})).json()
    assert [t["title"] for t in rest["items"]] == ["Delta", "Docs Guild", "Epsilon", "Platform"]

    collections = f"/v1/orgs/{ids.northwind}/collections"
    first = (await admin.get(collections, params={"limit": 1})).json()
    assert [c["title"] for c in first["items"]] == ["Engineering"]
    await admin.delete(f"/v1/collections/{ids.collections['API']}")
    added = await admin.post(collections, json={"title": "Legal"})
    nested = await admin.post(
        collections, json={"title": "Runbooks", "parent": first["items"][0]["id"]}
    )
    rest = (await admin.get(collections, params={"page": first["next"]["page"]})).json()
    assert [c["id"] for c in rest["items"]] == [
        nested.json()["id"],
        ids.collections["Company Handbook"],
        added.json()["id"],
    ]


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.mark.parametrize(
    "key",
    [[2**63, "x"], ["\ud800", "x"], [-(2**64), "x"], ["x", 1e400]],
    ids=["int-2^63", "lone-surrogate", "int-below-range", "infinity"],
)
async def test_a_forged_unsigned_cursor_is_400_not_500(
    admin: httpx.AsyncClient, ids: DemoIds, key: list[object]
) -> None:
    """The old cursor was base64 JSON whose scope anyone could compute: a key SQLite cannot
    bind (an integer >= 2^63, a lone surrogate) reached the query and answered 500."""
    path = f"/v1/orgs/{ids.northwind}/teams"
    payload = json.dumps({"s": cursor_scope(path, "teams"), "k": key}).encode()
    response = await admin.get(path, params={"page": _b64(payload)})
    assert "not a valid page cursor" in error_of(response, 400)


async def test_a_tampered_cursor_is_refused_as_such(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    path = f"/v1/orgs/{ids.northwind}/teams"
    cursor = (await admin.get(path, params={"limit": 1})).json()["next"]["page"]
    payload, _, signature = cursor.partition(".")
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    data["k"][0] = "a"  # restart the list elsewhere, keeping the old signature
    tampered = f"{_b64(json.dumps(data).encode())}.{signature}"
    message = error_of(await admin.get(path, params={"page": tampered}), 400)
    assert "was changed, or was made by another sandbox database" in message


async def test_a_cursor_from_another_database_is_refused(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    """Same list, same keys, signed by another sandbox file's secret."""
    path = f"/v1/orgs/{ids.northwind}/teams"
    cursor = (await admin.get(path, params={"limit": 1})).json()["next"]["page"]
    payload = json.loads(base64.urlsafe_b64decode(cursor.split(".")[0] + "=="))
    foreign = encode_cursor(b"another database", payload["s"], payload["k"])
    assert foreign != cursor
    message = error_of(await admin.get(path, params={"page": foreign}), 400)
    assert "made by another sandbox database" in message
    assert secret_of(sandbox_db) != b"another database"


async def test_a_cursor_of_another_cursor_version_is_stale(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    path = f"/v1/orgs/{ids.northwind}/teams"
    raw = json.dumps({"v": 0, "s": cursor_scope(path, "teams"), "k": ["a", "b"]}).encode()
    import hashlib
    import hmac

    signature = hmac.new(secret_of(sandbox_db), raw, hashlib.sha256).digest()[:18]
    stale = f"{_b64(raw)}.{_b64(signature)}"
    message = error_of(await admin.get(path, params={"page": stale}), 400)
    assert "another version of the sandbox (stale)" in message


@pytest.mark.parametrize("key", [[2**63, "x"], ["\ud800", "x"], [1e400, "x"]])
async def test_a_signed_cursor_with_unusable_keys_is_still_checked(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path, key: list[object]
) -> None:
    """Even a correctly signed cursor never hands SQLite a value it cannot bind."""
    path = f"/v1/orgs/{ids.northwind}/teams"
    cursor = encode_cursor(secret_of(sandbox_db), cursor_scope(path, "teams"), key)
    message = error_of(await admin.get(path, params={"page": cursor}), 400)
    assert "sort key this list does not use" in message


@pytest.mark.parametrize("length", [0, 1, 32, 63, 64, 65, 200])
def test_a_cursor_is_signed_with_hmac_sha256_whatever_the_secret(length: int) -> None:
    """The signature is made from an HMAC keyed once per secret (`_keyed`, copied per cursor),
    so a cursor is the one `hmac` signs afresh, for a secret shorter than SHA-256's block,
    as long, or longer (hashed first)."""
    import hashlib
    import hmac

    secret = bytes(range(7, 7 + length)) if length < 249 else b"x" * length
    scope, key = "members:joinedAt:desc@0123456789ab", ["2024-05-01T10:00:00.000001Z", "ü"]
    for _ in range(2):  # the HMAC kept from the first cursor signs the second alike
        payload_text, _, signature_text = encode_cursor(secret, scope, key).partition(".")
        raw = base64.urlsafe_b64decode(payload_text + "==")
        expected = hmac.new(secret, raw, hashlib.sha256).digest()[:18]
        assert base64.urlsafe_b64decode(signature_text + "==") == expected
    assert decode_cursor(secret, scope, encode_cursor(secret, scope, key), 2) == key
