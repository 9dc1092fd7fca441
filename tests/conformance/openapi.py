"""The platform's OpenAPI 3.0 documents (0.130.0 and 0.202.0), turned into JSON Schema a
validator can use.

This docstring and `_set_aside_typos` are the one place where the documents' known typos are
set aside (both the sandbox's conformance tests and the generated answers of
test_platform_answers.py read the documents through it). Conversions (each a difference
between OpenAPI 3.0 and JSON Schema, or a defect that gap-fill.md §10 lists; "v130" where
only 0.130.0 has it):
- `nullable: true` becomes a `null` type (or an `anyOf` with null beside a `$ref`/`oneOf`);
- `format` is dropped: formats are annotations (`emoji`, `uri`, `date-time`) not checked here;
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
from jsonschema import Draft7Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

ROOT = "urn:platform-openapi"
ENV = "DOCDECK_PLATFORM_OPENAPI"


def document_path() -> Path | None:
    configured = os.environ.get(ENV)
    if configured:
        return Path(configured)
    default = Path(__file__).resolve().parents[2].parent / "shared/reference/platform-openapi.json"
    return default if default.exists() else None


def _convert(node: Any) -> Any:
    if isinstance(node, list):
        return [_convert(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: _convert(v) for k, v in node.items() if k not in ("format", "nullable", "example")}
    if node.get("nullable") is True:
        if "type" in out and "$ref" not in out:
            out["type"] = [out["type"], "null"]
        else:
            return {"anyOf": [out, {"type": "null"}]}
    return out


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


def _set_aside_typos(document: dict[str, Any]) -> None:
    """KNOWN TYPOS: the one place where the documents' defects are set aside (each fix
    applies only where its release has the defect; the module docstring gives the reasons)."""
    schemas = document["components"]["schemas"]
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
    """`platform_document` as JSON Schema a validator can use."""
    document = platform_document(path)
    if reference_names:
        document = _as_reference_names(document)
    return dict(_convert(copy.deepcopy(document)))


@cache
def _converted() -> dict[str, Any]:
    """0.130.0 as the sandbox must answer it (the reference's names)."""
    return json_schema_document(_skip_without(document_path()), reference_names=True)


@cache
def _registry() -> Registry:
    resource = Resource.from_contents(_converted(), default_specification=DRAFT7)
    return Registry().with_resource(ROOT, resource)


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


def response_validator(operation_id: str, status: int) -> Draft7Validator | None:
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
    return Draft7Validator({"$ref": ref}, registry=_registry())


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
