"""Bad input on every endpoint of the slice that takes a body or a filter: a 400 whose message
names the field, never a 422 or a 500, and nothing changes.

One table for the whole slice, so a limit or a type check missing on one endpoint shows up
next to the same check on the others."""

from __future__ import annotations

import pytest

from ._support import ADMIN, Api, DemoIds, error_of

ORG = "/v1/orgs/{org}"
TEAM = ORG + "/teams/{team}"
MEMBER = ORG + "/members/{user}"
COLL = "/v1/collections/{coll}"
SPACE = "/v1/spaces/{space}"

# method, path, JSON body, a fragment the message must contain
BAD_BODIES: list[tuple[str, str, object, str]] = [
    # Wrong JSON types: no coercion of strings or numbers into booleans, numbers into strings.
    ("PATCH", ORG, {"sso": "yes"}, "sso: must be true or false"),
    ("PATCH", ORG, {"ai": 1}, "ai: must be true or false"),
    ("PATCH", ORG, {"inviteLinks": "false"}, "inviteLinks: must be true or false"),
    ("PATCH", ORG, {"title": 12}, "title: must be a string"),
    ("PATCH", ORG, {"emailDomains": "northwind.dev"}, "emailDomains: must be an array"),
    ("PATCH", ORG, {"emailDomains": [7]}, "emailDomains[0]: must be a string"),
    ("PATCH", ORG, {"defaultContent": "site"}, "defaultContent: must be a JSON object"),
    ("PATCH", MEMBER, {"role": 3}, "role: must be one of"),
    ("PUT", ORG + "/teams", {"title": True}, "title: must be a string"),
    ("PUT", ORG + "/teams", {"title": "T", "members": "ada@northwind.dev"}, "members: must be"),
    ("PATCH", TEAM, {"title": ["x"]}, "title: must be a string"),
    ("PUT", TEAM + "/members", {"add": "kofi@northwind.dev"}, "add: must be an array"),
    ("PUT", TEAM + "/members", {"remove": [1]}, "remove[0]: must be a string"),
    ("PUT", TEAM + "/members", {"memberships": []}, "memberships: must be a JSON object"),
    ("PUT", TEAM + "/members/{user}", {"role": 1}, "role: must be one of owner, member"),
    ("POST", ORG + "/collections", {"title": 5}, "title: must be a string"),
    ("POST", ORG + "/collections", {"parent": 5}, "parent: must be a string"),
    ("PATCH", COLL, {"description": False}, "description: must be a string"),
    ("POST", COLL + "/move", {"parent": 1}, "parent: must be a string"),
    ("POST", COLL + "/move", {"position": "end"}, "position: must be a JSON object"),
    ("POST", COLL + "/transfer", {"organization": 1}, "organization: must be a string"),
    ("POST", ORG + "/spaces", {"title": 1.5}, "title: must be a string"),
    ("POST", ORG + "/spaces", {"emoji": 128512}, "emoji: must be a string"),
    ("POST", ORG + "/spaces", {"template": "blank"}, "template: must be a JSON object"),
    ("PATCH", SPACE, {"editMode": True}, "editMode: must be one of live, locked"),
    ("PATCH", SPACE, {"icon": 1}, "icon: must be a string"),
    ("POST", SPACE + "/move", {"parent": ["x"]}, "parent: must be a string"),
    ("POST", SPACE + "/transfer", {"organization": None}, "organization: must be a string"),
    # Limits and patterns of the reference and of the platform's schemas.
    ("PATCH", ORG, {"title": "N"}, "title: must be at least 2 characters"),
    ("PATCH", ORG, {"title": "N" * 256}, "title: must be at most 255 characters"),
    ("PATCH", ORG, {"hostname": "nw"}, "hostname: must be at least 3 characters"),
    ("PATCH", ORG, {"hostname": "-northwind"}, "hostname:"),
    ("PATCH", ORG, {"hostname": "x" * 33}, "hostname: must be at most 32 characters"),
    ("PATCH", ORG, {"logo": "https://" + "x" * 2041}, "logo: must be at most 2048 characters"),
    ("PATCH", ORG, {"logo": "logo.png"}, "logo: must be an http(s) URL"),
    ("PATCH", ORG, {"emailDomains": ["not a domain"]}, "emailDomains[0]:"),
    ("PUT", ORG + "/teams", {"title": ""}, "title: must not be empty"),
    ("PUT", ORG + "/teams", {"title": "x" * 65}, "title: must be at most 64 characters"),
    ("PATCH", TEAM, {"title": "x" * 65}, "title: must be at most 64 characters"),
    ("POST", ORG + "/collections", {"title": "x" * 51}, "title: must be at most 50 characters"),
    ("PATCH", COLL, {"title": "x" * 51}, "title: must be at most 50 characters"),
    ("PATCH", COLL, {"description": "x" * 101}, "description: must be at most 100 characters"),
    ("POST", ORG + "/spaces", {"title": "x" * 51}, "title: must be at most 50 characters"),
    ("POST", ORG + "/spaces", {"emoji": "x" * 51}, "emoji: must be at most 50 characters"),
    ("PATCH", SPACE, {"title": "x" * 51}, "title: must be at most 50 characters"),
    ("PATCH", SPACE, {"emoji": "x" * 51}, "emoji: must be at most 50 characters"),
    ("PATCH", SPACE, {"icon": "https://" + "x" * 2041}, "icon: must be at most 2048 characters"),
    # Enumerations.
    ("PATCH", ORG, {"defaultRole": "owner"}, "defaultRole: must be one of"),
    ("PATCH", ORG, {"defaultContent": {"type": "space", "site": "s"}}, "defaultContent.type:"),
    ("PATCH", MEMBER, {"role": "guest"}, "role: must be one of"),
    ("PUT", TEAM + "/members/{user}", {"role": "admin"}, "role: must be one of owner, member"),
    ("PUT", TEAM + "/members", {"memberships": {"{user}": {"role": "x"}}}, ".role: must be one"),
    ("PATCH", COLL, {"defaultLevel": "guest"}, "defaultLevel: must be one of"),
    ("POST", ORG + "/spaces", {"editMode": "draft"}, "editMode: must be one of live, locked"),
    ("PATCH", SPACE, {"defaultLevel": "everyone"}, "defaultLevel: must be one of"),
    (
        "POST",
        SPACE + "/move",
        {"position": {"before": {"type": "page", "page": "p"}}},
        "position.before.type: must be one of space, collection",
    ),
    # Unknown fields.
    ("PATCH", ORG, {"plan": "pro_2024"}, "plan: is not a known field"),
    ("PATCH", MEMBER, {"role": "read", "sso": True}, "sso: is not a known field"),
    ("PUT", ORG + "/teams", {"title": "T", "owner": "x"}, "owner: is not a known field"),
    ("PUT", TEAM + "/members", {"owners": []}, "owners: is not a known field"),
    ("POST", ORG + "/collections", {"description": "d"}, "description: is not a known field"),
    ("POST", COLL + "/transfer", {"organization": "{lumen}", "x": 1}, "x: is not a known field"),
    ("POST", ORG + "/spaces", {"visibility": "public"}, "visibility: is not a known field"),
    ("PATCH", SPACE, {"visibility": "public"}, "visibility: is not a known field"),
    ("POST", SPACE + "/move", {"parent": None, "index": 0}, "index: is not a known field"),
    # Bodies that are not a JSON object.
    ("PATCH", ORG, [], "body: must be a JSON object"),
    ("PUT", TEAM + "/members", "add", "body: must be a JSON object"),
    ("POST", SPACE + "/move", 3, "body: must be a JSON object"),
]

