"""Every endpoint of the slice, called on the sandbox, answers what the platform's OpenAPI
document (v130) says: a documented status and a body valid against its response schema.

The models are shared by the server and the gateway, so a mistake in a model would pass the
other tests on both sides; this test checks the wire format against the platform itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from .openapi import (
    assert_conforms,
    assert_error_conforms,
    demo_ids,
    operations,
    response_validator,
)


@dataclass(frozen=True)
class Demo:
    org: str
    other_org: str
    space: str
    deleted_space: str
    collection: str
    nested_collection: str
    team: str
    admin_id: str
    member_id: str
    invite: str
    engineering_space: str
    content_space: str


@pytest.fixture
def demo(sandbox_db: Path) -> Demo:
    return Demo(
        **demo_ids(
            sandbox_db,
            {
                "org": "SELECT id FROM organizations WHERE title = 'Northwind Labs'",
                "other_org": "SELECT id FROM organizations WHERE title = 'Lumen'",
                "space": "SELECT id FROM spaces WHERE title = 'Release Notes'",
                "deleted_space": "SELECT id FROM spaces WHERE deleted_at IS NOT NULL",
                "collection": "SELECT id FROM collections WHERE title = 'Engineering'",
                "nested_collection": "SELECT id FROM collections WHERE title = 'API'",
                "team": "SELECT id FROM teams WHERE title = 'Platform'",
                "admin_id": "SELECT id FROM users WHERE email = 'ada@northwind.dev'",
                "member_id": "SELECT id FROM users WHERE email = 'emeka@northwind.dev'",
                "invite": "SELECT l.id FROM link_invites l JOIN organizations o"
                " ON o.id = l.organization_id WHERE o.title = 'Northwind Labs'",
                "engineering_space": "SELECT id FROM spaces WHERE title = 'Architecture Decisions'",
                "content_space": "SELECT id FROM spaces WHERE title = 'Public API Reference'",
            },
        )
    )


Call = Callable[[httpx.AsyncClient, Demo], Awaitable[httpx.Response]]


async def _revision(c: httpx.AsyncClient, d: Demo) -> dict[str, Any]:
    body: dict[str, Any] = (await c.get(f"/v1/spaces/{d.content_space}/content")).json()
    return body


def _first_document(revision: dict[str, Any]) -> dict[str, Any]:
    stack = list(revision["pages"])
    while stack:
        page = stack.pop(0)
        if page["type"] == "document" and page.get("pages"):
            return dict(page["pages"][0])
        stack += page.get("pages", [])
    raise AssertionError("the demo has a document page with children")


def _content(call: Callable[[Demo, dict[str, Any]], str], **params: Any) -> Call:
    """A GET under the content space whose path needs ids from its current revision."""

    async def run(c: httpx.AsyncClient, d: Demo) -> httpx.Response:
        revision = await _revision(c, d)
        return await c.get(f"/v1/spaces/{d.content_space}" + call(d, revision), params=params)

    return run


def _file_with_backlinks(revision: dict[str, Any]) -> str:
    return str(next(f["id"] for f in revision["files"] if f["name"] == "request-flow.png"))


CONTENT_CALLS: dict[str, Call] = {
    "getCurrentRevision": _content(lambda d, r: "/content"),
    "listPages": _content(lambda d, r: "/content/pages"),
    "listFiles": _content(lambda d, r: "/content/files", limit=2),
    "getFileById": _content(lambda d, r: f"/content/files/{_file_with_backlinks(r)}"),
    "listSpaceFileBacklinks": _content(
        lambda d, r: f"/content/files/{_file_with_backlinks(r)}/backlinks"
    ),
    "getPageById": _content(
        lambda d, r: f"/content/page/{_first_document(r)['id']}", format="document"
    ),
    "getPageByPath": _content(
        lambda d, r: f"/content/path/{_first_document(r)['path']}", format="markdown"
    ),
    "listPageLinksInSpace": _content(
        lambda d, r: f"/content/page/{_first_document(r)['id']}/links"
    ),
    "listSpaceLinks": _content(lambda d, r: "/links"),
    "searchSpaceContent": _content(lambda d, r: "/search", query="webhook signature"),
    "getDocumentById": _content(lambda d, r: f"/documents/{_first_document(r)['documentId']}"),
    "getRevisionById": _content(lambda d, r: f"/revisions/{r['parents'][0]}"),
    "getRevisionSemanticChanges": _content(lambda d, r: f"/revisions/{r['id']}/changes"),
    "listPagesInRevisionById": _content(lambda d, r: f"/revisions/{r['parents'][0]}/pages"),
    "listFilesInRevisionById": _content(lambda d, r: f"/revisions/{r['id']}/files"),
    "getFileInRevisionById": _content(
        lambda d, r: f"/revisions/{r['id']}/files/{_file_with_backlinks(r)}"
    ),
    "getPageInRevisionById": _content(
        lambda d, r: f"/revisions/{r['id']}/page/{_first_document(r)['id']}", format="markdown"
    ),
    "applyTemplateToSpace": lambda c, d: c.post(
        f"/v1/spaces/{d.content_space}/content/template", json={"id": "changelog"}
    ),
    "getPageInRevisionByPath": _content(
        lambda d, r: f"/revisions/{r['id']}/path/{_first_document(r)['path']}", format="document"
    ),
}


async def _new_change_request(c: httpx.AsyncClient, d: Demo) -> dict[str, Any]:
    response = await c.post(
        f"/v1/spaces/{d.content_space}/change-requests", json={"subject": "Conformance"}
    )
    assert response.status_code == 201, response.text
    return dict(response.json())


def _in_change_request(call: Callable[[dict[str, Any]], str], **params: Any) -> Call:
    """A GET under a new change request of the content space (paths need its revision)."""

    async def run(c: httpx.AsyncClient, d: Demo) -> httpx.Response:
        cr = await _new_change_request(c, d)
        revision = await _revision(c, d)
        base = f"/v1/spaces/{d.content_space}/change-requests/{cr['number']}"
        return await c.get(base + call(revision), params=params)

    return run


async def _list_change_requests(c: httpx.AsyncClient, d: Demo) -> httpx.Response:
    await _new_change_request(c, d)
    return await c.get(f"/v1/spaces/{d.content_space}/change-requests")


async def _patch_change_request(c: httpx.AsyncClient, d: Demo) -> httpx.Response:
    cr = await _new_change_request(c, d)
    return await c.patch(
        f"/v1/spaces/{d.content_space}/change-requests/{cr['id']}",
        json={"status": "draft", "subject": "Renamed"},
    )


async def _update_change_request(c: httpx.AsyncClient, d: Demo) -> httpx.Response:
    cr = await _new_change_request(c, d)
    return await c.post(f"/v1/spaces/{d.content_space}/change-requests/{cr['id']}/update")


async def _merge_change_request(c: httpx.AsyncClient, d: Demo) -> httpx.Response:
    cr = await _new_change_request(c, d)
    return await c.post(f"/v1/spaces/{d.content_space}/change-requests/{cr['id']}/merge")


async def _change_request_changes(c: httpx.AsyncClient, d: Demo) -> httpx.Response:
    cr = await _new_change_request(c, d)
    path = f"/v1/spaces/{d.content_space}/change-requests/{cr['id']}"
    page = _first_document(await _revision(c, d))["id"]
    changes = [
        {"operation": "insert_page", "title": "New", "document": {"markdown": "New.\n"}},
        {"operation": "update_page", "page": page, "title": "Renamed"},
    ]
    response = await c.post(f"{path}/content", json={"changes": changes})
    assert response.status_code == 200, response.text
    return await c.get(f"{path}/changes", params={"limit": 1})


async def _reviews(c: httpx.AsyncClient, d: Demo, kind: str) -> httpx.Response:
    cr = await _new_change_request(c, d)  # by the admin, so the editor reviews it
    path = f"/v1/spaces/{d.content_space}/change-requests/{cr['id']}"
    reviewer = (await c.get(f"/v1/orgs/{d.org}/members", params={"role": "edit"})).json()
    user = reviewer["items"][0]["id"]
    requested = await c.post(f"{path}/requested-reviewers", json={"users": [user]})
    if kind == "request":
        return requested
    if kind == "requested":
        return await c.get(f"{path}/requested-reviewers")
    if kind == "remove":
        return await c.delete(f"{path}/requested-reviewers/{user}")
    await c.post(f"{path}/reviews", json={"status": "changes-requested"})
    if kind == "submit":
        return await c.post(f"{path}/reviews", json={"status": "changes-requested"})
    return await c.get(f"{path}/reviews")


CHANGE_REQUEST_CALLS: dict[str, Call] = {
    "getChangeRequestPDF": _in_change_request(lambda r: "/pdf"),
    "submitChangeRequestReview": lambda c, d: _reviews(c, d, "submit"),
    "getReviewsByChangeRequestId": lambda c, d: _reviews(c, d, "list"),
    "requestReviewersForChangeRequest": lambda c, d: _reviews(c, d, "request"),
    "getRequestedReviewersByChangeRequestId": lambda c, d: _reviews(c, d, "requested"),
    "removeRequestedReviewerFromChangeRequest": lambda c, d: _reviews(c, d, "remove"),
    "getChangeRequestChanges": _change_request_changes,
    "updateChangeRequest": _update_change_request,
    "mergeChangeRequest": _merge_change_request,
    "createChangeRequest": lambda c, d: c.post(
        f"/v1/spaces/{d.content_space}/change-requests", json={"subject": "New"}
    ),
    "listChangeRequestsForSpace": _list_change_requests,
    "getChangeRequestById": _in_change_request(lambda r: ""),
    "updateChangeRequestById": _patch_change_request,
    "getRevisionOfChangeRequestById": _in_change_request(lambda r: "/content"),
    "listPagesInChangeRequest": _in_change_request(lambda r: "/content/pages"),
    "listFilesInChangeRequestById": _in_change_request(lambda r: "/content/files", limit=2),
    "getFileInChangeRequestById": _in_change_request(
        lambda r: f"/content/files/{_file_with_backlinks(r)}"
    ),
    "listChangeRequestFileBacklinks": _in_change_request(
        lambda r: f"/content/files/{_file_with_backlinks(r)}/backlinks"
    ),
    "getPageInChangeRequestById": _in_change_request(
        lambda r: f"/content/page/{_first_document(r)['id']}", format="markdown"
    ),
    "listPageLinksInChangeRequest": _in_change_request(
        lambda r: f"/content/page/{_first_document(r)['id']}/links"
    ),
}


CALLS: dict[str, Call] = {
    # Organizations and members
    "listOrganizationsForAuthenticatedUser": lambda c, d: c.get("/v1/orgs"),
    "getOrganizationById": lambda c, d: c.get(f"/v1/orgs/{d.org}"),
    "updateOrganizationById": lambda c, d: c.patch(
        f"/v1/orgs/{d.org}", json={"title": "Northwind", "logo": "https://x.example/l.png"}
    ),
    "deleteOrganizationInviteById": lambda c, d: c.delete(
        f"/v1/orgs/{d.org}/link-invites/{d.invite}"
    ),
    "searchOrganizationContent": lambda c, d: c.get(
        f"/v1/orgs/{d.org}/search", params={"query": "guide"}
    ),
    "getOrganizationsForEmailDomain": lambda c, d: c.get("/v1/email-domains/northwind.dev/orgs"),
    "listMembersInOrganizationById": lambda c, d: c.get(
        f"/v1/orgs/{d.org}/members", params={"limit": 3}
    ),
    "getMemberInOrganizationById": lambda c, d: c.get(f"/v1/orgs/{d.org}/members/{d.member_id}"),
    "removeMemberFromOrganizationById": lambda c, d: c.delete(
        f"/v1/orgs/{d.org}/members/{d.member_id}"
    ),
    "updateMemberInOrganizationById": lambda c, d: c.patch(
        f"/v1/orgs/{d.org}/members/{d.member_id}", json={"role": None}
    ),
    "updateOrganizationMemberLastSeenAt": lambda c, d: c.post(f"/v1/orgs/{d.org}/ping"),
    "setUserAsSSOMemberForOrganization": lambda c, d: c.post(
        f"/v1/orgs/{d.org}/members/{d.member_id}/sso"
    ),
    "listSpacesForOrganizationMember": lambda c, d: c.get(
        f"/v1/orgs/{d.org}/members/{d.member_id}/spaces"
    ),
    "listTeamsForOrganizationMember": lambda c, d: c.get(
        f"/v1/orgs/{d.org}/members/{d.member_id}/teams"
    ),
    # Teams and team members
    "listTeamsInOrganizationById": lambda c, d: c.get(f"/v1/orgs/{d.org}/teams"),
    "createOrganizationTeam": lambda c, d: c.put(
        f"/v1/orgs/{d.org}/teams", json={"title": "Writers", "members": [d.member_id]}
    ),
    "getTeamInOrganizationById": lambda c, d: c.get(f"/v1/orgs/{d.org}/teams/{d.team}"),
    "removeTeamFromOrganizationById": lambda c, d: c.delete(f"/v1/orgs/{d.org}/teams/{d.team}"),
    "updateTeamInOrganizationById": lambda c, d: c.patch(
        f"/v1/orgs/{d.org}/teams/{d.team}", json={"title": "Platform Core"}
    ),
    "listTeamMembersInOrganizationById": lambda c, d: c.get(
        f"/v1/orgs/{d.org}/teams/{d.team}/members"
    ),
    "updateMembersInOrganizationTeam": lambda c, d: c.put(
        f"/v1/orgs/{d.org}/teams/{d.team}/members",
        json={"add": ["emeka@northwind.dev"], "memberships": {d.member_id: {"role": "owner"}}},
    ),
    "addMemberToOrganizationTeamById": lambda c, d: c.put(
        f"/v1/orgs/{d.org}/teams/{d.team}/members/{d.member_id}", json={"role": "member"}
    ),
    "deleteMemberFromOrganizationTeamById": lambda c, d: c.delete(
        f"/v1/orgs/{d.org}/teams/{d.team}/members/{d.member_id}"
    ),
    # Collections
    "getCollectionById": lambda c, d: c.get(f"/v1/collections/{d.nested_collection}"),
    "deleteCollectionById": lambda c, d: c.delete(f"/v1/collections/{d.collection}"),
    "updateCollectionById": lambda c, d: c.patch(
        f"/v1/collections/{d.collection}",
        json={"description": "How we build", "defaultLevel": None},
    ),
    "listSpacesInCollectionById": lambda c, d: c.get(
        f"/v1/collections/{d.nested_collection}/spaces"
    ),
    "moveCollection": lambda c, d: c.post(
        f"/v1/collections/{d.nested_collection}/move", json={"parent": None}
    ),
    "transferCollection": lambda c, d: c.post(
        f"/v1/collections/{d.collection}/transfer", json={"organization": d.other_org}
    ),
    "listCollectionsInOrganizationById": lambda c, d: c.get(f"/v1/orgs/{d.org}/collections"),
    "createCollection": lambda c, d: c.post(
        f"/v1/orgs/{d.org}/collections", json={"title": "Legal", "parent": d.collection}
    ),
    # Spaces
    "getSpaceById": lambda c, d: c.get(f"/v1/spaces/{d.deleted_space}"),
    "deleteSpaceById": lambda c, d: c.delete(f"/v1/spaces/{d.space}"),
    "updateSpaceById": lambda c, d: c.patch(
        f"/v1/spaces/{d.space}", json={"icon": "https://x.example/i.png", "editMode": "locked"}
    ),
    "duplicateSpace": lambda c, d: c.post(f"/v1/spaces/{d.space}/duplicate"),
    "restoreSpace": lambda c, d: c.post(f"/v1/spaces/{d.deleted_space}/restore"),
    "moveSpace": lambda c, d: c.post(
        f"/v1/spaces/{d.space}/move", json={"parent": d.nested_collection}
    ),
    "transferSpace": lambda c, d: c.post(
        f"/v1/spaces/{d.space}/transfer", json={"organization": d.other_org}
    ),
    "listSpacesInOrganizationById": lambda c, d: c.get(f"/v1/orgs/{d.org}/spaces"),
    "createSpace": lambda c, d: c.post(
        f"/v1/orgs/{d.org}/spaces", json={"title": "Security", "emoji": "🔐"}
    ),
    **CONTENT_CALLS,
    **CHANGE_REQUEST_CALLS,
}


def test_every_served_operation_is_called() -> None:
    assert len(CALLS) == 40 + len(CONTENT_CALLS) + len(CHANGE_REQUEST_CALLS)
    known = operations()
    for operation_id in CALLS:
        assert operation_id in known, operation_id


@pytest.mark.parametrize("operation_id", sorted(CALLS))
async def test_response_matches_platform_schema(
    operation_id: str, client: httpx.AsyncClient, demo: Demo
) -> None:
    body = assert_conforms(operation_id, await CALLS[operation_id](client, demo))
    if body is not None and body.get("items"):
        assert body["items"], f"{operation_id}: the demo gives a non-empty list to check"


@pytest.mark.parametrize(
    ("operation_id", "call"),
    [
        ("getOrganizationById", lambda c, d: c.get("/v1/orgs/no-such-org")),
        ("moveSpace", lambda c, d: c.post(f"/v1/spaces/{d.space}/move", json={"parent": "nope"})),
        (
            "moveCollection",
            lambda c, d: c.post(
                f"/v1/collections/{d.nested_collection}/move",
                json={
                    "parent": d.collection,
                    "position": {"before": {"type": "space", "space": d.engineering_space}},
                },
            ),
        ),
    ],
)
async def test_documented_errors_match_the_error_schema(
    operation_id: str, call: Call, client: httpx.AsyncClient, demo: Demo
) -> None:
    assert_error_conforms(operation_id, await call(client, demo))


async def test_the_validator_is_not_vacuous(client: httpx.AsyncClient, demo: Demo) -> None:
    """Bodies the platform would not send are caught: a null `deletedAt`, a missing field."""
    space = (await client.get(f"/v1/spaces/{demo.space}")).json()
    validator = response_validator("getSpaceById", 200)
    assert validator is not None
    assert not list(validator.iter_errors(space))
    assert list(validator.iter_errors({**space, "deletedAt": None}))
    assert list(validator.iter_errors({k: v for k, v in space.items() if k != "revision"}))
    assert list(validator.iter_errors({**space, "defaultLevel": "owner"}))
