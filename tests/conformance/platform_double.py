"""A stand-in for the hosted platform: every read answered with a body generated from the
platform's OpenAPI document (answers.py), so the TUI can be tried against what the platform
sends rather than against the sandbox, whose answers its own models write.

`Release` is one document's read operations (test_platform_answers.py feeds the gateway from
it). `Platform` answers requests as one release would: as an httpx transport's handler in
tests, or as a server on a port to try the TUI by hand (run from the repository's root):

    PYTHONPATH=tests .venv/bin/python -m conformance.platform_double --port 8766
    docdeck --base-url http://127.0.0.1:8766 --token any

`--links` also answers the link analysis operations (0.130.0's, which 0.202.0 no longer
documents); without it their routes answer 404 as a deployment without them does.
`--variation` picks the answers' shape (answers.py: absent, edge, unknown, lists).

Answers are dressed before they are checked against the document: ids are made distinct
(one per resource, stable for a request path) and a single resource keeps the id it was
asked for; titles and subjects say what they are ("Space 2"), so a screen can be read; the
two optional fields that would make a listing inconsistent are left out (`_DANGLING`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
from jsonschema.protocols import Validator
from referencing import Registry

from docdeck.gateway._errors import OPTIONAL_OPERATIONS

from .answers import VARIATIONS, Generator, Shape
from .openapi import (
    document_path,
    json_schema_document,
    newer_document_path,
    platform_document,
    schema_registry,
    schema_validator,
)

ROOT = "urn:platform"


@dataclass
class Operation:
    operation_id: str
    pattern: re.Pattern[str]
    literal: int
    schema: dict[str, Any]
    pointer: str
    template: str
    """The document's path (`/spaces/{spaceId}`)."""


@dataclass
class Release:
    name: str
    path: Path
    generator: Generator = field(init=False)
    operations: list[Operation] = field(init=False)

    def __post_init__(self) -> None:
        document = platform_document(self.path)
        self.generator = Generator(document, self.fits)
        self.operations = []
        for path, item in document["paths"].items():
            get = item.get("get")
            if not isinstance(get, dict):
                continue
            for status, response in get["responses"].items():
                if not status.startswith("2"):
                    continue
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                if schema is None:
                    continue
                template = re.escape("/v1" + path).replace(r"\{pagePath\}", ".+")
                regex = re.sub(r"\\\{[^}]+\\\}", "[^/]+", template)
                pointer = "/".join(
                    p.replace("~", "~0").replace("/", "~1")
                    for p in ("paths", path, "get", "responses", status, "content")
                )
                self.operations.append(
                    Operation(
                        get["operationId"],
                        re.compile(regex),
                        len(re.sub(r"\{[^}]+\}", "", path)),
                        schema,
                        f"{ROOT}#/{pointer}/application~1json/schema",
                        path,
                    )
                )
                break

    @cached_property
    def enum_strings(self) -> frozenset[str]:
        """Every string an enum of the document allows: an `id` that is one (a site
        feature's `sites-sections`) is a value to keep, not a name to make distinct."""
        found: set[str] = set()

        def walk(node: Any) -> None:
            if isinstance(node, dict):
                values = node.get("enum")
                if isinstance(values, list):
                    found.update(v for v in values if isinstance(v, str))
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(platform_document(self.path))
        return frozenset(found)

    @cached_property
    def registry(self) -> Registry:
        return schema_registry(json_schema_document(self.path), ROOT)

    @cached_property
    def validators(self) -> dict[Any, Validator]:
        return {}

    def validator(self, pointer: str) -> Validator:
        if pointer not in self.validators:
            self.validators[pointer] = schema_validator(
                {"$ref": pointer}, self.registry, json_schema_document(self.path)
            )
        return self.validators[pointer]

    @cached_property
    def checked(self) -> dict[tuple[str, str], str | None]:
        """`first_error`'s answers, by schema and body."""
        return {}

    def first_error(self, pointer: str, body: Any) -> str | None:
        """The first way `body` breaks the schema at `pointer`, None when it fits. The
        generator is deterministic and the same read is asked in each variation, so most
        bodies come again: each is validated once (jsonschema was about half the time of
        the conformance tests)."""
        asked = (pointer, json.dumps(body, sort_keys=True))
        if asked not in self.checked:
            error = next(iter(self.validator(pointer).iter_errors(body)), None)
            self.checked[asked] = None if error is None else str(error)
        return self.checked[asked]

    @cached_property
    def fitted(self) -> dict[tuple[int, str], bool]:
        """`fits`' answers: the generator asks the same question again and again (836
        distinct of 6,232 in one run), and each is a jsonschema validation."""
        return {}

    def fits(self, node: dict[str, Any], value: Any) -> bool:
        key = id(node)
        asked = (key, json.dumps(value, sort_keys=True))
        known = self.fitted.get(asked)
        if known is not None:
            return known
        if key not in self.validators:
            schema = json.loads(json.dumps(node).replace('"#/', f'"{ROOT}#/'))
            self.validators[key] = schema_validator(
                schema, self.registry, json_schema_document(self.path)
            )
        fits = self.fitted[asked] = bool(self.validators[key].is_valid(value))
        return fits

    def operation_of(self, path: str) -> Operation | None:
        found = [op for op in self.operations if op.pattern.fullmatch(path)]
        return max(found, key=lambda op: op.literal) if found else None


