"""A few gateway round trips over a real loopback port, not the in-process transport."""

from __future__ import annotations

import asyncio

import pytest

from docdeck.gateway import AuthenticationError, Client, NotFoundError

pytestmark = pytest.mark.loopback


async def test_reads_writes_and_errors_over_a_real_socket(live_url: str, admin_token: str) -> None:
    async with Client(f"{live_url}/v1/", admin_token) as client:
        orgs = await client.orgs.list()
        assert len(orgs.items) >= 2
        org = orgs.items[0]
        space = await client.spaces.create(org.id, title="Over the wire", emoji="🛰")
        fetched = await asyncio.gather(*(client.spaces.get(space.id) for _ in range(5)))
        assert {s.title for s in fetched} == {"Over the wire"}
        await client.spaces.delete(space.id)
        with pytest.raises(NotFoundError) as info:
            await client.collections.get("no-such-collection")
        assert info.value.path == "/v1/collections/no-such-collection"

    async with Client(live_url, "ddk_wrong") as stranger:
        with pytest.raises(AuthenticationError) as denied:
            await stranger.orgs.list()
    assert str(denied.value).startswith("401 Unauthorized on GET /v1/orgs: ")
