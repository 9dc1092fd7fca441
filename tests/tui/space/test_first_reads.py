"""`docdeck open <space>`: the launcher's pick of the first page, from the revision's JSON
alone (`space.first_reads`), is the space screen's (`SpacePages.first_readable`)."""

from __future__ import annotations

from docdeck.tui.content.page_tree import SpacePages
from docdeck.tui.space.first_reads import first_readable
from tui.conftest import RecordingTransport
from tui.helpers import every_space


async def test_the_launchers_pick_is_the_screens_for_every_space_of_the_demo(
    transport: RecordingTransport, admin_token: str
) -> None:
    picked = 0
    async for client, get_json, space in every_space(transport, admin_token):
        answer = await get_json(f"/v1/spaces/{space.id}/content")
        revision = await client.content.revision(space.id)
        first = SpacePages(revision.pages).first_readable()
        expected = first.id if first is not None else None
        assert first_readable(answer) == expected, space.title
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
