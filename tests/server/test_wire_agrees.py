"""Responses are built as plain JSON (server/wire.py), not through the models: this checks
that what the server sends is exactly what its declared `response_model` would have written,
with no field the model does not know, for every GET and every demo caller."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic import BaseModel, TypeAdapter

from ._support import ADMIN, GUEST, READER, Api, DemoIds

_VALUES = {
    "organizationId": lambda ids: ids.northwind,
    "teamId": lambda ids: ids.teams["Platform"],
    "userId": lambda ids: ids.users["gus@fieldwork.io"],
    "collectionId": lambda ids: ids.collections["API"],
    "spaceId": lambda ids: ids.spaces["Webhooks Guide"],
    "emailDomain": lambda ids: "northwind.dev",
    "siteId": lambda ids: ids.sites["Developer Portal"],
    "siteSpaceId": lambda ids: ids.site_spaces["webhooks-beta"],
    "pageId": lambda ids: ids.content["page"],
    "fileId": lambda ids: ids.content["file"],
    "revisionId": lambda ids: ids.content["revision"],
    "documentId": lambda ids: ids.content["document"],
    "pagePath": lambda ids: ids.content["pagePath"],
    "changeRequestId": lambda ids: "1",
    "commentId": lambda ids: ids.comments["comment"],
    "commentReplyId": lambda ids: ids.comments["reply"],
}
_CR_VALUES = {
    "commentId": lambda ids: ids.comments["crComment"],
    "commentReplyId": lambda ids: ids.comments["crReply"],
}
_QUERIES = {
    "/v1/orgs/{organizationId}/search": "?query=guide",
    "/v1/spaces/{spaceId}/search": "?query=webhook",
    "/v1/spaces/{spaceId}/content/page/{pageId}": "?format=document",
    "/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}": "?format=markdown",
    "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}": (
        "?format=markdown"
    ),
}


def _no_unknown_fields(value: Any, where: str) -> None:
    if isinstance(value, BaseModel):
        assert not value.model_extra, (
            f"{where}: fields the model does not know: {value.model_extra}"
        )
        for name in type(value).model_fields:
            _no_unknown_fields(getattr(value, name), f"{where}.{name}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _no_unknown_fields(item, f"{where}[{index}]")


def _first_id(response: Any) -> str:
    assert response.status_code == 200, response.text
    return str(response.json()["items"][0]["id"])


@pytest.mark.parametrize("who", [ADMIN, READER, GUEST])
async def test_every_get_body_is_what_its_response_model_writes(
    sandbox_app: FastAPI, api: Api, ids: DemoIds, who: str
) -> None:
    client = api(who)
    checked = 0
    admin = f"/v1/orgs/{ids.northwind}"
    found = {  # the organization administration's demo ids, read from its lists
        "specSlug": "petstore",
        "versionId": "latest",
        "samlProviderId": _first_id(await api(ADMIN).get(f"{admin}/saml")),
        "translationId": _first_id(await api(ADMIN).get(f"{admin}/translations")),
    }
    for route in sandbox_app.routes:
        if not (isinstance(route, APIRoute) and "GET" in route.methods):
            continue
        if not route.path.startswith("/v1/") or route.response_model is None:
            continue
        values = {**_VALUES, **_CR_VALUES} if "/change-requests/" in route.path else _VALUES
        values = {**values, **{name: (lambda _, v=v: v) for name, v in found.items()}}
        path = re.sub(r"\{(\w+)(?::path)?\}", lambda m, v=values: v[m.group(1)](ids), route.path)
        response = await client.get(path + _QUERIES.get(route.path, ""))
        if response.status_code != 200:
            continue  # this caller may not see it; another caller checks it
        body = response.json()
        adapter = TypeAdapter(route.response_model)  # unions (pages, revisions) are not models
        model = adapter.validate_python(body)
        assert adapter.dump_python(model, mode="json", exclude_unset=True) == body, route.path
        _no_unknown_fields(model, route.path)
        checked += 1
    assert checked >= 8
