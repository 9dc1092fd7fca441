"""The gateway reads every answer the hosted platform's documents allow, in both releases.

The sandbox's own answers are written by the same models the gateway reads them with, so a
test that reads only those cannot show that docdeck works against the hosted platform. Here
every read method of the gateway is called, through its real parse path, against a transport
that answers with bodies generated from the platform's OpenAPI documents (0.130.0 and
0.202.0) in four variations (answers.py). The request's path picks the operation, so the
answer is the one the platform would give to that request.

Counts are printed (run with `-s`): calls tried, parsed and failed per release and variation.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import httpx
import pytest

from docdeck.gateway import Client, NotFoundError
from docdeck.gateway._pagination import AsyncPaginator
from docdeck.gateway._resource import Resource

from .answers import VARIATIONS, Shape
from .platform_double import Release, releases

EXTRA_READS = (
    "change_requests.content.file",
    "change_requests.content.file_backlinks",
    "change_requests.content.files",
    "change_requests.content.page",
    "change_requests.content.page_links",
    "change_requests.content.pages",
    "change_requests.content.revision",
    "content.revision_in_steps",
    "sites.customization.get",
    "sites.customization.get_site_space",
    "sites.redirects.list",
    "sites.redirects.resolve",
    "sites.structure.get",
)
"""Read methods the gateway has besides those marked with an `@endpoint("GET", ...)`."""

ARGUMENTS: dict[str, Any] = {
    "revision": "rev-1",
    "change_request": "cr-1",
    "format": "markdown",
    "page_path": "guides/start",
    "query": "deploy",
    "domain": "example.com",
}


@dataclass
class Answering:
    """The platform of one release, answering every request with a generated body."""

    release: Release
    shape: Shape = field(default_factory=lambda: Shape("absent"))
    answered: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        operation = self.release.operation_of(request.url.path)
        if operation is None:
            self.missing.append(request.url.path)
            body = {"error": {"code": 404, "message": "No route matches this request"}}
            return httpx.Response(404, json=body)
        shape = self.shape
        if "page" in request.url.params:  # the page `next.page` pointed to: the last one
            shape = Shape(shape.variation, items=1, choice=shape.choice + 1)
        body = self.release.generator.answer(operation.schema, shape)
        error = self.release.first_error(operation.pointer, body)
        assert error is None, f"generated an invalid answer for {operation.operation_id}: {error}"
        self.answered.append(operation.operation_id)
        return httpx.Response(200, json=body)


def _reads(client: Client) -> Iterator[tuple[str, Callable[..., Any]]]:
    """(dotted name, bound method) of every read method of the gateway."""
    seen: set[str] = set()

    def walk(group: Resource, prefix: str) -> Iterator[tuple[str, Callable[..., Any]]]:
        for name in sorted(dir(type(group))):
            if name.startswith("_"):
                continue
            attr = inspect.getattr_static(type(group), name)
            dotted = f"{prefix}.{name}"
            if isinstance(attr, property | cached_property):
                value = getattr(group, name)
                if isinstance(value, Resource):
                    yield from walk(value, dotted)
            elif (
                callable(attr)
                and (
                    any(method == "GET" for method, _ in getattr(attr, "__endpoints__", ()))
                    or dotted in EXTRA_READS
                )
                and dotted not in seen
            ):
                seen.add(dotted)
                yield dotted, getattr(group, name)

    for name in sorted(dir(type(client))):
        if isinstance(inspect.getattr_static(type(client), name), cached_property):
            group = getattr(client, name)
            if isinstance(group, Resource):
                yield from walk(group, name)


def _calls(method: Callable[..., Any]) -> list[dict[str, Any]]:
    """Argument sets that reach each of the method's routes (current content and a
    revision; a space and a change request)."""
    base: dict[str, Any] = {}
    optional: list[str] = []
    for param in inspect.signature(method).parameters.values():
        if param.kind is inspect.Parameter.VAR_KEYWORD:  # `**paging`: a list's first page
            continue
        if param.default is inspect.Parameter.empty:
            base[param.name] = ARGUMENTS.get(param.name, f"id-{param.name}")
        elif param.name in ("revision", "change_request"):
            optional.append(param.name)
    calls = [base]
    calls += [{**base, name: ARGUMENTS[name]} for name in optional]
    return calls


async def _invoke(method: Callable[..., Any], kwargs: dict[str, Any]) -> None:
    result = method(**kwargs)
    if isinstance(result, AsyncPaginator):
        await result.all()
    else:
        await result


def _shapes(variation: str) -> list[Shape]:
    if variation == "lists":
        return [Shape("lists", 0, choice=3), Shape("lists", 1, True, 1), Shape("lists", 3, True)]
    return [Shape(variation, choice=VARIATIONS.index(variation))]


@dataclass
class Tally:
    tried: int = 0
    parsed: int = 0
    not_offered: int = 0
    failures: list[str] = field(default_factory=list)


async def _run(release: Release, variation: str) -> tuple[Tally, set[str]]:
    answering = Answering(release)
    tally = Tally()
    async with Client(
        "https://platform.test", "token", transport=httpx.MockTransport(answering), max_retries=0
    ) as client:
        reads = list(_reads(client))
        assert len(reads) > 50, [name for name, _ in reads]
        for shape in _shapes(variation):
            answering.shape = shape
            for name, method in reads:
                for kwargs in _calls(method):
                    answering.missing.clear()
                    try:
                        await _invoke(method, kwargs)
                    except NotFoundError:
                        if answering.missing:  # a route this release does not have
                            tally.not_offered += 1
                            continue
                        raise
                    except Exception as exc:
                        tally.tried += 1
                        given = ", ".join(f"{k}={v}" for k, v in kwargs.items())
                        tally.failures.append(
                            f"{name}({given}) [{shape.variation}/{shape.items}]: {exc}"
                        )
                        continue
                    tally.tried += 1
                    tally.parsed += 1
    return tally, set(answering.answered)


@pytest.mark.parametrize("release_name", ["0.130.0", "0.202.0"])
async def test_the_gateway_parses_every_answer_the_platform_documents_allow(
    release_name: str, record_property: Callable[[str, object], None]
) -> None:
    path = releases()[release_name]
    if path is None:
        pytest.skip(
            f"the platform's {release_name} OpenAPI document is absent (set "
            "DOCDECK_PLATFORM_OPENAPI to 0.130.0's; 0.202.0's is read beside it as "
            "platform-openapi-newer.json)"
        )
    started = time.monotonic()
    release = Release(release_name, path)
    report: dict[str, dict[str, int]] = {}
    failures: list[str] = []
    answered: set[str] = set()
    for variation in VARIATIONS:
        tally, seen = await _run(release, variation)
        answered |= seen
        report[variation] = {
            "tried": tally.tried,
            "parsed": tally.parsed,
            "failed": len(tally.failures),
            "not offered": tally.not_offered,
        }
        failures += tally.failures
    record_property("platform_answers", report)
    print(f"\n{release_name} ({len(answered)} operations read):")
    for variation, counts in report.items():
        print(f"  {variation:8} " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"  {time.monotonic() - started:.1f} s")
    assert not failures, f"{len(failures)} failed:\n" + "\n".join(failures[:40])
    assert sum(c["tried"] for c in report.values()) > 200
