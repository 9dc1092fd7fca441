"""Inputs that used to reach SQLite or the store unchecked: lone surrogates anywhere in a body,
a path or a query value; titles nobody can see; an `emoji` that is no emoji; deep or huge JSON.
Each is a 400 naming the field, and nothing changes."""

from __future__ import annotations

import json

import httpx
import pytest

from ._support import ADMIN, Api, DemoIds, error_of
from .test_validation import COLL, ORG, SPACE, TEAM, _fill, _snapshot, _values


def _raw(body: object) -> bytes:
    """JSON as a client would send it: `ensure_ascii` writes a lone surrogate as `\\ud800`."""
    return json.dumps(body, ensure_ascii=True).encode()


SURROGATES: list[tuple[str, str, object, str]] = [
    ("PUT", TEAM + "/members", {"add": ["\ud800"]}, "add[0]: must be valid Unicode"),
    ("PUT", TEAM + "/members", {"remove": ["ok", "x\udc00"]}, "remove[1]: must be valid Unicode"),
    (
        "PUT",
        TEAM + "/members",
        {"memberships": {"\ud800": {"role": "owner"}}},
        "memberships: a field name must be valid Unicode",
    ),
    ("PUT", ORG + "/teams", {"title": "T", "members": ["\udfff"]}, "members[0]: must be valid"),
    ("POST", ORG + "/spaces", {"parent": "\ud800"}, "parent: must be valid Unicode"),
    ("POST", ORG + "/collections", {"parent": "\ud800"}, "parent: must be valid Unicode"),
    ("POST", SPACE + "/transfer", {"organization": "\ud800"}, "organization: must be valid"),
    ("POST", COLL + "/transfer", {"organization": "\ud800"}, "organization: must be valid"),
    (
        "POST",
        COLL + "/move",
        {"position": {"before": {"type": "space", "space": "\udfff"}}},
        "position.before.space: must be valid Unicode",
    ),
    ("PATCH", SPACE, {"title": "a\ud800"}, "title: must be valid Unicode"),
    ("PATCH", ORG, {"emailDomains": ["\ud800.dev"]}, "emailDomains[0]: must be valid Unicode"),
    ("PATCH", TEAM, {"title": "\ud83d"}, "title: must be valid Unicode"),
]


@pytest.mark.parametrize(("method", "path", "body", "fragment"), SURROGATES)
async def test_a_lone_surrogate_anywhere_in_a_body_is_400_naming_the_field(
    api: Api, ids: DemoIds, method: str, path: str, body: object, fragment: str
) -> None:
    values = _values(ids)
    before = await _snapshot(api, ids)
    response = await api(ADMIN).request(
        method,
        str(_fill(path, values)),
        content=_raw(_fill(body, values)),
        headers={"Content-Type": "application/json"},
    )
    assert fragment in error_of(response, 400)
    assert await _snapshot(api, ids) == before


async def test_a_surrogate_encoded_as_utf8_bytes_is_400(admin: httpx.AsyncClient) -> None:
    """CESU-style bytes ED A0 80: Python's JSON decoder lets them through as a surrogate."""
    response = await admin.patch(
        "/v1/orgs/x",
        content=b'{"title": "ab\xed\xa0\x80"}',
        headers={"Content-Type": "application/json"},
    )
    assert "title: must be valid Unicode" in error_of(response, 400)


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        (ORG + "/teams?title=%ED%A0%80", "'title': must be valid UTF-8"),
        (ORG + "/members?limit=5&sort=%FF", "'sort': must be valid UTF-8"),
        (ORG + "/spaces?page=%ED%B0%80", "'page': must be valid UTF-8"),
        ("/v1/spaces/%ED%A0%80", "path: must be valid UTF-8"),
        ("/v1/orgs/%ED%A0%80/spaces", "path: must be valid UTF-8"),
    ],
)
async def test_invalid_utf8_in_a_path_or_query_value_is_400(
    admin: httpx.AsyncClient, ids: DemoIds, url: str, fragment: str
) -> None:
    """Decoded leniently, these became U+FFFD and the request went on with another value."""
    response = await admin.get(str(_fill(url, _values(ids))))
    assert fragment in error_of(response, 400)


INVISIBLE = ["\u200b\u200b", "\u200b \u2060", "\ufeff\u200d", "\u3164\u3164", " \u00a0 "]
TITLE_ENDPOINTS = [
    ("POST", ORG + "/spaces"),
    ("PATCH", SPACE),
    ("POST", ORG + "/collections"),
    ("PATCH", COLL),
    ("PUT", ORG + "/teams"),
    ("PATCH", TEAM),
    ("PATCH", ORG),
]


@pytest.mark.parametrize(("method", "path"), TITLE_ENDPOINTS)
@pytest.mark.parametrize("title", INVISIBLE)
async def test_a_title_of_only_invisible_characters_is_refused(
    api: Api, ids: DemoIds, method: str, path: str, title: str
) -> None:
    before = await _snapshot(api, ids)
    response = await api(ADMIN).request(
        method, str(_fill(path, _values(ids))), json={"title": title}
    )
    assert "title: must not be empty" in error_of(response, 400)
    assert await _snapshot(api, ids) == before


