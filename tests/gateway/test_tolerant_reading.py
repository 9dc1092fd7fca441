"""What the hosted platform sends beyond the sandbox: read it, or say exactly what could not
be read; and tell a route the deployment lacks from an id it does not know."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from docdeck.gateway import (
    APIResponseValidationError,
    Client,
    NotFoundError,
    OperationUnavailableError,
)
from docdeck.models import Organization
from docdeck.models.content import GitCommit
from docdeck.models.links import ContentLocationPage, VersionContextRevision


def _client(handler: Any) -> Client:
    return Client(
        "https://platform.test", "token", transport=httpx.MockTransport(handler), max_retries=0
    )


def _organization(**changes: Any) -> dict[str, Any]:
    permissions = dict.fromkeys(
        ["view", "admin", "ownTeam", "createContent", "createOpenAPISpec", "viewBilling",
         "listMembers", "listTeams", "listIntegrations"],
        True,
    )  # fmt: skip
    org = {
        "object": "organization",
        "id": "o1",
        "title": "Acme",
        "createdAt": "2024-01-01T00:00:00Z",
        "emailDomains": [],
        "type": "business",
        "inviteLinks": True,
        "plan": "free",
        "urls": {"location": "https://x", "app": "https://x", "published": None},
        "trial": {"status": "none"},
        "permissions": permissions,  # 0.202.0: no `ingestConversations`
    }
    org.update(changes)
    return org


async def test_an_organization_of_0_202_0_with_values_docdeck_does_not_know_is_read() -> None:
    body = _organization(plan="internal", blocked={"reason": "Unpaid invoices since May"})
    async with _client(lambda request: httpx.Response(200, json=body)) as client:
        org = await client.orgs.get("o1")
    assert org.plan == "internal"  # kept as it came
    assert org.blocked is not None and org.blocked.reason == "Unpaid invoices since May"
    assert org.permissions.ingestConversations is False


def test_the_sandbox_still_writes_only_the_reference_names() -> None:
    commit = GitCommit.model_validate({"oid": "a1", "message": "m", "createdByGitBook": True})
    assert commit.createdByService is True
    assert commit.model_dump(exclude_none=True) == {
        "oid": "a1",
        "message": "m",
        "createdByService": True,
    }
    assert (
        "ingestConversations"
        in Organization.model_json_schema()["$defs"]["OrganizationPermissions"]["required"]
    )


def test_a_link_location_in_a_change_request_is_read() -> None:
    """0.130.0's `versionContext` is a revision or a change request."""
    field = ContentLocationPage.model_fields["versionContext"]
    context = VersionContextRevision.model_validate(
        {"type": "changeRequest", "changeRequest": {"id": "cr1"}}
    )
    assert context.type == "changeRequest"
    assert (context.model_extra or {})["changeRequest"] == {"id": "cr1"}
    assert field.annotation is not None


async def test_an_answer_that_cannot_be_read_names_the_operation_field_and_value() -> None:
    body = _organization(createdAt="yesterday")
    async with _client(lambda request: httpx.Response(200, json=body)) as client:
        with pytest.raises(APIResponseValidationError) as info:
            await client.orgs.get("o1")
    error = info.value
    assert (error.method, error.path) == ("GET", "/v1/orgs/o1")
    assert error.field == "createdAt"
    assert error.value == '"yesterday"'
    assert error.raw is not None and '"yesterday"' in error.raw


async def test_a_route_the_deployment_lacks_is_not_an_unknown_id() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/links"):
            return httpx.Response(404, json={"error": {"code": 404, "message": "Not Found"}})
        return httpx.Response(404, json={"error": {"code": 404, "message": "Space not found"}})

    async with _client(handler) as client:
        with pytest.raises(OperationUnavailableError) as info:
            await client.content.links.space("s1")
        assert info.value.operation == "link analysis"
        assert "does not offer link analysis" in str(info.value)
        with pytest.raises(NotFoundError) as unknown:
            await client.spaces.get("s1")
        assert not isinstance(unknown.value, OperationUnavailableError)
        assert client.transport.unavailable == {"link analysis"}


async def test_an_unknown_id_on_an_optional_operation_stays_an_unknown_id() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, json={"error": {"code": 404, "message": "Space not found"}})

    async with _client(handler) as client:
        with pytest.raises(NotFoundError) as info:
            await client.content.links.space("s1")
        assert not isinstance(info.value, OperationUnavailableError)
        assert client.transport.unavailable == set()


async def test_the_tui_names_field_and_value_in_one_line_and_offers_no_retry(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docdeck.tui.kit.errors import describe

    monkeypatch.setenv("DOCDECK_CACHE_DIR", str(tmp_path))
    body = _organization(createdAt="yesterday")
    async with _client(lambda request: httpx.Response(200, json=body)) as client:
        with pytest.raises(APIResponseValidationError) as info:
            await client.orgs.get("o1")
    problem = describe(info.value, "Loading the organization")
    first, advice = problem.message.split("\n")
    assert first == 'Could not read GET /v1/orgs/o1: field createdAt = "yesterday"'
    assert "older than the server" in advice
    assert "compatible API" not in problem.message
    assert "press r" not in problem.message and problem.retry_note == ""
    saved = next((tmp_path / "unreadable-answers").iterdir())
    assert '"yesterday"' in saved.read_text()
    assert str(saved) in advice
