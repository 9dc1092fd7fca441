"""Cross-cutting checks over all 40 endpoints of the slice: a token is required everywhere,
and an unknown id in the path is a 404 (or, for deletes, a 204)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from ._support import ADMIN, Api, DemoIds, error_of

ORG = "/v1/orgs/{org}"
S = "/v1/spaces/{space}"
R = S + "/revisions/{revision}"

# The space content endpoints; {page}, {file}, {revision}, {document}, {pagePath} are ids in
# the Webhooks Guide's content.
CONTENT_ENDPOINTS: list[tuple[str, str, dict[str, object] | None]] = [
    ("GET", S + "/content", None),
    ("GET", S + "/content/pages", None),
    ("GET", S + "/content/files", None),
    ("GET", S + "/content/files/{file}", None),
    ("GET", S + "/content/files/{file}/backlinks", None),
    ("GET", S + "/content/page/{page}", None),
    ("GET", S + "/content/page/{page}/links", None),
    ("GET", S + "/content/path/{pagePath}", None),
    ("GET", S + "/links", None),
    ("GET", S + "/search?query=webhook", None),
    ("GET", S + "/documents/{document}", None),
    ("POST", S + "/content/template", {"id": "changelog"}),
    # A private address: refused (400) before any connection, so no network is needed.
    ("POST", S + "/content/import", {"url": "http://10.0.0.1/", "source": "website"}),
    ("GET", R, None),
    ("GET", R + "/pages", None),
    ("GET", R + "/files", None),
    ("GET", R + "/files/{file}", None),
    ("GET", R + "/page/{page}", None),
    ("GET", R + "/path/{pagePath}", None),
    ("GET", R + "/changes", None),
]
CR = S + "/change-requests/{cr}"
# Change requests and the content rows under {CR}; {cr} is the demo's change request #1 of the
# Webhooks Guide.
CHANGE_REQUEST_ENDPOINTS: list[tuple[str, str, dict[str, object] | None]] = [
    ("GET", S + "/change-requests", None),
    ("POST", S + "/change-requests", {"subject": "X"}),
    ("GET", CR, None),
    ("PATCH", CR, {"subject": "X"}),
    ("GET", CR + "/content", None),
    ("GET", CR + "/content/pages", None),
    ("GET", CR + "/content/files", None),
    ("GET", CR + "/content/files/{file}", None),
    ("GET", CR + "/content/files/{file}/backlinks", None),
    ("GET", CR + "/content/page/{page}", None),
    ("GET", CR + "/content/page/{page}/links", None),
    ("POST", CR + "/content/import", {"url": "http://10.0.0.1/", "source": "website"}),
    ("POST", CR + "/content", {"changes": [{"operation": "delete_page", "page": "{page}"}]}),
    ("GET", CR + "/changes", None),
    ("GET", CR + "/pdf", None),
    ("GET", CR + "/reviews", None),
    ("POST", CR + "/reviews", {"status": "approved"}),
    ("GET", CR + "/requested-reviewers", None),
    ("POST", CR + "/requested-reviewers", {"users": ["{user}"]}),
    ("DELETE", CR + "/requested-reviewers/{user}", None),
    ("POST", CR + "/update", None),
    ("POST", CR + "/merge", None),
]
C = S + "/comments/{comment}"
CC = CR + "/comments/{crcomment}"
# Comments of the Webhooks Guide and of its change request #1 (the demo's threads).
COMMENT_ENDPOINTS: list[tuple[str, str, dict[str, object] | None]] = [
    ("GET", S + "/comments", None),
    ("POST", S + "/comments", {"body": {"markdown": "x"}}),
    ("GET", C, None),
    ("PUT", C, {"resolved": True}),
    ("DELETE", C, None),
    ("GET", C + "/replies", None),
    ("POST", C + "/replies", {"body": {"markdown": "x"}}),
    ("GET", C + "/replies/{reply}", None),
    ("PUT", C + "/replies/{reply}", {"addedReactions": ["👍"]}),
    ("DELETE", C + "/replies/{reply}", None),
    ("GET", S + "/commenters", None),
    ("GET", CR + "/comments", None),
    ("POST", CR + "/comments", {"body": {"markdown": "x"}}),
    ("GET", CC, None),
    ("PUT", CC, {"resolved": True}),
    ("DELETE", CC, None),
    ("GET", CC + "/replies", None),
    ("POST", CC + "/replies", {"body": {"markdown": "x"}}),
    ("GET", CC + "/replies/{crreply}", None),
    ("PUT", CC + "/replies/{crreply}", {"addedReactions": ["👍"]}),
    ("DELETE", CC + "/replies/{crreply}", None),
    ("GET", CR + "/commenters", None),
]
T = ORG + "/teams/{team}"
M = ORG + "/members/{user}"

# method, path, body; {org}, {team}, {user}, {coll}, {space} are filled from the demo.
ENDPOINTS: list[tuple[str, str, dict[str, object] | None]] = [
    ("GET", "/v1/orgs", None),
    ("GET", ORG, None),
    ("PATCH", ORG, {"title": "New title"}),
    ("DELETE", ORG + "/link-invites/{invite}", None),
    ("GET", ORG + "/search?query=guide", None),
    ("GET", "/v1/email-domains/northwind.dev/orgs", None),
    ("GET", ORG + "/members", None),
    ("GET", M, None),
    ("DELETE", M, None),
    ("PATCH", M, {"role": "read"}),
    ("POST", ORG + "/ping", None),
    ("POST", M + "/sso", None),
    ("GET", M + "/spaces", None),
    ("GET", M + "/teams", None),
    ("GET", ORG + "/teams", None),
    ("PUT", ORG + "/teams", {"title": "New team"}),
    ("GET", T, None),
    ("DELETE", T, None),
    ("PATCH", T, {"title": "Renamed"}),
    ("GET", T + "/members", None),
    ("PUT", T + "/members", {"add": []}),
    ("PUT", T + "/members/{user}", {"role": "member"}),
    ("DELETE", T + "/members/{user}", None),
    ("GET", "/v1/collections/{coll}", None),
    ("DELETE", "/v1/collections/{coll}", None),
    ("PATCH", "/v1/collections/{coll}", {"title": "X"}),
    ("GET", "/v1/collections/{coll}/spaces", None),
    ("POST", "/v1/collections/{coll}/move", {"parent": None}),
    ("POST", "/v1/collections/{coll}/transfer", {"organization": "{lumen}"}),
    ("GET", ORG + "/collections", None),
    ("POST", ORG + "/collections", {"title": "X"}),
    ("GET", "/v1/spaces/{space}", None),
    ("DELETE", "/v1/spaces/{space}", None),
    ("PATCH", "/v1/spaces/{space}", {"title": "X"}),
    ("POST", "/v1/spaces/{space}/duplicate", None),
    ("POST", "/v1/spaces/{space}/restore", None),
    ("POST", "/v1/spaces/{space}/move", {"parent": None}),
    ("POST", "/v1/spaces/{space}/transfer", {"organization": "{lumen}"}),
    ("GET", ORG + "/spaces", None),
    ("POST", ORG + "/spaces", {"title": "X"}),
    *CONTENT_ENDPOINTS,
    *CHANGE_REQUEST_ENDPOINTS,
    *COMMENT_ENDPOINTS,
]


def read_probes(
    api: Api, ids: DemoIds, path: str, queries: list[str]
) -> Iterator[tuple[str, str, httpx.AsyncClient]]:
    """Who asks, the URL and the client for each way the tests that compare two request paths
    send a GET of `path`: every query as an admin; without a token and with an unknown one,
    only no query and a limit that does not validate."""
    values = demo_values(ids)
    bad = api(None)
    bad.headers["Authorization"] = "Bearer ddk_nope"
    clients = {"admin": api(ADMIN), "none": api(None), "bad": bad}
    for query in queries:
        url = fill(path, values) + ("&" + query[1:] if "?" in path and query else query)
        for who, client in clients.items():
            if who == "admin" or query in ("", "?limit=abc"):
                yield who, url, client


def fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def fill_body(body: dict[str, object] | None, values: dict[str, str]) -> object:
    if body is None:
        return None
    return {k: fill(v, values) if isinstance(v, str) else v for k, v in body.items()}


def demo_values(ids: DemoIds) -> dict[str, str]:
    return {
        "org": ids.northwind,
        "lumen": ids.lumen,
        "team": ids.teams["Platform"],
        "user": ids.users["freya@northwind.dev"],
        "coll": ids.collections["API"],
        "space": ids.spaces["Webhooks Guide"],
        "invite": "some-invite",
        "cr": "1",
        "comment": ids.comments["comment"],
        "reply": ids.comments["reply"],
        "crcomment": ids.comments["crComment"],
        "crreply": ids.comments["crReply"],
        **{key: ids.content[key] for key in ("page", "file", "revision", "document", "pagePath")},
    }


def test_the_list_has_the_forty_endpoints() -> None:
    assert len({(m, p.split("?")[0]) for m, p, _ in ENDPOINTS}) == (
        40 + len(CONTENT_ENDPOINTS) + len(CHANGE_REQUEST_ENDPOINTS) + len(COMMENT_ENDPOINTS)
    )


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS)
async def test_every_endpoint_needs_a_token(
    api: Api, ids: DemoIds, method: str, path: str, body: dict[str, object] | None
) -> None:
    values = demo_values(ids)
    response = await api(None).request(method, fill(path, values), json=fill_body(body, values))
    error_of(response, 401)


@pytest.mark.parametrize(("method", "path"), [(m, p) for m, p, b in ENDPOINTS if b is not None])
@pytest.mark.parametrize("token", [None, "ddk_not-a-token"])
async def test_the_token_is_checked_before_the_body(
    api: Api, ids: DemoIds, method: str, path: str, token: str | None
) -> None:
    """A malformed body from a caller without a valid token is a 401, not a 400."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    response = await api(None).request(
        method, fill(path, demo_values(ids)), content=b'{"title": ', headers=headers
    )
    error_of(response, 401)
    assert response.headers["www-authenticate"] == "Bearer"


