"""Adaptive content: the visitor schema of a site, template conditions, condition checks.

The schema a client sends is checked with the `jsonschema` library against the shape the
platform documents (`SiteAdaptiveJSONSchema`, itself draft-07): an object of claims, an
`unsigned` object of unsigned claims, `additionalProperties: false` everywhere. The first
problem is reported with where it is (`jsonSchema.properties.plan.type: ...`).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from functools import cache
from typing import Any

from docdeck.server.errors import bad_request, describe_schema_error
from docdeck.server.ids import to_db

_PRIMITIVE_DETERMINISTIC: dict[str, Any] = {
    "oneOf": [
        {
            "type": "object",
            "properties": {
                "type": {"enum": ["boolean"]},
                "description": {"type": "string"},
            },
            "required": ["type", "description"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "type": {"enum": ["string"]},
                "enum": {"type": "array", "items": {"type": "string"}},
                "description": {"type": "string"},
            },
            "required": ["type", "enum", "description"],
            "additionalProperties": False,
        },
    ]
}
_PRIMITIVE: dict[str, Any] = {
    "oneOf": [
        {"$ref": "#/definitions/deterministic"},
        *(
            {
                "type": "object",
                "properties": {"type": {"enum": [kind]}, "description": {"type": "string"}},
                "required": ["type", "description"],
                "additionalProperties": False,
            }
            for kind in ("string", "number")
        ),
    ]
}
_CLAIM: dict[str, Any] = {
    "oneOf": [
        {"$ref": "#/definitions/primitive"},
        {
            "type": "object",
            "properties": {
                "type": {"enum": ["array"]},
                "description": {"type": "string"},
                "items": {"$ref": "#/definitions/primitive"},
            },
            "required": ["type", "description", "items"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "type": {"enum": ["object"]},
                "description": {"type": "string"},
                "properties": {
                    "type": "object",
                    "additionalProperties": {"$ref": "#/definitions/claim"},
                },
                "additionalProperties": {"enum": [False]},
            },
            "required": ["type", "description", "properties", "additionalProperties"],
            "additionalProperties": False,
        },
    ]
}
SITE_ADAPTIVE_JSON_SCHEMA: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "definitions": {
        "deterministic": _PRIMITIVE_DETERMINISTIC,
        "primitive": _PRIMITIVE,
        "claim": _CLAIM,
    },
    "type": "object",
    "properties": {
        "$schema": {"enum": ["http://json-schema.org/draft-07/schema#"]},
        "type": {"enum": ["object"]},
        "properties": {
            "type": "object",
            "properties": {
                "unsigned": {
                    "type": "object",
                    "properties": {
                        "type": {"enum": ["object"]},
                        "description": {"enum": ["Unsigned claims of the site visitor."]},
                        "properties": {
                            "type": "object",
                            "additionalProperties": {"$ref": "#/definitions/claim"},
                        },
                        "additionalProperties": {"enum": [False]},
                    },
                    "required": ["type", "description", "properties", "additionalProperties"],
                }
            },
            "additionalProperties": {"$ref": "#/definitions/claim"},
        },
        "additionalProperties": {"enum": [False]},
    },
    "required": ["type", "properties", "additionalProperties"],
    "additionalProperties": False,
}
"""The platform's `SiteAdaptiveJSONSchema` (v130), as a draft-07 schema."""


@cache
def _validator() -> Any:
    from jsonschema import Draft7Validator

    return Draft7Validator(SITE_ADAPTIVE_JSON_SCHEMA)