BAD_QUERIES: list[tuple[str, dict[str, str], str]] = [
    ("/v1/orgs", {"limit": "-1"}, "limit: must be at least 0"),
    ("/v1/orgs", {"limit": "1001"}, "limit: must be at most 1000"),
    ("/v1/orgs", {"limit": "ten"}, "limit: must be an integer"),
    (ORG + "/spaces", {"limit": "2.5"}, "limit: must be an integer"),
    (ORG + "/spaces", {"page": "not-a-cursor"}, "page:"),
    (ORG + "/spaces", {"deleted": "perhaps"}, "deleted: must be true or false"),
    (ORG + "/collections", {"nested": "perhaps"}, "nested: must be true or false"),
    (ORG + "/search", {}, "query: is required"),
    (ORG + "/search", {"query": ""}, "query: must not be empty"),
    (ORG + "/search", {"query": "q" * 513}, "query: must be at most 512 characters"),
    (ORG + "/members", {"role": "owner"}, "role: must be one of"),
    (ORG + "/members", {"sort": "name"}, "sort: must be one of joinedAt, lastSeenAt"),
    (ORG + "/members", {"order": "newest"}, "order: must be one of asc, desc"),
    (MEMBER + "/spaces", {"order": "up"}, "order: must be one of asc, desc"),
    (MEMBER + "/teams", {"limit": "1001"}, "limit: must be at most 1000"),
    (ORG + "/teams", {"limit": "-5"}, "limit: must be at least 0"),
    (TEAM + "/members", {"page": "e30"}, "page:"),
    (COLL + "/spaces", {"limit": "x"}, "limit: must be an integer"),
]


