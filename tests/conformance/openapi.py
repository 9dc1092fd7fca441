"""The platform's OpenAPI documents (0.130.0 is OpenAPI 3.0.3, 0.202.0 is 3.1.0), read by
openapi-schema-validator's `OAS30Validator` and `OAS31Validator` (each version's dialect of
JSON Schema: `nullable`, `discriminator`...; formats are annotations, not checked, as no
format checker is given).

This docstring and `_set_aside_typos` are the one place where the documents' known typos are
set aside (both the sandbox's conformance tests and the generated answers of
test_platform_answers.py read the documents through it). The defects (gap-fill.md §10 lists
them; "v130" where only 0.130.0 has it):
- both: a `discriminator` without a `mapping` means, in OpenAPI 3.0, that each value is the
  name of a schema (`type: edits` -> `#/components/schemas/edits`); the documents name their
  schemas otherwise (`RevisionEdits`...), so `OAS30Validator` could resolve none of them. Those
  discriminators are dropped and the `oneOf` decides, as it did under the former conversion
  to JSON Schema; those with a `mapping` are kept;
- v130: `OrganizationBilling.endDate` is a `$ref` with `nullable: true` beside it, which
  OpenAPI 3.0.3 gives no meaning (`nullable` only qualifies a `type` in the same object): it
  is read as meant, the referenced `Timestamp` with `nullable: true`;
- v130: `Space.required` lists `type`, which it never defines: removed;
- v130: `Site.required` lists `defaultSpace`, never defined: removed; `SiteSpace.urls` and
  `SiteSection.urls` require `location`, never defined (only `published` is): not required;
- v130: `listCommentersInSpace`/`...InChangeRequest` require a `total` never defined (0.202.0
  dropped it): not required;
- v130: `getOrganizationsForEmailDomain` requires `organizaitons` (sic): corrected to
  `organizations`;
- a document page's body is `allOf` a `Document` `oneOf` whose "Empty" variant says
  `additionalProperties: false`: inside the `allOf` that variant can never match a page (it
  has other fields), so a page without a body (no `format`, as the platform sends it) would
  match no variant. The variant is read as what it means: neither `markdown` nor `document`;
- a `page_edited` change's `attributes` is a `oneOf` of the document, group and link
  attribute sets, which all allow `title` and `emoji`: an edit of only the title matches all
  three, so no valid body could pass a `oneOf`. It is checked as `anyOf`;
- v130: `Comment` and `CommentReply` `permissions.required` list `react`, never defined (the
  defined permission is `reply`, "react or reply"): `reply` is required instead;
- `OpenAPISpec.permissions.required` lists `delete`, never defined: removed;
- the ping response names its property `gitbookVisitorClaims`; the reference (which wins)
  names it `serviceVisitorClaims`: for checking the sandbox's answers only, the schema is
  given that name (neither is required); generated platform answers keep the platform's.
"""

from __future__ import annotations

import copy
import json
import os
import re
import sqlite3
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import pytest
from jsonschema.protocols import Validator
from openapi_schema_validator import OAS30Validator, OAS31Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4, DRAFT202012

ROOT = "urn:platform-openapi"
ENV = "DOCDECK_PLATFORM_OPENAPI"


def document_path() -> Path | None:
    configured = os.environ.get(ENV)
    if configured:
        return Path(configured)
    default = Path(__file__).resolve().parents[2].parent / "shared/reference/platform-openapi.json"
    return default if default.exists() else None


def newer_document_path() -> Path | None:
    """Release 0.202.0's document: beside the 0.130.0 one (or the one `ENV` names)."""
    path = document_path()
    newer = path.with_name("platform-openapi-newer.json") if path is not None else None
    return newer if newer is not None and newer.exists() else None


def _skip_without(path: Path | None) -> Path:
    if path is None or not path.exists():
        pytest.skip(
            f"platform OpenAPI document not found: set {ENV} or place it at "
            "../shared/reference/platform-openapi.json next to the repository"
        )
    return path


def _drop_unmapped_discriminators(node: Any) -> None:
    if isinstance(node, list):
        for item in node:
            _drop_unmapped_discriminators(item)
    elif isinstance(node, dict):
        if isinstance(node.get("discriminator"), dict) and "mapping" not in node["discriminator"]:
            del node["discriminator"]  # both: see the module docstring
        for value in node.values():
            _drop_unmapped_discriminators(value)


