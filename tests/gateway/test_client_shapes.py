"""The client's outer shape against the real sandbox: base URL forms, the three ways to
read a list, and the one httpx client closed on exit."""

from __future__ import annotations

import httpx
import pytest

from docdeck.gateway import AsyncPaginator, Client, paginate
from docdeck.models import ListPage, Organization, Space


@pytest.mark.parametrize(
    "base_url", ["http://sandbox", "http://sandbox/", "http://sandbox/v1", "http://sandbox/v1/"]
)
async def test_every_base_url_form_reaches_the_same_api(
    sandbox_app, admin_token: str, base_url: str
) -> None:
    transport = httpx.ASGITransport(app=sandbox_app)
    async with Client(base_url, admin_token, transport=transport) as client:
        assert client.base_url == "http://sandbox"
        orgs = await client.orgs.list()
    assert len(orgs.items) >= 2


async def test_a_path_prefix_is_kept_in_front_of_v1() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, json={"items": [], "count": 0})

    for base in ("https://example.com/api", "https://example.com/api/v1/"):
        async with Client(base, "t", transport=httpx.MockTransport(handler)) as client:
            await client.orgs.list(limit=5)
    assert seen == ["https://example.com/api/v1/orgs?limit=5"] * 2


async def test_a_list_is_a_page_when_awaited_and_items_when_iterated(client: Client) -> None:
    org = (await client.orgs.list()).items[0]
    for i in range(5):
        await client.spaces.create(org.id, title=f"Shape space {i}")
    paginator = client.spaces.list(org.id, limit=2)
    assert isinstance(paginator, AsyncPaginator)

    first = await paginator
    assert isinstance(first, ListPage)
    assert len(first.items) == 2 and first.next is not None
    assert all(isinstance(space, Space) for space in first.items)

    every = [space.id async for space in client.spaces.list(org.id, limit=2)]
    via_function = [space.id async for space in paginate(client.spaces.list(org.id, limit=2))]
    one_page = [space.id for space in (await client.spaces.list(org.id, limit=1000)).items]
    assert every == via_function == one_page
    assert len(every) == first.count

    # Starting from a cursor continues where the first page stopped.
    rest = client.spaces.list(org.id, limit=2, page=first.next.page)
    assert [s.id async for s in rest] == every[2:]


async def test_the_client_closes_its_one_httpx_client_on_exit(sandbox_app, admin_token) -> None:
    client = Client("http://sandbox", admin_token, transport=httpx.ASGITransport(app=sandbox_app))
    async with client as entered:
        assert entered is client
        http = client.transport.http
        await client.orgs.list()
        await client.spaces.list((await client.orgs.list()).items[0].id)
        assert client.transport.http is http
        assert not http.is_closed
    assert http.is_closed


async def test_orgs_list_items_are_models(client: Client) -> None:
    async for org in client.orgs.list():
        assert isinstance(org, Organization)
        assert org.permissions.view