def _values(ids: DemoIds) -> dict[str, str]:
    return {
        "org": ids.northwind,
        "lumen": ids.lumen,
        "team": ids.teams["Platform"],
        "user": ids.users["freya@northwind.dev"],
        "coll": ids.collections["API"],
        "space": ids.spaces["Webhooks Guide"],
    }


def _fill(value: object, values: dict[str, str]) -> object:
    if isinstance(value, str):
        for key, replacement in values.items():
            value = value.replace("{" + key + "}", replacement)
        return value
    if isinstance(value, list):
        return [_fill(v, values) for v in value]
    if isinstance(value, dict):
        return {_fill(k, values): _fill(v, values) for k, v in value.items()}
    return value


async def _snapshot(api: Api, ids: DemoIds) -> list[object]:
    """What the bad requests could have changed, read back as the admin."""
    client = api(ADMIN)
    values = _values(ids)
    paths = [
        f"/v1/orgs/{ids.northwind}",
        f"/v1/orgs/{ids.northwind}/spaces?limit=1000",
        f"/v1/orgs/{ids.northwind}/collections?limit=1000",
        f"/v1/orgs/{ids.northwind}/teams",
        f"/v1/orgs/{ids.northwind}/teams/{values['team']}/members",
        f"/v1/orgs/{ids.northwind}/members/{values['user']}",
        f"/v1/orgs/{ids.lumen}/spaces?limit=1000",
    ]
    return [(await client.get(path)).json() for path in paths]


@pytest.mark.parametrize(("method", "path", "body", "fragment"), BAD_BODIES)
async def test_bad_bodies_are_400_naming_the_field(
    api: Api, ids: DemoIds, method: str, path: str, body: object, fragment: str
) -> None:
    values = _values(ids)
    before = await _snapshot(api, ids)
    response = await api(ADMIN).request(method, str(_fill(path, values)), json=_fill(body, values))
    assert fragment in error_of(response, 400)
    assert await _snapshot(api, ids) == before


@pytest.mark.parametrize(("path", "params", "fragment"), BAD_QUERIES)
async def test_bad_query_parameters_are_400_naming_the_parameter(
    api: Api, ids: DemoIds, path: str, params: dict[str, str], fragment: str
) -> None:
    response = await api(ADMIN).get(str(_fill(path, _values(ids))), params=params)
    assert fragment in error_of(response, 400)


@pytest.mark.parametrize(
    ("method", "path"),
    sorted({(m, p) for m, p, _, _ in BAD_BODIES}),
)
async def test_malformed_json_is_400_on_every_body_endpoint(
    api: Api, ids: DemoIds, method: str, path: str
) -> None:
    response = await api(ADMIN).request(
        method,
        str(_fill(path, _values(ids))),
        content=b'{"title": "unterminated',
        headers={"Content-Type": "application/json"},
    )
    assert error_of(response, 400).startswith("body: malformed JSON")