@pytest.mark.parametrize(("method", "path"), TITLE_ENDPOINTS)
@pytest.mark.parametrize("title", ["Docs\x00", "Two\nlines", "\x07Bell"])
async def test_a_title_with_a_control_character_is_refused(
    api: Api, ids: DemoIds, method: str, path: str, title: str
) -> None:
    before = await _snapshot(api, ids)
    response = await api(ADMIN).request(
        method, str(_fill(path, _values(ids))), json={"title": title}
    )
    assert "title: must not contain control characters (found U+" in error_of(response, 400)
    assert await _snapshot(api, ids) == before


@pytest.mark.parametrize("emoji", ["x", "hello", "🎉🎉", ":tada:", "\u200d", "1f389zz", "110000"])
async def test_an_emoji_must_be_one_emoji(
    admin: httpx.AsyncClient, ids: DemoIds, emoji: str
) -> None:
    path = f"/v1/spaces/{ids.spaces['Webhooks Guide']}"
    message = error_of(await admin.patch(path, json={"emoji": emoji}), 400)
    assert message.startswith("emoji: must be one emoji")
    created = await admin.post(f"/v1/orgs/{ids.northwind}/spaces", json={"emoji": emoji})
    assert error_of(created, 400).startswith("emoji: must be one emoji")


@pytest.mark.parametrize(
    "emoji", ["🎉", "👨‍👩‍👧", "🇫🇷", "🗞️", "1️⃣", "1f389", "U+1F389", "1f468-200d-1f469-200d-1f467"]
)
async def test_an_emoji_character_or_codepoint_is_accepted(
    admin: httpx.AsyncClient, ids: DemoIds, emoji: str
) -> None:
    path = f"/v1/spaces/{ids.spaces['Webhooks Guide']}"
    response = await admin.patch(path, json={"emoji": emoji})
    assert response.status_code == 200, response.text
    assert response.json()["emoji"] == emoji


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("x" * 42 + "👍🏽", "x" * 42 + " (copy)"),  # thumbs up + skin tone: 2 code points
        ("e" * 42 + "e\u0301", "e" * 42 + " (copy)"),  # e + combining acute accent
        ("Guide " + "🇫🇷" * 19, "Guide " + "🇫🇷" * 18 + " (copy)"),  # flags are 2 code points
        ("short", "short (copy)"),
    ],
)
async def test_duplicating_cuts_the_title_at_a_grapheme_boundary(
    admin: httpx.AsyncClient, ids: DemoIds, title: str, expected: str
) -> None:
    created = await admin.post(f"/v1/orgs/{ids.northwind}/spaces", json={"title": title})
    assert created.status_code == 201, created.text
    copy = await admin.post(f"/v1/spaces/{created.json()['id']}/duplicate")
    assert copy.status_code == 201
    assert copy.json()["title"] == expected
    assert len(copy.json()["title"]) <= 50


def _nested(depth: int) -> object:
    value: object = "x"
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"title": _nested(40)}, "JSON nested deeper than 32 levels"),
        (None, "body: JSON nested deeper than 32 levels"),  # 100,000 brackets
    ],
)
async def test_deeply_nested_json_is_400(
    admin: httpx.AsyncClient, ids: DemoIds, body: object, fragment: str
) -> None:
    content = b"[" * 100_000 + b"]" * 100_000 if body is None else _raw(body)
    response = await admin.patch(
        f"/v1/orgs/{ids.northwind}", content=content, headers={"Content-Type": "application/json"}
    )
    assert fragment in error_of(response, 400)


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"add": ["nobody"] * 1001}, "add: at most 1000 items (got 1,001)"),
        ({"memberships": {f"u{i}": {"role": "owner"} for i in range(1001)}}, "at most 1000 fields"),
    ],
)
async def test_arrays_and_maps_in_bodies_are_bounded(
    api: Api, ids: DemoIds, body: object, fragment: str
) -> None:
    before = await _snapshot(api, ids)
    path = str(_fill(TEAM + "/members", _values(ids)))
    assert fragment in error_of(await api(ADMIN).put(path, json=body), 400)
    assert await _snapshot(api, ids) == before


async def test_an_error_names_at_most_ten_unknown_items(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    refs = [f"nobody{i}@nowhere.dev" for i in range(1000)]
    path = str(_fill(TEAM + "/members", _values(ids)))
    message = error_of(await admin.put(path, json={"add": refs}), 400)
    assert message.count("@nowhere.dev") == 10
    assert "… and 990 more" in message and len(message) < 1000


async def test_many_field_errors_are_capped_too(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    path = str(_fill(TEAM + "/members", _values(ids)))
    message = error_of(await admin.put(path, json={"add": list(range(1000))}), 400)
    assert message.count("must be a string") == 10 and "… and 990 more" in message


async def test_a_long_value_is_shortened_in_a_message(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    path = str(_fill(TEAM + "/members", _values(ids)))
    message = error_of(await admin.put(path, json={"add": ["z" * 100_000]}), 400)
    assert "…" in message and len(message) < 400