def _set_aside_typos(document: dict[str, Any]) -> None:
    """KNOWN TYPOS: the one place where the documents' defects are set aside (each fix
    applies only where its release has the defect; the module docstring gives the reasons)."""
    schemas = document["components"]["schemas"]
    billing = schemas.get("OrganizationBilling", {}).get("properties", {})
    end_date = billing.get("endDate", {})
    if end_date.get("$ref") == "#/components/schemas/Timestamp" and end_date.get("nullable"):
        billing["endDate"] = {**schemas["Timestamp"], "nullable": True}  # 0.130.0: see above
    space = schemas["Space"]
    if "type" not in space.get("properties", {}):  # 0.130.0 requires `type`, never defined
        space["required"] = [field for field in space["required"] if field != "type"]
    site = schemas["Site"]
    if "defaultSpace" in site["required"] and "defaultSpace" not in site["properties"]:
        site["required"].remove("defaultSpace")  # 0.130.0: required, never defined
    for name in ("SiteSpace", "SiteSection"):  # 0.130.0 requires `urls.location`, undefined
        schemas[name]["properties"]["urls"].pop("required", None)
    spec_permissions = schemas["OpenAPISpec"]["properties"]["permissions"]
    spec_permissions["required"] = [f for f in spec_permissions["required"] if f != "delete"]
    comment_base = schemas["Comment"]["allOf"][0]
    for schema in (comment_base, schemas["CommentReply"]):
        granted = schema["properties"]["permissions"]  # 0.130.0 requires `react`, undefined
        granted["required"] = ["reply" if f == "react" else f for f in granted["required"]]
    _drop_unmapped_discriminators(document)
    for item in document["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            if operation.get("operationId", "").startswith("listCommenters"):
                schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
                for part in schema.get("allOf", ()):  # 0.130.0: `total` required, undefined
                    if "total" in part.get("required", ()) and "total" not in part["properties"]:
                        part["required"].remove("total")
            if operation.get("operationId") == "getOrganizationsForEmailDomain":
                schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
                schema["required"] = ["organizations"]  # 0.130.0: `organizaitons` (sic)
    empty = next(v for v in schemas["Document"]["oneOf"] if v.get("title") == "Empty")
    empty.clear()  # both: an "Empty" page body no page can match inside its `allOf`
    empty.update({"not": {"anyOf": [{"required": ["markdown"]}, {"required": ["document"]}]}})
    for part in schemas["RevisionPageDocument"]["allOf"]:  # both: a computed page matches both
        if "oneOf" in part and any("computed" in v.get("properties", {}) for v in part["oneOf"]):
            part["anyOf"] = part.pop("oneOf")
    edited = schemas["RevisionSemanticChangePageEdited"]  # both: a `oneOf` of overlapping sets
    edited["properties"]["attributes"]["anyOf"] = edited["properties"]["attributes"].pop("oneOf")


@cache
def platform_document(path: Path) -> dict[str, Any]:
    """A release's document as published, with only its known typos set aside: what the
    platform answers (its own field names, `nullable`, `format`)."""
    document: dict[str, Any] = json.loads(path.read_text())
    _set_aside_typos(document)
    return document


def _as_reference_names(document: dict[str, Any]) -> dict[str, Any]:
    """The document with the reference's names where they differ from the platform's (the
    reference wins for what the sandbox writes): the ping's `gitbookVisitorClaims` is
    `serviceVisitorClaims`."""
    document = copy.deepcopy(document)
    for item in document["paths"].values():
        for operation in item.values():
            if (
                isinstance(operation, dict)
                and operation.get("operationId") == "updateOrganizationMemberLastSeenAt"
            ):
                schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
                schema["properties"] = {
                    "serviceVisitorClaims": schema["properties"]["gitbookVisitorClaims"]
                }
    return document


@cache
def json_schema_document(path: Path, *, reference_names: bool = False) -> dict[str, Any]:
    """`platform_document` (with the reference's names if asked) as `schema_validator` reads
    it: its schemas are OpenAPI 3.0's JSON Schema, referred to as `{ROOT}#/...`."""
    document = platform_document(path)
    return _as_reference_names(document) if reference_names else document


def _is_31(document: dict[str, Any]) -> bool:
    return str(document.get("openapi", "")).startswith("3.1")


def schema_registry(document: dict[str, Any], root: str = ROOT) -> Registry:
    """A registry holding `document` at `root`, for the `$ref`s of its schemas (OpenAPI 3.0's
    schemas are JSON Schema draft 4 with extensions, 3.1's are draft 2020-12)."""
    specification = DRAFT202012 if _is_31(document) else DRAFT4
    return Registry().with_resource(
        root, Resource.from_contents(document, default_specification=specification)
    )


def schema_validator(
    schema: dict[str, Any], registry: Registry, document: dict[str, Any]
) -> Validator:
    """A validator of `schema`, a schema of `document` in its OpenAPI version's dialect, its
    `$ref`s resolved in `registry`."""
    validator: Validator = (OAS31Validator if _is_31(document) else OAS30Validator)(
        schema, registry=registry
    )
    return validator


@cache
def _converted() -> dict[str, Any]:
    """0.130.0 as the sandbox must answer it (the reference's names)."""
    return json_schema_document(_skip_without(document_path()), reference_names=True)


@cache
def _registry() -> Registry:
    return schema_registry(_converted())


@cache
def operations() -> dict[str, tuple[str, str, dict[str, Any]]]:
    """operationId -> (METHOD, /v1 path, operation)."""
    found = {}
    for path, item in _converted()["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "operationId" in operation:
                found[operation["operationId"]] = (method.upper(), "/v1" + path, operation)
    return found


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def response_validator(operation_id: str, status: int) -> Validator | None:
    """A validator for that response's JSON body; None when the spec gives it no body."""
    method, path, operation = operations()[operation_id]
    responses = operation["responses"]
    if str(status) not in responses:
        raise AssertionError(
            f"{operation_id}: status {status} is not documented (documented: {sorted(responses)})"
        )
    response = responses[str(status)]
    base: tuple[str, ...] = (
        "paths",
        path.removeprefix("/v1"),
        method.lower(),
        "responses",
        str(status),
    )
    if "$ref" in response:  # a shared response such as `#/components/responses/NotFoundError`
        name = response["$ref"].rsplit("/", 1)[-1]
        response = _converted()["components"]["responses"][name]
        base = ("components", "responses", name)
    content = response.get("content", {}).get("application/json")
    if content is None:
        return None
    ref = f"{ROOT}#/" + _pointer(*base, "content", "application/json", "schema")
    return schema_validator({"$ref": ref}, _registry(), _converted())


def _path_pattern(path: str) -> str:
    """The documented path as a regex of request paths (a page path holds slashes)."""
    template = re.escape(path).replace(r"\{pagePath\}", ".+")
    return re.sub(r"\\\{[^}]+\\\}", "[^/]+", template)


def assert_conforms(operation_id: str, response: httpx.Response) -> Any:
    """A success of that operation: a documented status, the documented method and path, and
    a body valid against the platform's response schema (none where it documents none).
    Returns the body (None without one)."""
    assert response.status_code < 300, response.text
    method, path, _ = operations()[operation_id]
    assert response.request.method == method
    assert re.fullmatch(_path_pattern(path), response.request.url.path), (
        path,
        response.request.url.path,
    )
    validator = response_validator(operation_id, response.status_code)
    if validator is None:
        assert response.content == b"", f"{operation_id} documents no body"
        return None
    body = response.json()
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}" for e in errors[:10]
    )
    return body


def assert_error_conforms(operation_id: str, response: httpx.Response) -> None:
    """An error of that operation: a documented status with a body of its error schema."""
    assert response.status_code >= 400
    validator = response_validator(operation_id, response.status_code)
    assert validator is not None
    assert not list(validator.iter_errors(response.json()))


def demo_ids(db: Path, queries: dict[str, str]) -> dict[str, str]:
    """The first value each query finds in the demo database, by name."""
    conn = sqlite3.connect(db)
    try:
        return {name: str(conn.execute(sql).fetchone()[0]) for name, sql in queries.items()}
    finally:
        conn.close()