UNKNOWN_PATH_IDS = [
    (m, p, b)
    for m, p, b in ENDPOINTS
    if "{" in p.split("/v1/", 1)[1] and not p.endswith("/link-invites/{invite}")
]


@pytest.mark.parametrize(("method", "path", "body"), UNKNOWN_PATH_IDS)
async def test_unknown_ids_in_the_path(
    api: Api, ids: DemoIds, method: str, path: str, body: dict[str, object] | None
) -> None:
    """Every id of the path replaced by an unknown one: 404, except the deleted thing itself
    of a DELETE, which is 204 (the reference: a delete of something missing returns 204)."""
    values = {k: "unknown-id" for k in demo_values(ids)} | {"lumen": ids.lumen}
    response = await api("ada@northwind.dev").request(
        method, fill(path, values), json=fill_body(body, values)
    )
    last_is_missing = method == "DELETE" and path.count("{") == 1
    if last_is_missing:
        assert response.status_code == 204, response.text
    else:
        error_of(response, 404)


def snapshot_paths(values: dict[str, str]) -> list[str]:
    """Lists and resources a stray write would show up in."""
    org = f"/v1/orgs/{values['org']}"
    return [
        org,
        f"{org}/spaces?limit=1000",
        f"{org}/collections",
        f"{org}/teams",
        f"{org}/members?limit=1000",
        f"/v1/orgs/{values['lumen']}/spaces?limit=1000",
    ]