def releases() -> dict[str, Path | None]:
    """Each release's document, None where it is absent."""
    return {"0.130.0": document_path(), "0.202.0": newer_document_path()}


_NOT_OFFERED = {"error": {"code": 404, "message": "No route matches this request"}}


@dataclass
class Platform:
    """The hosted platform of one release, answering reads with generated bodies.

    `offers`: names of `OPTIONAL_OPERATIONS` (link analysis, ...) answered from `older`'s
    document where `release` lacks them; the others answer 404 as a route nobody serves."""

    release: Release
    variation: str = "unknown"
    offers: frozenset[str] = frozenset()
    older: Release | None = None
    requests: list[str] = field(default_factory=list)
    """Every request as "METHOD /path", in order."""

    def answer(self, method: str, path: str, params: dict[str, str]) -> tuple[int, Any]:
        self.requests.append(f"{method} {path}")
        if method != "GET":
            message = "This stand-in for the platform answers reads only"
            return 405, {"error": {"code": 405, "message": message}}
        release = self.release
        operation = release.operation_of(path)
        if operation is None and self.older is not None and self._offered(path):
            release = self.older
            operation = release.operation_of(path)
        if operation is None or (self._optional(path) and not self._offered(path)):
            return 404, _NOT_OFFERED
        shape = Shape(self.variation, choice=VARIATIONS.index(self.variation))
        if self.variation == "lists":
            shape = Shape("lists", 3, next_page=True)
        if "page" in params:  # the page `next.page` pointed to: the last one
            shape = Shape(shape.variation, items=1, choice=shape.choice + 1)
        answer = release.generator.answer(operation.schema, shape)
        body = _dress(answer, operation, path, release.enum_strings)
        error = release.first_error(operation.pointer, body)
        if error is not None:
            raise AssertionError(f"an invalid answer for {operation.operation_id}: {error}")
        return 200, body

    @staticmethod
    def _optional(path: str) -> bool:
        return any(
            re.fullmatch(pattern, path)
            for patterns in OPTIONAL_OPERATIONS.values()
            for pattern in patterns
        )

    def _offered(self, path: str) -> bool:
        return any(
            re.fullmatch(pattern, path)
            for name in self.offers
            for pattern in OPTIONAL_OPERATIONS[name]
        )

    def __call__(self, request: httpx.Request) -> httpx.Response:
        """An `httpx.MockTransport` handler."""
        params = dict(request.url.params)
        status, body = self.answer(request.method, request.url.path, params)
        return httpx.Response(status, json=body)

    async def asgi(
        self,
        scope: MutableMapping[str, Any],
        receive: Callable[[], Awaitable[MutableMapping[str, Any]]],
        send: Callable[[MutableMapping[str, Any]], Awaitable[None]],
    ) -> None:
        """The same answers as an ASGI app, for a server on a port."""
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        query = parse_qs(scope["query_string"].decode("latin-1"))
        params = {key: values[-1] for key, values in query.items()}
        try:
            status, body = self.answer(scope["method"], scope["path"], params)
        except AssertionError as error:
            status, body = 500, {"error": {"code": 500, "message": str(error)}}
        content = json.dumps(body).encode()
        headers = [(b"content-type", b"application/json")]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})


