"""Organization administration's 22 operations (OpenAPI specs and versions, SAML and SSO,
translations) answer what the platform's OpenAPI document says, on the demo workspace."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from .openapi import assert_conforms, assert_error_conforms

Call = Callable[[httpx.AsyncClient, dict[str, str]], Awaitable[httpx.Response]]


@pytest.fixture
def demo(sandbox_db: Path) -> dict[str, str]:
    conn = sqlite3.connect(sandbox_db)
    try:
        (org,) = conn.execute(
            "SELECT id FROM organizations WHERE title = 'Northwind Labs'"
        ).fetchone()
        (version,) = conn.execute(
            "SELECT v.id FROM openapi_spec_versions v JOIN openapi_specs s ON s.id = v.spec_id"
            " WHERE s.slug = 'webhooks'"
        ).fetchone()
        (provider,) = conn.execute("SELECT id FROM saml_providers").fetchone()
        (translation,) = conn.execute("SELECT id FROM translations").fetchone()
        (space,) = conn.execute("SELECT id FROM spaces WHERE title = 'Webhooks Guide'").fetchone()
    finally:
        conn.close()
    return {
        "O": f"/v1/orgs/{org}",
        "version": version,
        "provider": provider,
        "translation": translation,
        "space": space,
    }


@pytest.fixture
async def client(sandbox_app: FastAPI, admin_token: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=sandbox_app),
        base_url="http://sandbox.test",
        headers={"Authorization": f"Bearer {admin_token}"},
    ) as c:
        yield c


SPEC = "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\n"
DOC = {"object": "document", "data": {}, "nodes": []}

CALLS: dict[str, Call] = {
    "listOpenAPISpecs": lambda c, d: c.get(f"{d['O']}/openapi"),
    "createOpenAPISpec": lambda c, d: c.post(
        f"{d['O']}/openapi", json={"slug": "new-spec", "source": {"text": SPEC}}
    ),
    "getOpenAPISpecBySlug": lambda c, d: c.get(f"{d['O']}/openapi/petstore"),
    "createOrUpdateOpenAPISpecBySlug": lambda c, d: c.put(
        f"{d['O']}/openapi/webhooks", json={"source": {"text": SPEC}}
    ),
    "updateOpenAPISpecBySlug": lambda c, d: c.patch(
        f"{d['O']}/openapi/webhooks", json={"visibility": "public"}
    ),
    "deleteOpenAPISpecBySlug": lambda c, d: c.delete(f"{d['O']}/openapi/billing"),
    "listOpenAPISpecVersions": lambda c, d: c.get(f"{d['O']}/openapi/webhooks/versions"),
    "getLatestOpenAPISpecVersion": lambda c, d: c.get(f"{d['O']}/openapi/webhooks/versions/latest"),
    "getLatestOpenAPISpecVersionContent": lambda c, d: c.get(
        f"{d['O']}/openapi/webhooks/versions/latest/content"
    ),
    "getOpenAPISpecVersionById": lambda c, d: c.get(
        f"{d['O']}/openapi/webhooks/versions/{d['version']}"
    ),
    "getOpenAPISpecVersionContentById": lambda c, d: c.get(
        f"{d['O']}/openapi/webhooks/versions/{d['version']}/content"
    ),
    "listSAMLProvidersInOrganizationById": lambda c, d: c.get(f"{d['O']}/saml"),
    "createOrganizationSAMLProvider": lambda c, d: c.post(
        f"{d['O']}/saml", json={"label": "Pending IdP"}
    ),
    "getOrganizationSAMLProviderById": lambda c, d: c.get(f"{d['O']}/saml/{d['provider']}"),
    "updateOrganizationSAMLProvider": lambda c, d: c.patch(
        f"{d['O']}/saml/{d['provider']}", json={"label": "Renamed"}
    ),
    "deleteOrganizationSAMLProvider": lambda c, d: c.delete(f"{d['O']}/saml/{d['provider']}"),
    "listSSOProviderLoginsInOrganization": lambda c, d: c.get(f"{d['O']}/sso"),
    "listTranslations": lambda c, d: c.get(f"{d['O']}/translations"),
    "createTranslation": lambda c, d: c.post(
        f"{d['O']}/translations",
        json={"language": "de", "source": {"space": d["space"], "language": "en"}},
    ),
    "getTranslation": lambda c, d: c.get(f"{d['O']}/translations/{d['translation']}"),
    "updateTranslation": lambda c, d: c.put(
        f"{d['O']}/translations/{d['translation']}", json={"instructions": DOC}
    ),
    "deleteTranslation": lambda c, d: c.delete(f"{d['O']}/translations/{d['translation']}"),
}


def test_all_22_are_called() -> None:
    assert len(CALLS) == 22


@pytest.mark.parametrize("operation_id", sorted(CALLS))
async def test_response_matches_platform_schema(
    operation_id: str, client: httpx.AsyncClient, demo: dict[str, str]
) -> None:
    body = assert_conforms(operation_id, await CALLS[operation_id](client, demo))
    if body is not None and "items" in body:
        assert body["items"], f"{operation_id}: the demo gives a non-empty list to check"


async def test_missing_translation_delete_is_204(
    client: httpx.AsyncClient, demo: dict[str, str]
) -> None:
    assert_conforms("deleteTranslation", await client.delete(f"{demo['O']}/translations/nope"))


@pytest.mark.parametrize(
    ("operation_id", "path"),
    [
        ("getTranslation", "/translations/nope"),
        ("getOpenAPISpecBySlug", "/openapi/nope"),
        ("getOrganizationSAMLProviderById", "/saml/nope"),
        ("getLatestOpenAPISpecVersion", "/openapi/billing/versions/latest"),
    ],
)
async def test_not_found_matches_the_error_schema(
    operation_id: str, path: str, client: httpx.AsyncClient, demo: dict[str, str]
) -> None:
    assert_error_conforms(operation_id, await client.get(demo["O"] + path))
