"""Cross-cutting checks over every site endpoint: a token is required, the token is checked
before the body, unknown ids are 404 (204 for the thing a DELETE names), another organization's
ids are unknown, and each role gets exactly what docs/server.md says."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from fastapi import FastAPI

from docdeck.server.sites.customization import DEFAULT_CUSTOMIZATION

from ._support import (
    ADMIN,
    CREATOR,
    EDITOR,
    GUEST,
    LUMEN_ADMIN,
    READER,
    Api,
    error_of,
    served_document,
)

ST = "/v1/orgs/{org}/sites/{site}"
DEFAULTS = dict(DEFAULT_CUSTOMIZATION)

# method, path, body, least role allowed ("read" = any member, not a guest)
ENDPOINTS: list[tuple[str, str, dict[str, object] | None, str]] = [
    ("GET", "/v1/orgs/{org}/sites", None, "read"),
    ("POST", "/v1/orgs/{org}/sites", {"title": "Another"}, "create"),
    ("GET", ST, None, "read"),
    ("DELETE", ST, None, "admin"),
    ("PATCH", ST, {"title": "Renamed"}, "create"),
    ("GET", ST + "/adaptive-schema", None, "read"),
    (
        "PUT",
        ST + "/adaptive-schema",
        {"jsonSchema": {"type": "object", "properties": {}, "additionalProperties": False}},
        "create",
    ),
    ("GET", ST + "/adaptive-schema/template-conditions", None, "read"),
    ("GET", ST + "/published", None, "read"),
    ("GET", ST + "/sections", None, "read"),
    ("POST", ST + "/sections", {"spaceId": "{space}"}, "create"),
    ("DELETE", ST + "/sections/{section}", None, "create"),
    ("PATCH", ST + "/sections/{section}", {"title": "Look"}, "create"),
    ("POST", ST + "/sections/{section}/move", {}, "create"),
    ("GET", ST + "/section-groups", None, "read"),
    ("POST", ST + "/section-groups", {"title": "More"}, "create"),
    ("DELETE", ST + "/section-groups/{group}", None, "create"),
    ("PATCH", ST + "/section-groups/{group}", {"title": "Make"}, "create"),
    ("POST", ST + "/section-groups/{group}/sections", {"sectionId": "{section}"}, "create"),
    ("DELETE", ST + "/section-groups/{group}/sections/{section}", None, "create"),
    ("POST", ST + "/section-groups/{group}/move", {}, "create"),
    ("GET", ST + "/site-spaces", None, "read"),
    ("POST", ST + "/site-spaces", {"spaceId": "{space}"}, "create"),
    ("DELETE", ST + "/site-spaces/{site_space}", None, "create"),
    ("PATCH", ST + "/site-spaces/{site_space}", {"path": "elsewhere"}, "create"),
    ("POST", ST + "/site-spaces/{site_space}/move", {}, "create"),
    ("GET", ST + "/share-links", None, "admin"),
    ("POST", ST + "/share-links", {"name": "Press"}, "admin"),
    ("DELETE", ST + "/share-links/{link}", None, "admin"),
    ("PATCH", ST + "/share-links/{link}", {"active": False}, "admin"),
    # platform operations
    ("GET", ST + "/structure", None, "read"),
    (
        "PATCH",
        ST + "/structure/sort",
        {"item": {"type": "site-section-group", "id": "{group}"}, "position": {}},
        "create",
    ),
    ("POST", ST + "/publish", None, "admin"),
    ("POST", ST + "/unpublish", None, "admin"),
    ("GET", ST + "/publishing/preview", None, "create"),
    ("GET", ST + "/redirects", None, "read"),
    (
        "POST",
        ST + "/redirects",
        {"source": "/x", "destination": {"kind": "site-section", "siteSectionId": "{section}"}},
        "create",
    ),
    ("PATCH", ST + "/redirects/{redirect}", {"source": "/y"}, "create"),
    ("DELETE", ST + "/redirects/{redirect}", None, "create"),
    ("GET", ST + "/redirect?source=/api-reference", None, "read"),
    ("GET", ST + "/customization", None, "read"),
    ("PUT", ST + "/customization", DEFAULTS, "create"),
    ("GET", ST + "/site-spaces/{site_space}/customization", None, "read"),
    ("PATCH", ST + "/site-spaces/{site_space}/customization", {"title": "Beta"}, "create"),
    ("DELETE", ST + "/site-spaces/{site_space}/customization", None, "create"),
]
BELOW = {"create": EDITOR, "admin": CREATOR}
LEAST = {"read": READER, "create": CREATOR, "admin": ADMIN}


@pytest.fixture
def values(sandbox_db: Path) -> dict[str, str]:
    conn = sqlite3.connect(sandbox_db)

    def one(sql: str) -> str:
        return str(conn.execute(sql).fetchone()[0])

    try:
        return {
            "org": one("SELECT id FROM organizations WHERE title = 'Northwind Labs'"),
            "site": one("SELECT id FROM sites WHERE title = 'Developer Portal'"),
            "section": one("SELECT id FROM site_sections WHERE title = 'Runbooks'"),
            "group": one("SELECT id FROM site_section_groups WHERE title = 'Operate'"),
            "site_space": one("SELECT id FROM site_spaces WHERE path = 'webhooks-beta'"),
            "link": one("SELECT id FROM site_share_links WHERE name = 'Partners'"),
            "redirect": one("SELECT id FROM site_redirects WHERE source = '/api-reference'"),
            "space": one("SELECT id FROM spaces WHERE title = 'Onboarding'"),
        }
    finally:
        conn.close()


def fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def fill_body(body: object, values: dict[str, str]) -> object:
    if isinstance(body, dict):
        return {k: fill_body(v, values) for k, v in body.items()}
    return fill(body, values) if isinstance(body, str) else body


def test_the_list_has_forty_five_endpoints() -> None:
    assert len({(m, p) for m, p, _, _ in ENDPOINTS}) == 45


@pytest.mark.parametrize(("method", "path", "body", "role"), ENDPOINTS)
async def test_a_token_is_required(
    api: Api, values: dict[str, str], method: str, path: str, body: object, role: str
) -> None:
    response = await api(None).request(method, fill(path, values), json=fill_body(body, values))
    error_of(response, 401)


@pytest.mark.parametrize(("method", "path"), [(m, p) for m, p, b, _ in ENDPOINTS if b])
async def test_the_token_is_checked_before_the_body(
    api: Api, values: dict[str, str], method: str, path: str
) -> None:
    response = await api(None).request(
        method,
        fill(path, values),
        content=b'{"title": ',
        headers={"Content-Type": "application/json"},
    )
    error_of(response, 401)


@pytest.mark.parametrize(("method", "path", "body", "role"), ENDPOINTS)
async def test_unknown_ids_in_the_path(
    api: Api, values: dict[str, str], method: str, path: str, body: object, role: str
) -> None:
    """Each id of the path unknown in turn: 404, except the thing a DELETE names (204)."""
    keys = [k for k in values if "{" + k + "}" in path]
    for key in keys:
        unknown = values | {key: "unknown-id"}
        response = await api(ADMIN).request(
            method, fill(path, unknown), json=fill_body(body, values)
        )
        if method == "DELETE" and path.endswith("{" + key + "}"):
            assert response.status_code == 204, (key, response.text)
        else:
            assert response.status_code == 404, (key, response.text)
            error_of(response, 404)


@pytest.mark.parametrize(("method", "path", "body", "role"), ENDPOINTS)
async def test_another_organization_cannot_probe(
    api: Api, values: dict[str, str], method: str, path: str, body: object, role: str
) -> None:
    response = await api(LUMEN_ADMIN).request(
        method, fill(path, values), json=fill_body(body, values)
    )
    error_of(response, 404)


async def _snapshot(api: Api, values: dict[str, str]) -> list[object]:
    admin = api(ADMIN)
    st = fill(ST, values)
    paths = [st, f"{st}/structure", f"{st}/share-links", fill("/v1/orgs/{org}/sites", values)]
    return [(await admin.get(p)).json() for p in paths]


@pytest.mark.parametrize(("method", "path", "body", "role"), ENDPOINTS)
async def test_each_role_gets_what_it_may(
    api: Api, values: dict[str, str], method: str, path: str, body: object, role: str
) -> None:
    """A guest and the role just below the one needed get 403 and change nothing; the least
    role needed succeeds."""
    url, payload = fill(path, values), fill_body(body, values)
    before = await _snapshot(api, values)
    refused = [GUEST] + ([BELOW[role]] if role in BELOW else [])
    for email in refused:
        response = await api(email).request(method, url, json=payload)
        message = error_of(response, 403)
        assert "guest" in message or "role" in message or "admin" in message, message
    assert await _snapshot(api, values) == before
    response = await api(LEAST[role]).request(method, url, json=payload)
    assert response.status_code < 300, response.text


_PARAMS = {
    "org": "organizationId",
    "site": "siteId",
    "section": "siteSectionId",
    "group": "siteSectionGroupId",
    "site_space": "siteSpaceId",
    "link": "shareLinkId",
    "redirect": "siteRedirectId",
}


@pytest.mark.parametrize(("method", "path", "body", "role"), ENDPOINTS)
async def test_every_status_answered_is_documented(
    sandbox_app: FastAPI,
    api: Api,
    values: dict[str, str],
    method: str,
    path: str,
    body: object,
    role: str,
) -> None:
    """Called without a token, with a bad query value, with unknown ids, with an unknown
    field, as a guest, a reader, an editor and the admin: each status answered is one the
    server's own /openapi.json documents for that operation."""
    document = await served_document(sandbox_app)
    template = re.sub(r"\{(\w+)\}", lambda m: "{" + _PARAMS[m.group(1)] + "}", path.split("?")[0])
    documented = set(document["paths"][template][method.lower()]["responses"])
    unknown = {k: "unknown-id" for k in values} | {"space": values["space"]}
    odd = {"unknownField": 1} if isinstance(body, dict) else None
    answered = set()
    for who, names, sent in [
        (None, values, body),
        (GUEST, values, body),
        (READER, values, body),
        (EDITOR, values, body),
        (ADMIN, unknown, body),
        (ADMIN, values, odd),
        (ADMIN, values, body),
    ]:
        url = fill(path, names)
        if method == "GET":
            bad = await api(who).get(url + ("&" if "?" in url else "?") + "limit=-1")
            answered.add(str(bad.status_code))
        response = await api(who).request(method, url, json=fill_body(sent, names))
        answered.add(str(response.status_code))
    assert answered <= documented, (method, path, answered - documented)


