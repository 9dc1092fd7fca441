"""Reading a fetched or given text as an OpenAPI document: JSON or YAML, bounded, and valid
OpenAPI 3.x or Swagger 2.0 (`openapi-spec-validator`, the validator the Python OpenAPI tools
share, rather than a hand-written subset of the two specifications)."""

from __future__ import annotations

import json
from typing import Any

MAX_NODES = 1_000_000
"""Values in a parsed document, counted as written out: a YAML alias counts every time it is
used, so a few lines of nested aliases (a "billion laughs") are refused, not expanded."""


class DocumentError(Exception):
    """Why a text is not a usable OpenAPI document (`PARSE_ERROR`)."""


def _count(value: Any, limit: int) -> None:
    seen = 0
    stack = [value]
    while stack:
        item = stack.pop()
        seen += 1
        if seen > limit:
            raise DocumentError(f"the document holds more than {limit:,} values")
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _yaml(text: str) -> Any:
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise DocumentError(f"not valid JSON or YAML: {error}") from None
    except RecursionError:
        raise DocumentError("the document nests too deeply") from None


def parse(text: str, max_nodes: int = MAX_NODES) -> dict[str, Any]:
    """The document as JSON-compatible data (YAML dates and keys made JSON-safe)."""
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise DocumentError(f"not valid JSON: {error}") from None
        except RecursionError:
            raise DocumentError("the document nests too deeply") from None
    else:
        document = _yaml(text)
    if not isinstance(document, dict):
        raise DocumentError("the document is not an object (a mapping at its top level)")
    _count(document, max_nodes)
    try:
        safe: dict[str, Any] = json.loads(json.dumps(document, default=str))
    except (TypeError, ValueError, RecursionError) as error:
        raise DocumentError(f"the document cannot be written as JSON: {error}") from None
    return safe


def validate(document: dict[str, Any]) -> None:
    """OpenAPI 3.0/3.1 or Swagger 2.0, as `openapi-spec-validator` judges it."""
    if not ("openapi" in document or "swagger" in document):
        raise DocumentError("the document has neither an `openapi` nor a `swagger` version field")
    from openapi_spec_validator import validate as validate_spec

    try:
        validate_spec(document)
    except RecursionError:
        raise DocumentError("the document's references nest too deeply") from None
    except Exception as error:  # the validator's errors have no common base beyond this
        message = str(getattr(error, "message", None) or error).splitlines()[0][:300]
        raise DocumentError(f"not a valid OpenAPI 3.x or Swagger 2.0 document: {message}") from None
