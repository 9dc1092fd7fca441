"""Answers the hosted platform may give, generated from its OpenAPI documents.

A small deterministic generator rather than hypothesis-jsonschema: the documents are
OpenAPI 3.0 (`nullable`, `discriminator`, `format: emoji`), reference one another through
`$ref` cycles (page trees, documents) and are ~1.5 MB; one fixed answer per operation and
variation keeps the test reproducible and well under a few seconds. Each generated answer is
checked against the document's JSON Schema before it is handed to the gateway, so the
generator cannot hide a defect by producing something the platform would not send.

Variations:
- `absent`: every optional field left out, arrays at their minimum size;
- `edge`: every optional field present, with edge values (nulls where nullable, the last
  enum value, numbers that are not whole where the type is `number`, long non-ASCII text);
- `unknown`: every optional field present, and an unknown field added to every object that
  allows one (the platform adds fields in every release);
- `lists`: list envelopes of 0, 1 and many items, with `next.page` while more remain.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

VARIATIONS = ("absent", "edge", "unknown", "lists")

_DEPTH = 4
"""`$ref`s followed inside one answer before only required fields are generated (the
documents' page trees and rich-text documents are recursive)."""

_PATTERN_SAMPLES = (
    "abc",
    "a-b1",
    "#a1b2c3",
    "/docs/a",
    "integration:acme:main",
    "integration:acme",
    "connection:acme",
    "refs/heads/main",
    "@acme-docs",
    "acme/docs",
    "text/plain",
    "UC" + "a" * 22,
    "docs.example.com/a/b",
    "docs.acme.example.com",
    "abc def",
)


@dataclass(frozen=True)
class Shape:
    """How one answer is generated."""

    variation: str
    items: int = 2
    """Items in an array whose size the schema leaves free (`lists` sets it)."""
    next_page: bool = False
    """A list envelope says more remains (`next.page`)."""
    choice: int = 0
    """Which variant of each `oneOf` comes first (the n-th item of an array takes the next):
    the variations start at different ones so that together they reach every variant."""


class Generator:
    def __init__(
        self, document: dict[str, Any], fits: Callable[[dict[str, Any], Any], bool]
    ) -> None:
        """`fits(schema, value)`: whether a value is valid against a node of the document (a
        `oneOf` variant may also match a sibling; the next one is tried then)."""
        self.document = document
        self.fits = fits

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            node: Any = self.document
            for part in schema["$ref"].removeprefix("#/").split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
            schema = node
        return schema

    def answer(self, schema: dict[str, Any], shape: Shape) -> Any:
        return self._value(schema, shape, depth=0, choice=shape.choice, top=True)

    def _value(
        self,
        schema: dict[str, Any],
        shape: Shape,
        *,
        depth: int,
        choice: int,
        top: bool = False,
        required: frozenset[str] = frozenset(),
    ) -> Any:
        """`required`: names a sibling of an `allOf` requires, though defined here."""
        if "$ref" in schema:
            depth += 1
            schema = self.resolve(schema)
        if schema.get("nullable") and shape.variation == "edge" and not top:
            return None
        if "allOf" in schema:
            merged: dict[str, Any] = {}
            parts = [self.resolve(part) for part in schema["allOf"]]
            needed = required.union(*(part.get("required", ()) for part in parts))
            for part in schema["allOf"]:
                value = self._value(
                    part, shape, depth=depth, choice=choice, top=top, required=needed
                )
                if isinstance(value, dict):
                    merged.update(value)
            return merged
        for key in ("oneOf", "anyOf"):
            if key in schema:
                variants = schema[key]
                first = None
                for offset in range(len(variants)):
                    variant = variants[(choice + offset) % len(variants)]
                    value = self._value(  # the rest of `choice` picks the nested variants
                        variant,
                        shape,
                        depth=depth,
                        choice=choice // len(variants),
                        required=required,
                    )
                    if key == "anyOf" or self.fits(schema, value):
                        return value
                    first = value if first is None else first
                return first
        if "enum" in schema:
            values = [v for v in schema["enum"] if v is not None] or [None]
            return values[-1] if shape.variation == "edge" else values[0]
        if "const" in schema:
            return schema["const"]
        kind = schema.get("type")
        if kind == "object" or "properties" in schema:
            return self._object(
                schema, shape, depth=depth, choice=choice, top=top, required=required
            )
        if kind == "array":
            return self._array(schema, shape, depth=depth, choice=choice, top=False)
        if kind == "string":
            return self._string(schema, shape)
        if kind in ("integer", "number"):
            return self._number(schema, shape, whole=kind == "integer")
        if kind == "null":
            return None
        if kind == "boolean":
            return shape.variation != "edge"
        return {}  # any value: an empty object is one

    def _object(
        self,
        schema: dict[str, Any],
        shape: Shape,
        *,
        depth: int,
        choice: int,
        top: bool,
        required: frozenset[str],
    ) -> dict[str, Any]:
        required = required.union(schema.get("required", ()))
        deep = depth > _DEPTH
        out: dict[str, Any] = {}
        for position, (name, sub) in enumerate(schema.get("properties", {}).items()):
            if name not in required and (shape.variation == "absent" or deep):
                continue
            if top and name == "next":
                if shape.next_page:
                    out[name] = {"page": "page-2"}
                continue
            if top and name == "items" and self.resolve(sub).get("type") == "array":
                item = self.resolve(sub).get("items", {})
                out[name] = [
                    self._value(item, shape, depth=depth, choice=choice + i)
                    for i in range(shape.items)
                ]
                continue
            out[name] = self._value(sub, shape, depth=depth, choice=choice + position)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and extra and shape.variation != "absent" and not deep:
            names = self.resolve(schema.get("propertyNames", {})).get("enum", ["extra-key"])
            out.setdefault(names[-1], self._value(extra, shape, depth=depth, choice=choice))
        if shape.variation == "unknown" and extra in (None, True):
            out["futureField"] = {"addedIn": "a later release", "values": [1, 2.5, None]}
        return out

    def _array(
        self, schema: dict[str, Any], shape: Shape, *, depth: int, choice: int, top: bool
    ) -> list[Any]:
        low = schema.get("minItems", 0)
        high = schema.get("maxItems", 10**6)
        size = low if shape.variation == "absent" or depth > _DEPTH else max(low, shape.items)
        size = min(size, high)
        item = schema.get("items", {})
        return [self._value(item, shape, depth=depth, choice=choice + i) for i in range(size)]

    def _string(self, schema: dict[str, Any], shape: Shape) -> str:
        edge = shape.variation == "edge"
        fmt = schema.get("format")
        if fmt == "date-time":
            return "2024-02-29T23:59:59.999+02:00" if edge else "2024-01-01T00:00:00Z"
        if fmt == "date":
            return "2024-02-29"
        if fmt == "uri":
            return "https://docs.example.com/a%20b?x=1#top" if edge else "https://example.com/"
        if fmt == "emoji":
            return "1f468-200d-1f469" if edge else "🎉"
        if fmt == "uuid":
            return "123e4567-e89b-12d3-a456-426614174000"
        if fmt == "email":
            return "ada@example.com"
        if fmt == "byte":
            return "AA=="
        low = schema.get("minLength", 0)
        high = schema.get("maxLength", 120)
        pattern = schema.get("pattern")
        if pattern is not None:
            for sample in _PATTERN_SAMPLES:
                if re.search(pattern, sample) and low <= len(sample) <= high:
                    return sample
            raise AssertionError(f"no sample string matches {pattern!r}")
        if edge:
            text = "Ünïcödé 文档 — "
            size = max(low, min(high, 60))
            return (text * (size // len(text) + 1))[:size]
        size = max(low, 1) if high >= 1 else 0
        return ("value" * (size // 5 + 1))[:size]

    def _number(self, schema: dict[str, Any], shape: Shape, *, whole: bool) -> int | float:
        low = schema.get("minimum")
        high = schema.get("maximum")
        if schema.get("exclusiveMinimum") is True and low is not None:
            low = low + (1 if whole else 0.5)
        if shape.variation == "edge":
            if high is not None:
                return int(high) if whole else high
            return 2**31 - 1 if whole else 1234.5
        if low is not None:
            return int(low) if whole else low + 0.5
        return 3 if whole else 2.5
