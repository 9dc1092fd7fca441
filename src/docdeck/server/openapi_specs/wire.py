"""Specs, versions and version content as the wire writes them."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from docdeck.server.openapi_specs.service import SpecRights
from docdeck.server.wire import Json, set_present, wire_time

SELF_SOURCE = "/openapi.json"
"""The one path a spec may name as served by the sandbox itself (the demo's)."""


def spec_location(base: str, org_id: str, slug: str) -> str:
    return f"{base}/v1/orgs/{org_id}/openapi/{slug}"


def published_url(base: str, org_id: str, slug: str, version_id: str | None = None) -> str:
    """Where the sandbox serves a public spec's text (`published_routes`)."""
    url = f"{base}/openapi/{org_id}/{slug}"
    return url if version_id is None else f"{url}/versions/{version_id}"


def source_url(base: str, row: sqlite3.Row) -> str | None:
    if row["source_self"]:
        return f"{base}{row['source_self']}"
    url: str | None = row["source_url"]
    return url


def spec_json(base: str, row: sqlite3.Row, rights: SpecRights) -> Json:
    org_id, slug = row["organization_id"], row["slug"]
    urls: Json = {
        "location": spec_location(base, org_id, slug),
        "app": f"{base}/app/orgs/{org_id}/openapi/{slug}",
    }
    if row["visibility"] == "public":
        urls["published"] = published_url(base, org_id, slug)
    data: Json = {
        "object": "openapi-spec",
        "id": row["id"],
        "createdAt": wire_time(row["created_at"]),
        "updatedAt": wire_time(row["updated_at"]),
        "slug": slug,
    }
    set_present(data, "sourceURL", source_url(base, row))
    data["processingState"] = row["processing_state"]
    data["visibility"] = row["visibility"]
    set_present(data, "lastVersion", row["last_version_id"])
    if row["last_processed_at"] is not None:
        data["lastProcessedAt"] = wire_time(row["last_processed_at"])
    set_present(data, "lastProcessErrorCode", row["last_error_code"])
    data["permissions"] = {"view": rights.view, "edit": rights.edit}
    data["urls"] = urls
    return data


def version_url(base: str, spec: sqlite3.Row, row: sqlite3.Row) -> str:
    """Where the version's text was fetched, or where the sandbox serves it."""
    url: str = row["url"] or published_url(base, spec["organization_id"], spec["slug"], row["id"])
    return url


def version_json(base: str, spec: sqlite3.Row, row: sqlite3.Row) -> Json:
    location = spec_location(base, spec["organization_id"], spec["slug"])
    return {
        "object": "openapi-spec-version",
        "id": row["id"],
        "createdAt": wire_time(row["created_at"]),
        "url": version_url(base, spec, row),
        "urls": {"location": f"{location}/versions/{row['id']}"},
    }


def content_json(base: str, spec: sqlite3.Row, row: sqlite3.Row) -> Json:
    document: dict[str, Any] = json.loads(row["document"])
    return {"filesystem": document, "url": version_url(base, spec, row)}
