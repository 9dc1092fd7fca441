"""SAML providers, SSO logins, and the organization's `sso` flag that depends on them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from ._support import ADMIN, EDITOR, LUMEN_ADMIN, DemoIds, error_of


def certificate(days: int = 365, *, starts_in: int = -1) -> str:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.now(UTC)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "idp.test")])
    built = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now + timedelta(days=starts_in))
        .not_valid_after(now + timedelta(days=days))
        .sign(key, hashes.SHA256())
    )
    return built.public_bytes(serialization.Encoding.PEM).decode()


async def test_provider_life_cycle(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    org = f"/v1/orgs/{ids.northwind}"
    made = await admin.post(f"{org}/saml", json={"label": "Entra"})
    assert made.status_code == 201, made.text
    provider = made.json()
    assert (
        provider["status"] == "pending" and made.headers["Location"] == provider["urls"]["location"]
    )
    assert provider["service"]["acsURL"].startswith("http://sandbox.test/sso/saml/")
    logins = (await admin.get(f"{org}/sso")).json()["items"]
    assert provider["id"] not in {item["id"] for item in logins}
    path = f"{org}/saml/{provider['id']}"
    updated = await admin.patch(
        path,
        json={
            "entityID": "https://sts.windows.net/x/",
            "certificate": certificate(),
            "ssoURL": "https://login.example.com/saml",
            "defaultTeam": ids.teams["Platform"],
            "defaultRole": None,
        },
    )
    assert updated.status_code == 200, updated.text
    body = updated.json()
    assert body["status"] == "active" and body["defaultTeam"]["title"] == "Platform"
    assert body["defaultRole"] is None
    logins = (await admin.get(f"{org}/sso")).json()["items"]
    assert {"id": body["id"], "label": "Entra", "startURL": body["service"]["startURL"]} in logins
    assert (await admin.get(path)).json() == body
    assert (await admin.delete(path)).status_code == 204
    error_of(await admin.get(path), 404)
    assert (await admin.delete(path)).status_code == 204


async def test_sso_flag_follows_active_providers(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    org = f"/v1/orgs/{ids.northwind}"
    assert (await admin.patch(org, json={"sso": True})).json()["sso"] is True
    providers = (await admin.get(f"{org}/saml")).json()["items"]
    for provider in providers:
        assert (await admin.delete(f"{org}/saml/{provider['id']}")).status_code == 204
    assert (await admin.get(org)).json()["sso"] is False
    message = error_of(await admin.patch(org, json={"sso": True}), 400)
    assert "no active SAML provider" in message
    member = f"{org}/members/{ids.users[EDITOR]}/sso"
    assert "no active SAML provider" in error_of(await admin.post(member), 400)
    lumen = f"/v1/orgs/{ids.lumen}"
    assert "sso" in error_of(await admin.patch(lumen, json={"sso": True}), 400)


async def test_certificates_checked(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    base = f"/v1/orgs/{ids.northwind}/saml"

    async def refused(cert: str) -> str:
        return error_of(await admin.post(base, json={"label": "X", "certificate": cert}), 400)

    assert "not PEM" in await refused("MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA")
    key = "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----"
    assert "not a certificate" in await refused(key)
    garbage = "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----"
    assert "not a valid X.509 certificate" in await refused(garbage)
    assert "expired" in await refused(certificate(days=-1, starts_in=-30))
    assert "not valid before" in await refused(certificate(days=30, starts_in=5))


async def test_bad_bodies_and_roles(api: Any, ids: DemoIds) -> None:
    admin = api(ADMIN)
    base = f"/v1/orgs/{ids.northwind}/saml"
    cases: list[tuple[dict[str, Any], str]] = [
        ({}, "label"),
        ({"label": ""}, "label"),
        ({"label": "x" * 31}, "label"),
        ({"label": "X", "entityID": "e" * 1025}, "entityID"),
        ({"label": "X", "certificate": "c" * 10001}, "certificate"),
        ({"label": "X", "ssoURL": "javascript:alert(1)"}, "ssoURL"),
        ({"label": "X", "defaultTeam": "nope"}, "defaultTeam"),
        ({"label": "X", "defaultRole": "owner"}, "defaultRole"),
        ({"label": "X", "extra": True}, "extra"),
    ]
    for body, field in cases:
        assert field in error_of(await admin.post(base, json=body), 400), body
    lone = b'{"label": "\\udc00"}'
    error_of(
        await admin.post(base, content=lone, headers={"Content-Type": "application/json"}), 400
    )
    error_of(await api(EDITOR).get(base), 403)
    error_of(await api(EDITOR).post(base, json={"label": "X"}), 403)
    error_of(await api(LUMEN_ADMIN).get(base), 404)
    assert (await api(EDITOR).get(f"/v1/orgs/{ids.northwind}/sso")).status_code == 200
    provider = (await admin.get(base)).json()["items"][0]
    error_of(await admin.patch(f"{base}/{provider['id']}", json={"label": None}), 400)
