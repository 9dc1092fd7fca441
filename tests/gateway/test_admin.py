"""Organization administration through the gateway: specs and versions, SAML and SSO,
translations, over the in-process sandbox."""

from __future__ import annotations

import asyncio
import time

import pytest

from docdeck.gateway import BadRequestError, Client, NotFoundError
from docdeck.models import OpenAPISpec, SAMLProvider, Translation


async def _org(client: Client) -> str:
    orgs = [o async for o in client.orgs.list()]
    return next(o.id for o in orgs if o.title == "Northwind Labs")


async def test_specs_round_trip(client: Client) -> None:
    org = await _org(client)
    specs = [s async for s in client.openapi_specs.list(org)]
    assert {s.slug for s in specs} >= {"webhooks", "petstore", "billing"}
    billing = next(s for s in specs if s.slug == "billing")
    assert billing.lastProcessErrorCode == "FETCH_TIMEOUT"
    made = await client.openapi_specs.create(
        org, slug="gw", text="openapi: 3.0.0\ninfo: {title: G, version: '1'}\npaths: {}\n"
    )
    assert isinstance(made, OpenAPISpec) and made.processingState in ("pending", "progress")
    ends = time.monotonic() + 15
    while (spec := await client.openapi_specs.get(org, "gw")).processingState != "complete":
        assert time.monotonic() < ends
        await asyncio.sleep(0.05)
    assert spec.lastVersion
    version = await client.openapi_specs.versions.get(org, "gw")
    assert version.id == spec.lastVersion
    assert (await client.openapi_specs.versions.get(org, "gw", version.id)).id == version.id
    content = await client.openapi_specs.versions.content(org, "gw")
    assert content.filesystem["info"]["title"] == "G"
    versions = [v async for v in client.openapi_specs.versions.list(org, "gw")]
    assert [v.id for v in versions] == [version.id]
    public = await client.openapi_specs.update(org, "gw", visibility="public")
    assert public.urls.published
    replaced = await client.openapi_specs.put(org, "gw", url="https://example.invalid/x.json")
    assert replaced.sourceURL == "https://example.invalid/x.json"
    await client.openapi_specs.delete(org, "gw")
    with pytest.raises(NotFoundError):
        await client.openapi_specs.get(org, "gw")
    with pytest.raises(ValueError):
        await client.openapi_specs.create(org, slug="x")
    with pytest.raises(BadRequestError):
        await client.openapi_specs.create(org, slug="Bad Slug", text="x")


async def test_saml_round_trip(client: Client) -> None:
    org = await _org(client)
    providers = [p async for p in client.saml.list(org)]
    assert [p.status for p in providers] == ["active"]
    logins = await client.saml.logins(org)
    assert [login.id for login in logins] == [providers[0].id]
    made = await client.saml.create(org, label="Pending", default_role=None)
    assert isinstance(made, SAMLProvider) and made.status == "pending"
    renamed = await client.saml.update(org, made.id, label="Renamed")
    assert renamed.label == "Renamed" and (await client.saml.get(org, made.id)).label == "Renamed"
    with pytest.raises(BadRequestError, match="not PEM"):
        await client.saml.update(org, made.id, certificate="hello")
    await client.saml.delete(org, made.id)
    await client.saml.delete(org, made.id)


async def test_translations_round_trip(client: Client) -> None:
    org = await _org(client)
    waiting = [t async for t in client.translations.list(org)]
    assert [t.status for t in waiting] == ["pending"]
    made = await client.translations.create(
        org, space=waiting[0].source.space, source_language="en", language="ja"
    )
    assert isinstance(made, Translation) and made.status == "pending"
    doc = {"object": "document", "data": {}, "nodes": []}
    updated = await client.translations.update(org, made.id, instructions=doc)
    assert updated.instructions is not None and updated.instructions.nodes == []
    assert (await client.translations.get(org, made.id)).id == made.id
    assert await client.translations.delete(org, made.id) is True
    assert await client.translations.delete(org, made.id) is False


def test_tolerant_models_read_newer_answers() -> None:
    spec = OpenAPISpec.model_validate(
        {
            "object": "openapi-spec",
            "id": "s",
            "createdAt": "2025-01-01T00:00:00Z",
            "updatedAt": "2025-01-01T00:00:00Z",
            "slug": "s",
            "processingState": "queued",
            "lastProcessErrorCode": "SOMETHING_NEW",
            "lastProcessedErrorCount": 2,
            "permissions": {"view": True, "edit": False, "delete": False},
            "urls": {"location": "https://api.example.com/x"},
        }
    )
    assert spec.processingState == "queued" and spec.lastProcessErrorCode == "SOMETHING_NEW"
    provider = SAMLProvider.model_validate(
        {
            "id": "p",
            "label": "L",
            "createdAt": "2025-01-01T00:00:00Z",
            "status": "disabled",
            "urls": {"location": "https://api.example.com/p"},
        }
    )
    assert provider.status == "disabled" and provider.certificate is None
    translation = Translation.model_validate(
        {
            "id": "t",
            "status": "failed",
            "source": {"space": "s", "language": "pt-br"},
            "language": "yue",
            "createdAt": "2025-01-01T00:00:00Z",
            "updatedAt": "2025-01-01T00:00:00Z",
            "permissions": {"view": True, "edit": True},
            "urls": {"location": "https://api.example.com/t"},
        }
    )
    assert translation.language == "yue" and translation.stats.runs == 0