def check_schema(schema: dict[str, Any]) -> None:
    """400 with the first problem and where it is, when `schema` is not of the platform's
    shape or not a valid draft-07 JSON Schema."""
    from jsonschema import Draft7Validator, SchemaError
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(schema))
    if error is not None:
        if error.validator != "oneOf":
            raise bad_request(describe_schema_error(error, "jsonSchema"))
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        message = (
            f"{json.dumps(error.instance)[:120]} is not a claim: give an object with"
            " `type` (boolean, string, number, array or object) and `description`"
            " (string claims may list `enum`, arrays need `items`, objects need"
            " `properties` and `additionalProperties: false`)"
        )
        raise bad_request(f"jsonSchema{where}: {message}")
    try:
        Draft7Validator.check_schema(schema)
    except SchemaError as problem:
        raise bad_request(
            f"jsonSchema: not a valid draft-07 JSON Schema: {problem.message}"
        ) from None


def store_schema(
    conn: sqlite3.Connection, site_id: str, schema: dict[str, Any], now: datetime
) -> None:
    conn.execute(
        "UPDATE sites SET adaptive_schema = ?, adaptive_schema_updated_at = ? WHERE id = ?",
        (json.dumps(schema), to_db(now), site_id),
    )


def site_schema(row: sqlite3.Row) -> dict[str, Any] | None:
    raw = row["adaptive_schema"]
    return None if raw is None else dict(json.loads(raw))


def _claims(node: dict[str, Any], prefix: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for name, claim in (node.get("properties") or {}).items():
        path = f"{prefix}.{name}"
        if claim.get("type") == "object" or (name == "unsigned" and "properties" in claim):
            yield from _claims(claim, path)
        else:
            yield path, claim


def template_conditions(schema: dict[str, Any] | None) -> list[dict[str, str]]:
    """Ready-made conditions, one or more per claim the schema declares."""
    out: list[dict[str, str]] = []
    for path, claim in _claims(schema or {}, "visitor.claims"):
        name = path.removeprefix("visitor.claims.")
        about = claim.get("description") or name
        kind = claim.get("type")
        if kind == "boolean":
            out.append({"description": f"{about}: true", "condition": f"{path} === true"})
            out.append({"description": f"{about}: false", "condition": f"{path} === false"})
        elif kind == "string" and claim.get("enum"):
            for value in claim["enum"]:
                out.append(
                    {
                        "description": f"{about}: {value}",
                        "condition": f"{path} === {json.dumps(value)}",
                    }
                )
        elif kind == "string":
            out.append({"description": f"{about} is known", "condition": f"{path} !== undefined"})
        elif kind == "number":
            out.append({"description": f"{about} above 0", "condition": f"{path} > 0"})
        elif kind == "array":
            values = (claim.get("items") or {}).get("enum") or []
            for value in values:
                out.append(
                    {
                        "description": f"{about} include {value}",
                        "condition": f"{path}.includes({json.dumps(value)})",
                    }
                )
            if not values:
                out.append({"description": f"{about} not empty", "condition": f"{path}.length > 0"})
    return out


_REFERENCE = re.compile(r"visitor\.claims((?:\.[A-Za-z_$][\w$]*)+)")


def unknown_claims(schema: dict[str, Any], condition: str) -> list[str]:
    """The `visitor.claims.*` references in `condition` that the schema does not declare."""
    unknown: list[str] = []
    for match in _REFERENCE.finditer(condition):
        node: dict[str, Any] = schema
        for part in match.group(1).split(".")[1:]:
            children = node.get("properties")
            if not isinstance(children, dict):
                break  # a leaf claim: what follows is a method or property of its value
            if part not in children:
                unknown.append(match.group(0))
                break
            node = children[part]
    return unknown


def check_condition(row: sqlite3.Row, condition: str | None, field: str = "condition") -> None:
    """When the site has a visitor schema, a condition may use only the claims it declares."""
    if condition is None:
        return
    if not condition.strip():
        raise bad_request(f"{field}: must not be blank; send null to remove the condition")
    schema = site_schema(row)
    if schema is None:
        return
    unknown = unknown_claims(schema, condition)
    if unknown:
        known = ", ".join(p for p, _ in _claims(schema, "visitor.claims")) or "none"
        raise bad_request(
            f"{field}: {unknown[0]!r} is not a claim of the site's adaptive schema"
            f" (declared: {known})"
        )
