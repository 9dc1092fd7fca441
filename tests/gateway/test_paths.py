"""URLs come from the paths the `@endpoint` markers declare: each written once, the ids given
choosing among an operation's parents, every id escaped into its own segment."""

from __future__ import annotations

import httpx
import pytest

from docdeck.gateway import Client, NotFoundError


def recording_client(paths: list[str]) -> Client:
    def handler(request: httpx.Request) -> httpx.Response:
        paths.append(request.url.raw_path.decode())
        return httpx.Response(404, json={"error": {"code": 404, "message": "no such page"}})

    return Client("http://api.test", "token", transport=httpx.MockTransport(handler))


async def test_one_content_operation_at_its_three_places() -> None:
    paths: list[str] = []
    async with recording_client(paths) as client:
        for read in (
            client.content.page("s", "p", format=None),
            client.content.page("s", "p", format=None, revision="r 1"),
            client.content.page("s", "p", format=None, change_request=7),
            client.change_requests.content.page("s", 7, "p", format=None),
        ):
            with pytest.raises(NotFoundError):
                await read
    assert paths == [
        "/v1/spaces/s/content/page/p",
        "/v1/spaces/s/revisions/r%201/page/p",
        "/v1/spaces/s/change-requests/7/content/page/p",
        "/v1/spaces/s/change-requests/7/content/page/p",
    ]


async def test_a_page_path_keeps_its_slashes_and_escapes_each_segment() -> None:
    paths: list[str] = []
    async with recording_client(paths) as client:
        with pytest.raises(NotFoundError):
            await client.content.page_by_path("s", "/guide/a b?/", format=None)
    assert paths == ["/v1/spaces/s/content/path/guide/a%20b%3F"]


async def test_ids_that_name_no_path_are_refused_before_sending() -> None:
    paths: list[str] = []
    async with recording_client(paths) as client:
        with pytest.raises(TypeError, match=r"changeRequestId.*revisionId"):
            await client.content.pages("s", "r", change_request=7)
        with pytest.raises(TypeError):
            await client.content.file("s", "f", "r", change_request=7)
    assert paths == []


@pytest.mark.parametrize("bad", ["", ".", ".."])
async def test_an_id_that_would_change_the_path_is_refused(bad: str) -> None:
    """`..` is not escaped by percent-encoding: the URL would be normalized to the parent."""
    paths: list[str] = []
    async with recording_client(paths) as client:
        with pytest.raises(ValueError, match="id in the path"):
            await client.orgs.get(bad)
        with pytest.raises(ValueError, match="id in the path"):
            await client.comments.get("s", bad, change_request=3)
    assert paths == []