FOREIGN = [(m, p, b) for m, p, b in ENDPOINTS if "{" in p]


@pytest.mark.parametrize(("method", "path", "body"), FOREIGN)
async def test_ids_of_an_organization_the_caller_is_not_in_are_not_found(
    api: Api, ids: DemoIds, method: str, path: str, body: dict[str, object] | None
) -> None:
    """Hana administers Lumen only: Northwind's ids answer as unknown ones would (404, or 204
    for the thing a DELETE names), so they cannot be probed, and nothing changes."""
    values = demo_values(ids)
    admin = api("ada@northwind.dev")
    before = [(await admin.get(p)).json() for p in snapshot_paths(values)]
    response = await api("hana@lumen-project.org").request(
        method, fill(path, values), json=fill_body(body, values)
    )
    if method == "DELETE" and path.count("{") == 1:
        assert response.status_code == 204, response.text
    else:
        error_of(response, 404)
    assert [(await admin.get(p)).json() for p in snapshot_paths(values)] == before


@pytest.mark.parametrize(("method", "path", "body"), CONTENT_ENDPOINTS)
async def test_content_of_a_deleted_space_is_not_found(
    api: Api, ids: DemoIds, method: str, path: str, body: dict[str, object] | None
) -> None:
    """Reads and writes of a deleted space's content: 404 saying it is deleted."""
    values = demo_values(ids)
    admin = api("ada@northwind.dev")
    assert (await admin.delete(fill("/v1/spaces/{space}", values))).status_code in (204, 205)
    response = await admin.request(method, fill(path, values), json=fill_body(body, values))
    assert "is deleted" in error_of(response, 404)
