"""The demo's organization administration: OpenAPI specs (two processed, one whose fetch
timed out), a SAML provider, and a translation waiting for a translator."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta

from docdeck.server.ids import new_id, to_db
from docdeck.server.openapi_specs.documents import parse, validate
from docdeck.server.openapi_specs.processing import text_version
from docdeck.server.openapi_specs.wire import SELF_SOURCE
from docdeck.server.translations.translator import NO_TRANSLATOR

WEBHOOKS_SPEC = """\
openapi: 3.0.3
info:
  title: Northwind Webhooks
  version: 1.4.0
  description: Events Northwind sends to your endpoints.
paths:
  /webhooks:
    get:
      operationId: listWebhooks
      summary: List the webhooks of your account
      responses:
        "200":
          description: The webhooks.
          content:
            application/json:
              schema:
                type: array
                items: {$ref: "#/components/schemas/Webhook"}
    post:
      operationId: createWebhook
      summary: Register an endpoint
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Webhook"}
      responses:
        "201": {description: Registered.}
  /webhooks/{webhookId}:
    delete:
      operationId: deleteWebhook
      summary: Stop sending events to an endpoint
      parameters:
        - {name: webhookId, in: path, required: true, schema: {type: string}}
      responses:
        "204": {description: Removed.}
components:
  schemas:
    Webhook:
      type: object
      required: [url, events]
      properties:
        id: {type: string, readOnly: true}
        url: {type: string, format: uri}
        events:
          type: array
          items: {type: string, enum: [order.created, order.shipped, invoice.paid]}
"""

PETSTORE_SPEC = json.dumps(
    {
        "swagger": "2.0",
        "info": {"title": "Petstore (Swagger 2.0)", "version": "1.0.0"},
        "host": "petstore.example.com",
        "basePath": "/v1",
        "paths": {
            "/pets": {
                "get": {
                    "operationId": "listPets",
                    "summary": "List all pets",
                    "produces": ["application/json"],
                    "responses": {"200": {"description": "A list of pets."}},
                }
            }
        },
    },
    indent=2,
)


def _spec(
    conn: sqlite3.Connection,
    org_id: str,
    slug: str,
    now: datetime,
    *,
    text: str | None = None,
    self_source: str | None = None,
    url: str | None = None,
    visibility: str = "private",
) -> str:
    spec_id, stamp = new_id(), to_db(now)
    conn.execute(
        "INSERT INTO openapi_specs (id, organization_id, slug, source_url, source_text,"
        " source_self, processing_state, visibility, run, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, 'complete', ?, 1, ?, ?)",
        (spec_id, org_id, slug, url, text, self_source, visibility, stamp, stamp),
    )
    return spec_id


def _processed(
    conn: sqlite3.Connection, spec_id: str, org_id: str, slug: str, text: str, now: datetime
) -> None:
    document = parse(text)
    validate(document)
    version = text_version(conn, spec_id, None, text, document, now)
    conn.execute(
        "UPDATE openapi_specs SET last_version_id = ?, last_processed_at = ? WHERE id = ?",
        (version, to_db(now), spec_id),
    )


def _certificate(now: datetime) -> str:
    """A self-signed certificate valid for ten years from the demo's creation."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "idp.northwind.dev")])
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=3650))
        .sign(key, hashes.SHA256())
    )
    return certificate.public_bytes(serialization.Encoding.PEM).decode().strip()


def load_admin(
    conn: sqlite3.Connection, org_ids: dict[str, str], spaces: dict[str, str], now: datetime
) -> None:
    org = org_ids["northwind"]
    # Processed by the server on its first read of the spec (building the sandbox's own
    # document takes seconds; the demo's load should not).
    sandbox = _spec(conn, org, "docdeck-sandbox", now, self_source=SELF_SOURCE)
    conn.execute("UPDATE openapi_specs SET processing_state = 'pending' WHERE id = ?", (sandbox,))
    petstore = _spec(
        conn, org, "petstore", now - timedelta(days=9), text=PETSTORE_SPEC, visibility="public"
    )
    _processed(conn, petstore, org, "petstore", PETSTORE_SPEC, now - timedelta(days=9))
    webhooks = _spec(conn, org, "webhooks", now - timedelta(days=3), text=WEBHOOKS_SPEC)
    _processed(conn, webhooks, org, "webhooks", WEBHOOKS_SPEC, now - timedelta(days=3))
    failed = _spec(
        conn,
        org,
        "billing",
        now - timedelta(hours=2),
        url="https://billing.northwind.dev/openapi.yaml",
    )
    conn.execute(
        "UPDATE openapi_specs SET last_processed_at = ?, last_error_code = 'FETCH_TIMEOUT',"
        " last_error = ? WHERE id = ?",
        (
            to_db(now - timedelta(hours=2)),
            "https://billing.northwind.dev/openapi.yaml did not answer within 5 s",
            failed,
        ),
    )
    platform = conn.execute(
        "SELECT id FROM teams WHERE organization_id = ? AND title = 'Platform'", (org,)
    ).fetchone()
    conn.execute(
        "INSERT INTO saml_providers (id, organization_id, label, entity_id, certificate, sso_url,"
        " default_team_id, default_role, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            new_id(),
            org,
            "Northwind Okta",
            "http://www.okta.com/exk1northwind",
            _certificate(now),
            "https://northwind.okta.com/app/docdeck/exk1northwind/sso/saml",
            None if platform is None else platform["id"],
            "read",
            to_db(now - timedelta(days=30)),
        ),
    )
    stamp = to_db(now - timedelta(days=1))
    conn.execute(
        "INSERT INTO translations (id, organization_id, source_space_id, source_language,"
        " language, instructions, status, waiting_reason, created_at, updated_at)"
        " VALUES (?, ?, ?, 'en', 'fr', ?, 'pending', ?, ?, ?)",
        (
            new_id(),
            org,
            spaces["Webhooks Guide"],
            json.dumps(
                {
                    "object": "document",
                    "data": {},
                    "nodes": [
                        {
                            "object": "block",
                            "type": "paragraph",
                            "nodes": [
                                {
                                    "object": "text",
                                    "leaves": [
                                        {
                                            "object": "leaf",
                                            "text": "Keep product names and code in English.",
                                            "marks": [],
                                        }
                                    ],
                                }
                            ],
                        }
                    ],
                }
            ),
            NO_TRANSLATOR,
            stamp,
            stamp,
        ),
    )
