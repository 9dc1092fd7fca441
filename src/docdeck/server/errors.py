"""One error shape for every failure: `{"error": {"code": <status>, "message": "..."}}`.

This module is the vocabulary services raise and the messages they say; the HTTP handlers that
turn FastAPI's 422 validation errors and Starlette's 404/405 into this shape are in
`http/error_handlers.py`, anything unexpected in `http/asgi.RequestGuard`, so a client never
sees another shape and never a 422. (Services import this module; it imports nothing of the
request path.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar


class ApiError(Exception):
    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


MAX_NAMED = 10
"""An error message names at most this many items (values, fields), then says how many more."""


def describe_value(value: object, limit: int = 80) -> str:
    """`repr(value)`, shortened in the middle of a long value so a message stays readable."""
    shown = repr(value)
    if len(shown) <= limit:
        return shown
    half = (limit - 1) // 2
    return f"{shown[:half]}…{shown[-half:]}"


def name_items(items: Sequence[str], limit: int = MAX_NAMED, separator: str = ", ") -> str:
    """`'a', 'b' … and 999,990 more`: a list for a message, capped at `limit` names."""
    shown = separator.join(items[:limit])
    rest = len(items) - limit
    return f"{shown} … and {rest:,} more" if rest > 0 else shown


def bad_request(message: str) -> ApiError:
    return ApiError(400, message)


def forbidden(message: str) -> ApiError:
    return ApiError(403, message)


def unauthorized(message: str) -> ApiError:
    return ApiError(401, message, {"WWW-Authenticate": "Bearer"})


def not_found(message: str) -> ApiError:
    return ApiError(404, message)


_T = TypeVar("_T")


def found(value: _T | None, missing: str) -> _T:
    """`value`, what a lookup found, or a 404 saying `missing` when it found nothing."""
    if value is None:
        raise not_found(missing)
    return value


def conflict(message: str) -> ApiError:
    return ApiError(409, message)


def error_body(status: int, message: str) -> bytes:
    return json.dumps({"error": {"code": status, "message": message}}).encode()


_TYPE_TAGS = {"str", "int", "float", "bool", "none", "dict", "list", "json-or-python"}


def _field_path(loc: Sequence[int | str]) -> str:
    """`('body', 'position', 'before', 'SpacePointer', 'space')` -> `position.before.space`."""
    parts: list[str] = []
    for index, item in enumerate(loc):
        if index == 0 and item in ("body", "query", "path", "header"):
            continue
        if isinstance(item, int):
            parts.append(f"[{item}]")
            continue
        if "[" in item or item in _TYPE_TAGS or item[:1].isupper() or "-" in item:
            # a union member's tag, not a field: a model's name, a type, or the value of a
            # discriminator (`site-page`: no request field is spelled with a hyphen)
            continue
        parts.append(("." if parts else "") + item)
    return "".join(parts) or "body"


def _unquoted(values: object) -> str:
    """`"'a', 'b'"` (pydantic's list of tags) -> `a, b`, as the other choices are written."""
    return ", ".join(_QUOTED.findall(str(values))) or str(values)


def _describe(error: dict[str, Any], field: str = "body") -> str:
    """What was wrong with `field`. Only the whole body, sent as text or a form, gets the
    Content-Type hint: a nested field given as a string was sent as JSON all right."""
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    if kind == "string_too_long":
        return f"must be at most {ctx.get('max_length')} characters"
    if kind == "string_too_short":
        minimum = ctx.get("min_length")
        return "must not be empty" if minimum == 1 else f"must be at least {minimum} characters"
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return "is not a known field"
    if kind == "json_invalid":
        return f"malformed JSON ({ctx.get('error', 'invalid')})"
    if kind in ("less_than_equal", "less_than"):
        return f"must be at most {ctx.get('le', ctx.get('lt'))}"
    if kind in ("greater_than_equal", "greater_than"):
        return f"must be at least {ctx.get('ge', ctx.get('gt'))}"
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return "must be an integer"
    if kind in ("bool_parsing", "bool_type"):
        return "must be true or false"
    if kind == "string_type":
        return "must be a string"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        if field == "body" and isinstance(error.get("input"), str | bytes):  # text or a form
            return "must be a JSON object sent with Content-Type: application/json"
        return "must be a JSON object"
    if kind == "list_type":
        return "must be an array"
    if kind in ("too_short", "too_long"):  # a list's (or object's) number of items
        bound = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        given = ctx.get("actual_length")
        got = f" (got {given:,})" if isinstance(given, int) else ""
        items = "item" if bound == 1 else "items"
        return f"must have {'at least' if kind == 'too_short' else 'at most'} {bound} {items}{got}"
    if kind == "string_pattern_mismatch":
        given = error.get("input")
        got = f" (got {describe_value(given)})" if isinstance(given, str) else ""
        return f"must match the pattern {ctx.get('pattern')}{got}"
    if kind in ("float_parsing", "float_type", "finite_number"):
        return "must be a number"
    if kind == "union_tag_not_found":  # reported at the union: its discriminator is missing
        return "is required"
    if kind == "union_tag_invalid":
        return f"must be one of {_unquoted(ctx.get('expected_tags'))} (got {ctx.get('tag')!r})"
    message = str(error.get("msg", "is invalid"))
    return message[:1].lower() + message[1:]


_QUOTED = re.compile(r"'([^']*)'")
_NULLABLE_ROLES = {"role", "defaultRole", "defaultLevel"}


def _union_choice(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For a union of models (`SpacePointer | CollectionPointer`), keep the errors of the
    member that came closest (fewest errors), not the noise of every member."""
    branches: dict[tuple[Any, ...], dict[str, list[dict[str, Any]]]] = {}
    plain: list[dict[str, Any]] = []
    for error in errors:
        loc = tuple(error.get("loc", ()))
        tag = next((i for i, p in enumerate(loc) if isinstance(p, str) and p[:1].isupper()), None)
        if tag is None:
            plain.append(error)
        else:
            branches.setdefault(loc[:tag], {}).setdefault(str(loc[tag]), []).append(error)
    for members in branches.values():
        best: list[dict[str, Any]] = min(members.values(), key=len)
        plain.extend(best)
    return plain


def describe_errors(errors: Iterable[dict[str, Any]]) -> str:
    """A short message naming each bad field once, merging the errors of a union's members."""
    everything = list(errors)
    allowed_by_field: dict[str, list[str]] = {}
    for error in everything:
        if error.get("type") in ("literal_error", "enum"):
            expected = str((error.get("ctx") or {}).get("expected", ""))
            values = allowed_by_field.setdefault(_field_path(error.get("loc", ())), [])
            values += [v for v in _QUOTED.findall(expected) if v not in values]
    by_field: dict[str, list[dict[str, Any]]] = {}
    for error in _union_choice(everything):
        field = _field_path(error.get("loc", ()))
        if error.get("type") in ("union_tag_not_found", "union_tag_invalid"):
            # said of the discriminator itself: `destination.kind`, not `destination`
            tag = _QUOTED.findall(str((error.get("ctx") or {}).get("discriminator", "")))
            if tag:
                field = tag[0] if field == "body" else f"{field}.{tag[0]}"
        by_field.setdefault(field, []).append(error)
    messages: list[str] = []
    for field, field_errors in by_field.items():
        kinds = {e.get("type") for e in field_errors}
        if "literal_error" in kinds or "enum" in kinds:
            allowed = list(allowed_by_field.get(field, []))
            leaf = field.rsplit(".", 1)[-1]
            if "none_required" in kinds or (leaf in _NULLABLE_ROLES and "admin" in allowed):
                allowed.append("null")
            given = field_errors[0].get("input")
            shown = (
                f" (got {describe_value(given)})" if isinstance(given, str | int | float) else ""
            )
            messages.append(f"{field}: must be one of {', '.join(allowed)}{shown}")
            continue
        relevant = [e for e in field_errors if e.get("type") != "none_required"] or field_errors
        if relevant[0].get("type") == "json_invalid":
            field = "body"
        elif field == "body" and relevant[0].get("type") == "missing":
            messages.append("body: a JSON object is required")
            continue
        messages.append(f"{field}: {_describe(relevant[0], field)}")
    return name_items(messages, separator="; ") if messages else "invalid request"


_SCHEMA_TYPES = {
    "object": "a JSON object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def _schema_field(prefix: str, path: Iterable[object]) -> str:
    out = prefix
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out or "body"


def describe_schema_error(error: Any, prefix: str = "") -> str:
    """`field: what is wrong` for a `jsonschema` ValidationError, in the words the pydantic
    errors use (`is required`, `is not a known field`, `must be one of ...`), naming the field
    itself - not its parent with the library's "'x' is a required property". `prefix` is
    where the validated value sits in the body (`jsonSchema`; none for the body itself)."""
    path = list(error.absolute_path)
    kind, expected, instance = error.validator, error.validator_value, error.instance
    if kind == "required" and isinstance(instance, dict):
        missing = [name for name in expected if name not in instance]
        if missing:
            return f"{_schema_field(prefix, [*path, missing[0]])}: is required"
    if kind == "additionalProperties" and expected is False and isinstance(instance, dict):
        known = set((error.schema or {}).get("properties", {}))
        extra = sorted(name for name in instance if name not in known)
        if extra:
            return f"{_schema_field(prefix, [*path, extra[0]])}: is not a known field"
    field = _schema_field(prefix, path)
    shown = f" (got {describe_value(instance)})" if isinstance(instance, str | int | float) else ""
    if isinstance(instance, bool):
        shown = f" (got {json.dumps(instance)})"
    if kind == "enum":
        allowed = name_items([str(v) if isinstance(v, str) else json.dumps(v) for v in expected])
        return f"{field}: must be one of {allowed}{shown}"
    if kind == "type":
        names = [expected] if isinstance(expected, str) else list(expected)
        return f"{field}: must be {' or '.join(_SCHEMA_TYPES.get(n, n) for n in names)}"
    if kind in ("maxLength", "minLength"):
        bound = "at most" if kind == "maxLength" else "at least"
        return f"{field}: must be {bound} {expected} characters"
    if kind in ("maxItems", "minItems"):
        bound = "at most" if kind == "maxItems" else "at least"
        return f"{field}: must have {bound} {expected} item{'' if expected == 1 else 's'}"
    if kind in ("maximum", "minimum"):
        return f"{field}: must be {'at most' if kind == 'maximum' else 'at least'} {expected}"
    if kind == "pattern":
        return f"{field}: must match the pattern {expected}{shown}"
    message = str(error.message)
    return f"{field}: {message[:1].lower()}{message[1:]}"
