"""`Prefetched`: the answer to a client's first request, handed over as plain data.

It serves the first request only, and only a GET of exactly its URL with the same token;
anything else is sent over httpx as before. Until a request must be sent, httpx is not
imported at all (the organization tree's first view with a running sandbox).
"""

from __future__ import annotations

import json
import subprocess
import sys

import httpx
import pytest

from docdeck.gateway import APIResponseValidationError, Client, Prefetched

from .test_transport import ORG

BASE = "http://api.test"
TOKEN = "secret-token"


def _page(*titles: str) -> bytes:
    items = [{**ORG, "id": f"o{n}", "title": title} for n, title in enumerate(titles)]
    return json.dumps({"items": items, "count": len(items)}).encode()


def _answer(url: str = f"{BASE}/v1/orgs?limit=100", token: str = TOKEN) -> Prefetched:
    return Prefetched(
        url, f"Bearer {token}", {"content-type": "application/json"}, _page("Kept"), 200
    )


@pytest.fixture
def sent() -> list[str]:
    return []


def _client(sent: list[str], prefetched: Prefetched | None) -> Client:
    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request.url.raw_path.decode())
        return httpx.Response(200, json=json.loads(_page("Sent")))

    return Client(BASE, TOKEN, transport=httpx.MockTransport(handler), prefetched=prefetched)


async def _titles(client: Client, **params: int) -> list[str]:
    page = await client.orgs.list(**params)
    return [org.title for org in page.items]


async def test_the_same_first_get_is_answered_and_only_once(sent: list[str]) -> None:
    async with _client(sent, _answer()) as client:
        assert await _titles(client, limit=100) == ["Kept"]
        assert sent == []
        assert await _titles(client, limit=100) == ["Sent"]  # a refresh: asked anew
    assert sent == ["/v1/orgs?limit=100"]


@pytest.mark.parametrize(
    "answer",
    [
        _answer(url=f"{BASE}/v1/orgs?limit=1"),  # another query
        _answer(url="http://other.test/v1/orgs?limit=100"),  # another server
        _answer(token="another-token"),  # asked with another token
        Prefetched(f"{BASE}/v1/orgs?limit=100", f"Bearer {TOKEN}", {}, b"{}", 401),
    ],
)
async def test_an_answer_to_another_request_is_never_used(
    sent: list[str], answer: Prefetched
) -> None:
    async with _client(sent, answer) as client:
        assert await _titles(client, limit=100) == ["Sent"]
    assert sent == ["/v1/orgs?limit=100"]


async def test_another_first_request_gives_the_answer_up(sent: list[str]) -> None:
    async with _client(sent, _answer()) as client:
        await _titles(client, limit=1)
        assert await _titles(client, limit=100) == ["Sent"]
    assert sent == ["/v1/orgs?limit=1", "/v1/orgs?limit=100"]


async def test_a_prefetched_answer_that_is_not_json_is_reported_as_a_sent_one_is(
    sent: list[str],
) -> None:
    html = Prefetched(f"{BASE}/v1/orgs?limit=100", f"Bearer {TOKEN}", {"content-type": "text/html"})
    async with _client(sent, html) as client:
        with pytest.raises(APIResponseValidationError, match="text/html"):
            await client.orgs.list(limit=100)
    assert sent == []


def test_a_prefetched_first_request_needs_no_httpx() -> None:
    """In a fresh interpreter: the client is built and its first page read without httpx;
    `warm_up()` then imports it and builds its client (with the transport `make_transport`
    makes), and the prefetched answer's repr shows neither the token nor the body."""
    code = f"""
import asyncio, sys
from docdeck.gateway import Client, Prefetched

answer = Prefetched("{BASE}/v1/orgs?limit=100", "Bearer {TOKEN}",
                    {{"content-type": "application/json"}}, {_page("Kept")!r})
made = []

def make():
    import httpx
    made.append(1)
    return httpx.AsyncHTTPTransport()

async def main():
    client = Client("{BASE}", "{TOKEN}", prefetched=answer, make_transport=make)
    page = await client.orgs.list(limit=100)
    print(page.items[0].title, "httpx" in sys.modules, made)
    client.transport.warm_up()
    print("httpx" in sys.modules, made, client.transport.http is client.transport.http)
    await client.aclose()

asyncio.run(main())
print(repr(answer))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0] == "Kept False []"
    assert out[1] == "True [1] True"
    assert TOKEN not in out[2] and "Kept" not in out[2]


async def test_a_closed_client_is_not_warmed_up(sent: list[str]) -> None:
    client = Client(BASE, TOKEN, prefetched=_answer())
    await client.aclose()
    client.transport.warm_up()  # a quit came first: nothing is built
    assert client.transport._http is None
