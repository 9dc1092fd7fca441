"""One error shape for every failure, with messages that name the field."""

from __future__ import annotations

import logging

import httpx
import pytest
from fastapi import FastAPI

from docdeck.models import RequestBody
from docdeck.server.errors import describe_errors

from ._support import Api, DemoIds, error_of


async def test_unknown_route_and_method_use_the_error_shape(api: Api, ids: DemoIds) -> None:
    assert "no route GET /v1/nothing" in error_of(await api(None).get("/v1/nothing"), 404)
    response = await api("ada@northwind.dev").put(f"/v1/orgs/{ids.northwind}")
    assert "method PUT is not allowed" in error_of(response, 405)


@pytest.mark.parametrize("kind", ["sync", "async"])
async def test_unexpected_errors_are_one_500_in_the_same_shape_logged_once(
    sandbox_app: FastAPI, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    def boom() -> None:
        raise ZeroDivisionError("no")

    async def async_boom() -> None:
        raise ZeroDivisionError("no")

    sandbox_app.add_api_route("/v1/test-boom", boom if kind == "sync" else async_boom)
    # raise_app_exceptions=True: an exception escaping the app is what uvicorn logs a second
    # time ("Exception in ASGI application") after the app's own log line.
    transport = httpx.ASGITransport(app=sandbox_app, raise_app_exceptions=True)
    with caplog.at_level(logging.ERROR):
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            response = await client.get("/v1/test-boom")
    assert "internal error" in error_of(response, 500)
    logged = [r for r in caplog.records if r.exc_info and r.exc_info[0] is ZeroDivisionError]
    assert len(logged) == 1, [r.getMessage() for r in caplog.records]
    assert "GET /v1/test-boom" in logged[0].getMessage()


def test_messages_name_nested_fields_and_merge_unions() -> None:
    errors = [
        {
            "type": "literal_error",
            "loc": ("body", "role", "literal['owner','member']"),
            "msg": "",
            "input": "x",
            "ctx": {"expected": "'owner' or 'member'"},
        },
        {
            "type": "string_too_long",
            "loc": ("body", "items", 2, "title"),
            "msg": "",
            "input": "",
            "ctx": {"max_length": 5},
        },
    ]
    assert describe_errors(errors) == (
        "role: must be one of owner, member (got 'x'); items[2].title: must be at most 5 characters"
    )
    assert describe_errors([]) == "invalid request"


def test_a_discriminated_union_is_explained_by_its_discriminator() -> None:
    """A redirect's destination: pydantic said "input tag 'url' found using 'kind' does not
    match any of the expected tags: …", and a missing field of one kind was named
    `destination.site-page.pageId` (the tag taken for a field)."""
    from pydantic import ValidationError

    from docdeck.models import SiteRedirectDestination

    class Body(RequestBody):
        destination: SiteRedirectDestination

    def said(destination: object) -> str:
        try:
            Body.model_validate({"destination": destination})
        except ValidationError as error:
            return describe_errors(error.errors())
        raise AssertionError("accepted")

    assert said({"kind": "url", "url": "https://x.example"}) == (
        "destination.kind: must be one of site-section, site-space, site-page (got 'url')"
    )
    assert said({"url": "https://x.example"}) == "destination.kind: is required"
    assert said({"kind": "site-page", "siteSpaceId": "s1"}) == "destination.pageId: is required"


async def test_a_body_without_the_json_content_type_is_explained(api: Api, ids: DemoIds) -> None:
    response = await api("ada@northwind.dev").post(
        f"/v1/orgs/{ids.northwind}/spaces",
        content=b'{"title": "From curl -d"}',
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert "Content-Type: application/json" in error_of(response, 400)


async def test_a_nested_object_given_as_a_string_is_not_blamed_on_the_content_type(
    api: Api, ids: DemoIds
) -> None:
    """The body was JSON; only its `comment` was a string where an object belongs."""
    space = ids.spaces["Onboarding"]
    created = await api("chen@northwind.dev").post(f"/v1/spaces/{space}/change-requests", json={})
    review = await api("dana@northwind.dev").post(
        f"/v1/spaces/{space}/change-requests/{created.json()['id']}/reviews",
        json={"status": "approved", "comment": "plain text"},
    )
    assert error_of(review, 400) == "comment: must be a JSON object"


async def test_bounds_and_patterns_are_said_in_plain_words(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    """pydantic's own sentences ("list should have at least 1 item after validation, not 0")
    are said as the other messages are (found with the platform's JavaScript client)."""
    space = ids.spaces["Webhooks Guide"]
    cr = (await admin.post(f"/v1/spaces/{space}/change-requests", json={"subject": "x"})).json()
    content = f"/v1/spaces/{space}/change-requests/{cr['id']}/content"
    assert error_of(await admin.post(content, json={"changes": []}), 400) == (
        "changes: must have at least 1 item (got 0)"
    )
    change = {"operation": "insert_page", "title": "p", "document": {"markdown": "x"}}
    assert error_of(await admin.post(content, json={"changes": [change] * 51}), 400) == (
        "changes: must have at most 50 items (got 51)"
    )
    specs = f"/v1/orgs/{ids.northwind}/openapi"
    message = error_of(
        await admin.post(specs, json={"slug": "Bad Slug", "source": {"text": "{}"}}), 400
    )
    assert message == "slug: must match the pattern ^[a-z0-9]+(?:-[a-z0-9]+)*$ (got 'Bad Slug')"


async def test_schema_checked_bodies_name_the_missing_or_unknown_field(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    """Bodies checked with jsonschema (site customization, adaptive schema) say `pdf: is
    required`, not `body: 'pdf' is a required property`."""
    site = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Handbook']}"
    settings = (await admin.get(f"{site}/customization")).json()
    del settings["internationalization"]
    message = error_of(await admin.put(f"{site}/customization", json=settings), 400)
    assert message == "internationalization: is required"
    settings = (await admin.get(f"{site}/customization")).json()
    settings["styling"]["theme"] = "pink"
    message = error_of(await admin.put(f"{site}/customization", json=settings), 400)
    assert message.startswith("styling.theme: must be one of clean, muted"), message
    assert message.endswith("(got 'pink')"), message
    schema = {"type": "object", "properties": {}}
    message = error_of(await admin.put(f"{site}/adaptive-schema", json={"jsonSchema": schema}), 400)
    assert message == "jsonSchema.additionalProperties: is required"


def test_found_gives_the_value_or_a_404_saying_what_is_missing() -> None:
    from docdeck.server.errors import ApiError, found

    assert found(0, "never said") == 0
    with pytest.raises(ApiError) as raised:
        found(None, "widget 'w1' not found")
    assert (raised.value.status, raised.value.message) == (404, "widget 'w1' not found")
