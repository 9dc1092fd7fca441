"""`docdeck open <space>`: the launcher's pick of the first page, from the revision's JSON
alone (`space.first_reads`), is the space screen's (`SpacePages.first_readable`)."""

from __future__ import annotations

import httpx

from docdeck.gateway import Client
from docdeck.tui.content.page_tree import SpacePages
from docdeck.tui.space.first_reads import first_readable
from tui.conftest import RecordingTransport


async def test_the_launchers_pick_is_the_screens_for_every_space_of_the_demo(
    transport: RecordingTransport, admin_token: str
) -> None:
    headers = {"Authorization": f"Bearer {admin_token}"}
    picked = 0
    async with (
        Client("http://sandbox", admin_token, transport=transport) as client,
        httpx.AsyncClient(transport=transport, base_url="http://sandbox") as raw,
    ):
        for org in (await client.orgs.list(limit=100)).items:
            for space in (await client.spaces.list(org.id, limit=100)).items:
                answer = await raw.get(f"/v1/spaces/{space.id}/content", headers=headers)
                revision = await client.content.revision(space.id)
                first = SpacePages(revision.pages).first_readable()
                expected = first.id if first is not None else None
                assert first_readable(answer.json()) == expected, space.title
                picked += expected is not None
    assert picked >= 3


def test_the_pick_goes_depth_first_to_a_document() -> None:
    revision = {
        "pages": [
            {"id": "g", "type": "group", "pages": [{"id": "d1", "type": "document"}]},
            {"id": "d2", "type": "document"},
        ]
    }
    assert first_readable(revision) == "d1"
    assert first_readable({"pages": [{"id": "l", "type": "link"}]}) is None
    assert first_readable({"pages": "no"}) is None
    assert first_readable(None) is None