# method, path, a bad body, the field the 400 must name
BAD_INPUT: list[tuple[str, str, object, str]] = [
    ("POST", "/v1/orgs/{org}/sites", {"type": "huge"}, "type"),
    ("POST", "/v1/orgs/{org}/sites", {"visibility": "private"}, "visibility"),
    ("PATCH", ST, {"basename": "x" * 101}, "basename"),
    ("PUT", ST + "/adaptive-schema", {"jsonSchema": "object"}, "jsonSchema"),
    ("PUT", ST + "/adaptive-schema", {}, "jsonSchema"),
    ("POST", ST + "/sections", {"title": "No space"}, "spaceId"),
    ("POST", ST + "/sections", {"spaceId": "{space}", "title": "x"}, "title"),
    ("POST", ST + "/sections", {"spaceId": "nope"}, "spaceId"),
    ("PATCH", ST + "/sections/{section}", {"path": ""}, "path"),
    ("PATCH", ST + "/sections/{section}", {"description": "d" * 257}, "description"),
    ("PATCH", ST + "/sections/{section}", {"icon": "i" * 51}, "icon"),
    ("PATCH", ST + "/sections/{section}", {"defaultSiteSpace": "nope"}, "defaultSiteSpace"),
    ("PATCH", ST + "/sections/{section}", {"condition": "c" * 1025}, "condition"),
    (
        "POST",
        ST + "/sections/{section}/move",
        {"position": {"before": {"type": "site-space", "siteSection": "x"}}},
        "position.before",
    ),
    ("POST", ST + "/section-groups", {"title": ""}, "title"),
    ("POST", ST + "/section-groups", {"title": "G", "sections": "all"}, "sections"),
    ("PATCH", ST + "/section-groups/{group}", {"title": "t" * 101}, "title"),
    ("POST", ST + "/section-groups/{group}/sections", {"sectionId": "nope"}, "sectionId"),
    (
        "POST",
        ST + "/section-groups/{group}/move",
        {"position": {"after": {"type": "site-section", "id": "nope"}}},
        "position.after",
    ),
    ("POST", ST + "/site-spaces", {"spaceId": "{space}", "sectionId": "nope"}, "sectionId"),
    ("PATCH", ST + "/site-spaces/{site_space}", {"spaceId": "nope"}, "spaceId"),
    ("PATCH", ST + "/site-spaces/{site_space}", {"path": "no/slash"}, "path"),
    (
        "POST",
        ST + "/site-spaces/{site_space}/move",
        {"position": {"before": {"type": "site-space", "siteSpace": "nope"}}},
        "position.before",
    ),
    ("POST", ST + "/share-links", {"name": 5}, "name"),
    ("PATCH", ST + "/share-links/{link}", {"active": "yes"}, "active"),
    (
        "PATCH",
        ST + "/structure/sort",
        {"item": {"type": "page", "id": "x"}, "position": {}},
        "item.type",
    ),
    (
        "PATCH",
        ST + "/structure/sort",
        {"item": {"type": "site-section", "id": "{section}"}},
        "position",
    ),
]


@pytest.mark.parametrize(("method", "path", "body", "field"), BAD_INPUT)
async def test_bad_input_names_the_field_and_changes_nothing(
    api: Api, values: dict[str, str], method: str, path: str, body: object, field: str
) -> None:
    before = await _snapshot(api, values)
    response = await api(ADMIN).request(method, fill(path, values), json=fill_body(body, values))
    message = error_of(response, 400)
    assert message.startswith(f"{field}:") or message.startswith(f"{field}."), message
    assert await _snapshot(api, values) == before
