"""A spec version's content (`filesystem`, the parsed document) read as what a reader looks
for: its paths and, under each, its operations with their parameters and responses.

Pure data: the document is whatever the server parsed (OpenAPI 3.x or Swagger 2.0), so
every part is read tolerantly; a part of the wrong shape is left out, never an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["METHODS", "Operation", "Outline", "PathItem", "operation_lines", "outline"]

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    summary: str = ""
    operation_id: str = ""
    description: str = ""
    tags: tuple[str, ...] = ()
    deprecated: bool = False
    parameters: tuple[str, ...] = ()
    """"name (in, required)" or a $ref's last part."""
    request_body: str = ""
    responses: tuple[str, ...] = ()
    """"200 description"."""


@dataclass(frozen=True)
class PathItem:
    path: str
    operations: tuple[Operation, ...]


@dataclass(frozen=True)
class Outline:
    title: str = ""
    version: str = ""
    kind: str = ""
    """"OpenAPI 3.1.0" or "Swagger 2.0"."""
    servers: tuple[str, ...] = ()
    paths: tuple[PathItem, ...] = field(default_factory=tuple)

    @property
    def operation_count(self) -> int:
        return sum(len(item.operations) for item in self.paths)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _ref_name(value: dict[str, Any]) -> str:
    ref = _text(value.get("$ref"))
    return ref.rsplit("/", 1)[-1] if ref else ""


def _parameter(value: Any) -> str:
    item = _dict(value)
    ref = _ref_name(item)
    if ref:
        return f"{ref} (ref)"
    name = _text(item.get("name"))
    if not name:
        return ""
    where = _text(item.get("in"))
    required = " required" if item.get("required") is True else ""
    return f"{name} ({where}{required})" if where or required else name


def _request_body(operation: dict[str, Any], parameters: list[Any]) -> str:
    body = _dict(operation.get("requestBody"))
    if body:
        ref = _ref_name(body)
        if ref:
            return f"{ref} (ref)"
        types = ", ".join(str(kind) for kind in _dict(body.get("content")))
        required = "required" if body.get("required") is True else "optional"
        return f"{required}: {types}" if types else required
    # Swagger 2.0: the body is a parameter "in: body".
    for parameter in parameters:
        item = _dict(parameter)
        if item.get("in") == "body":
            schema = _dict(item.get("schema"))
            return _ref_name(schema) or _text(item.get("name")) or "body"
    return ""


def _operation(path: str, method: str, value: dict[str, Any], shared: list[Any]) -> Operation:
    own = value.get("parameters")
    parameters = [*shared, *(own if isinstance(own, list) else [])]
    responses = tuple(
        f"{code} {_text(_dict(answer).get('description')) or _ref_name(_dict(answer))}".strip()
        for code, answer in _dict(value.get("responses")).items()
    )
    tags = value.get("tags")
    return Operation(
        method=method.upper(),
        path=path,
        summary=_text(value.get("summary")),
        operation_id=_text(value.get("operationId")),
        description=_text(value.get("description")),
        tags=tuple(str(tag) for tag in tags) if isinstance(tags, list) else (),
        deprecated=value.get("deprecated") is True,
        parameters=tuple(
            p for p in (_parameter(v) for v in parameters if _dict(v).get("in") != "body") if p
        ),
        request_body=_request_body(value, parameters),
        responses=responses,
    )


def outline(document: dict[str, Any]) -> Outline:
    """The document's paths in its own order, each with its operations in method order."""
    if isinstance(document.get("openapi"), str):
        kind = f"OpenAPI {document['openapi']}"
        servers = tuple(
            _text(_dict(server).get("url"))
            for server in document.get("servers") or []
            if _text(_dict(server).get("url"))
        )
    elif document.get("swagger") is not None:
        kind = f"Swagger {document['swagger']}"
        host, base = _text(document.get("host")), _text(document.get("basePath"))
        servers = (f"{host}{base}",) if host or base else ()
    else:
        kind, servers = "", ()
    info = _dict(document.get("info"))
    paths: list[PathItem] = []
    for path, value in _dict(document.get("paths")).items():
        item = _dict(value)
        found = item.get("parameters")
        shared: list[Any] = found if isinstance(found, list) else []
        operations = tuple(
            _operation(str(path), method, _dict(item[method]), shared)
            for method in METHODS
            if isinstance(item.get(method), dict)
        )
        paths.append(PathItem(str(path), operations))
    return Outline(
        title=_text(info.get("title")),
        version=_text(info.get("version")) or str(info.get("version") or ""),
        kind=kind,
        servers=servers,
        paths=tuple(paths),
    )


def operation_lines(operation: Operation) -> list[tuple[str, str]]:
    """An operation as (label, text) rows, for the detail beside the tree."""
    rows: list[tuple[str, str]] = [("", f"{operation.method} {operation.path}")]
    if operation.deprecated:
        rows.append(("", "deprecated"))
    for label, value in (
        ("Summary", operation.summary),
        ("Operation id", operation.operation_id),
        ("Tags", ", ".join(operation.tags)),
        ("Description", operation.description),
        ("Request body", operation.request_body),
    ):
        if value:
            rows.append((label, value))
    rows += [("Parameter", parameter) for parameter in operation.parameters]
    rows += [("Response", response) for response in operation.responses]
    return rows