def platform(
    *, variation: str = "unknown", links: bool = False, release: str = "0.202.0"
) -> Platform | None:
    """The platform of `release`, offering link analysis from 0.130.0 when `links`;
    None when a document it needs is absent."""
    paths = releases()
    main = paths[release]
    older = paths["0.130.0"]
    if main is None or (links and older is None):
        return None
    return Platform(
        Release(release, main),
        variation,
        offers=frozenset({"link analysis"}) if links else frozenset(),
        older=Release("0.130.0", older) if links and older is not None else None,
    )


_DANGLING = ("parent", "deletedAt")
"""Left out of spaces and collections: a generated `parent` names a collection no answer lists (the
tree would have nowhere to show the space), and a `deletedAt` would make every space of a
live listing a deleted one."""


def _dress(body: Any, operation: Operation, path: str, enums: frozenset[str]) -> Any:
    """Distinct ids (stable for this path), the asked-for id on a single resource, and
    titles that say what they are. An id that is an enum's value (`enums`) is kept."""
    tag = hashlib.sha256(path.encode()).hexdigest()[:4]
    counts: dict[str, int] = {}

    def kind_of(node: dict[str, Any]) -> str:
        kind = node.get("object") or node.get("type") or "item"
        return str(kind) if isinstance(kind, str) else "item"

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
            return
        if not isinstance(node, dict):
            return
        kind = kind_of(node)
        if isinstance(node.get("id"), str) or isinstance(node.get("title"), str):
            counts[kind] = counts.get(kind, 0) + 1
            number = counts[kind]
            if isinstance(node.get("id"), str) and node["id"] not in enums:
                node["id"] = f"{kind}-{tag}-{number}"
            if kind == "change-request" and "number" in node:
                node["number"] = number
            if isinstance(node.get("title"), str):
                node["title"] = f"{kind.replace('-', ' ').capitalize()} {number}"
            if isinstance(node.get("slug"), str):  # unique in an organization, as ids
                node["slug"] = f"{node['slug']}-{number}"
        if kind in ("space", "collection"):
            for name in _DANGLING:
                node.pop(name, None)
        if isinstance(node.get("subject"), str):
            counts["subject"] = counts.get("subject", 0) + 1
            node["subject"] = f"Change request {counts['subject']}"
        for value in node.values():
            walk(value)

    walk(body)
    if not (operation.template.endswith("}") and isinstance(body, dict)):
        return body
    asked = path.rsplit("/", 1)[-1]
    if asked.isdigit() and "number" in body:  # a change request asked for by its number
        body["number"] = int(asked)
    elif "id" in body:
        body["id"] = asked
    if isinstance(body.get("parents"), list):  # a revision is not its own parent
        body["parents"] = [p for p in dict.fromkeys(body["parents"]) if p != body.get("id")]
    return body


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--links", action="store_true", help="offer link analysis")
    parser.add_argument("--variation", choices=VARIATIONS, default="unknown")
    parser.add_argument("--release", choices=("0.202.0", "0.130.0"), default="0.202.0")
    args = parser.parse_args()
    served = platform(variation=args.variation, links=args.links, release=args.release)
    if served is None:
        raise SystemExit("the platform's OpenAPI documents are absent (../shared/reference/)")
    import uvicorn

    uvicorn.run(served.asgi, host=args.host, port=args.port, log_level="warning", interface="asgi3")


if __name__ == "__main__":
    main()
